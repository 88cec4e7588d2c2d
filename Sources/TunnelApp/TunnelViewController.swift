import TunnelContainment
import TunnelGeo
import TunnelMaps

/// The Tunnel: two maps kept at opposite ends of the Earth, and a radar that flips both over to
/// say in words where each end is.
///
/// The controller is a container with two container views, the top and bottom 42 % of its view,
/// and the radar button in the gap between them. It adds the start map (the digger) to the top one
/// and the target map (the red X) to the bottom one, and is the delegate of both: when the user
/// moves either annotation, it moves the other map's to the antipode. The two geo info controllers
/// are made at the start but join the tree only when the radar flips them in.
///
/// ``radar()`` gives each geo info controller its map's location and flips the top pair at once and
/// the bottom pair 0.2 s later (flip from top); pressed again it flips back (flip from bottom).
/// Each flip adds the new child, tells the old one it will move, transitions between the two
/// views inside their container view (only that area turns over), and in the completion tells the
/// new child it moved and removes the old one. A press while flips run is refused, so no
/// transition ever starts on a child that is still in one.
@MainActor
public final class TunnelViewController: ViewController, MapViewControllerDelegate {
  /// Where the original starts: western Denmark.
  nonisolated public static let defaultStart = try! Coordinate(latitude: 56.55, longitude: 8.316667)
  /// How long one flip takes, and how long the bottom flip waits after the top one.
  nonisolated public static let flipDuration = 0.2
  /// The share of the view's height each map gets.
  nonisolated public static let containerShare = 0.42

  /// The map of where you dig, in the top container.
  public let startMap: MapViewController
  /// The map of where you come out, in the bottom container.
  public let targetMap: MapViewController
  /// The words for the start, behind the top map.
  public let startInfo: GeoInfoViewController
  /// The words for the exit, behind the bottom map.
  public let targetInfo: GeoInfoViewController

  /// The container view of the top pair.
  public let topContainer = View()
  /// The container view of the bottom pair.
  public let bottomContainer = View()
  /// The radar button between the containers.
  public let radarButton = Label(text: "( r ) radar")

  /// Whether the geo info side is showing (or flips towards it are under way).
  public private(set) var isFlipped = false
  /// The number of flips started and not yet completed (0, 1 or 2).
  public private(set) var flipsInFlight = 0
  /// Whether a radar press would be refused now.
  public var isFlipping: Bool { flipsInFlight > 0 || pendingBottomFlip }
  private var pendingBottomFlip = false

  /// Creates the Tunnel starting at `start`, the target at its antipode.
  public init(
    start: Coordinate = TunnelViewController.defaultStart, renderer: MapRenderer?,
    geocoder: @escaping GeoInfoViewController.Geocoder
  ) {
    startMap = MapViewController(annotation: .digger, location: start, renderer: renderer)
    targetMap = MapViewController(annotation: .target, location: start.antipode, renderer: renderer)
    startInfo = GeoInfoViewController(annotation: .digger, geocoder: geocoder)
    targetInfo = GeoInfoViewController(annotation: .target, geocoder: geocoder)
    super.init()
    title = "Tunnel"
    startMap.title = "Start map"
    targetMap.title = "Target map"
    startInfo.title = "Start info"
    targetInfo.title = "Target info"
  }

  override public func loadView() {
    view = TunnelView(top: topContainer, bottom: bottomContainer, radar: radarButton)
  }

  override public func viewDidLoad() {
    super.viewDidLoad()
    radarButton.alignment = .center
    radarButton.style = Style(foreground: .brightWhite, bold: true)
    for (map, container) in [(startMap, topContainer), (targetMap, bottomContainer)] {
      addChild(map)
      map.view.frame = container.bounds
      map.view.autoresizingMask = .flexibleSize
      container.addSubview(map.view)
      map.didMove(toParent: self)
      map.delegate = self
    }
  }

  // MARK: - The relay

  public func mapViewController(_ mapViewController: MapViewController, didMoveTo location: Coordinate) {
    let other = mapViewController === startMap ? targetMap : startMap
    other.updateAnnotationLocation(location.antipode)
    if isFlipped {
      startInfo.location = startMap.location
      targetInfo.location = targetMap.location
    }
  }

  // MARK: - The radar

  /// Flips both maps to their geo info (or back); false, and nothing done, while flips run.
  @discardableResult
  public func radar() -> Bool {
    guard !isFlipping else { return false }
    if isFlipped {
      isFlipped = false
      flipBoth(
        top: (startInfo, startMap), bottom: (targetInfo, targetMap), options: .transitionFlipFromBottom)
    } else {
      isFlipped = true
      startInfo.location = startMap.location
      targetInfo.location = targetMap.location
      flipBoth(top: (startMap, startInfo), bottom: (targetMap, targetInfo), options: .transitionFlipFromTop)
    }
    return true
  }

  /// Flips the top pair now and the bottom pair ``flipDuration`` later.
  private func flipBoth(
    top: (ViewController, ViewController), bottom: (ViewController, ViewController),
    options: View.AnimationOptions
  ) {
    flip(from: top.0, to: top.1, options: options)
    pendingBottomFlip = true
    let clock = view.window?.clock ?? AnimationClock.shared
    clock.schedule(after: Self.flipDuration) { [weak self] in
      guard let self else { return }
      self.pendingBottomFlip = false
      self.flip(from: bottom.0, to: bottom.1, options: options)
    }
  }

  /// Swaps one child for another inside the old one's container view, the documented way.
  private func flip(from old: ViewController, to new: ViewController, options: View.AnimationOptions) {
    new.view.frame = old.view.bounds
    new.view.autoresizingMask = .flexibleSize
    addChild(new)
    old.willMove(toParent: nil)
    flipsInFlight += 1
    transition(
      from: old, to: new, duration: Self.flipDuration, options: [options, .curveEaseIn], animations: nil
    ) { [weak self] _ in
      guard let self else { return }
      new.didMove(toParent: self)
      old.removeFromParent()
      self.flipsInFlight -= 1
    }
  }

  /// The user moved the marker of one end to `location` from outside the maps (a search); the
  /// other end follows as if the marker had been moved on its map.
  public func moveMarker(_ annotation: MapAnnotation, to location: Coordinate) {
    map(annotation).moveAnnotation(to: location)
  }

  /// The map that shows an annotation.
  public func map(_ annotation: MapAnnotation) -> MapViewController {
    annotation == .digger ? startMap : targetMap
  }
}
