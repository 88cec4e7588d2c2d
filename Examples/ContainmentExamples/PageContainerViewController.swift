import TunnelContainment

/// A container that shows one of a fixed array of pages and swipes between them with a curl.
///
/// The first page is added when the container is about to appear; swiping left moves to the
/// next page, swiping right to the previous one, without wrapping. Each move is UIKit's swap:
/// `willMove(toParent: nil)` on the old page, `addChild` of the new one, then
/// `transition(from:to:…)` whose completion sends `didMove(toParent:)` and
/// `removeFromParent()`. A swipe while a page is still turning is ignored.
public final class PageContainerViewController: ViewController {
  private var pages: [ViewController] = []
  /// The page on screen (or about to be).
  public private(set) var selectedViewController: ViewController?
  /// The area the pages fill: the container's view inset by two rows at top and bottom.
  public let containerView = View()
  /// How long a page turn takes, in seconds.
  public var transitionDuration = 1.0

  /// Creates an empty page container.
  override public init() {
    super.init()
    title = "Pages"
  }

  /// The pages; reading returns a copy. Setting them selects the first one.
  public var subViewControllers: [ViewController] {
    get { pages }
    set {
      pages = newValue
      selectedViewController = newValue.first
    }
  }

  override public func loadView() {
    let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 16))
    root.autoresizingMask = .flexibleSize
    root.backgroundColor = .blue
    let header = Label(text: "Page container", frame: Rect(x: 1, y: 0, width: 58, height: 1))
    header.autoresizingMask = .flexibleWidth
    header.style = Style(foreground: .brightWhite, bold: true)
    root.addSubview(header)
    let help = Label(
      text: "← swipe left: next   → swipe right: previous   q: quit",
      frame: Rect(x: 1, y: 15, width: 58, height: 1))
    help.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
    help.style = Style(foreground: .brightWhite)
    root.addSubview(help)
    containerView.frame = root.bounds.insetBy(dx: 0, dy: 2)
    containerView.backgroundColor = .red
    containerView.autoresizingMask = .flexibleSize
    root.addSubview(containerView)
    view = root
  }

  override public func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    guard let selected = selectedViewController, selected.parent !== self else { return }
    selected.view.frame = containerView.bounds
    selected.view.autoresizingMask = containerView.autoresizingMask
    addChild(selected)
    containerView.addSubview(selected.view)
    selected.didMove(toParent: self)
  }

  /// Moves to the next page, if there is one.
  public func swipeLeft() {
    move(by: 1)
  }

  /// Moves to the previous page, if there is one.
  public func swipeRight() {
    move(by: -1)
  }

  /// Handles a key: ← (or h) swipes left, → (or l) swipes right.
  public func handle(_ key: Key) {
    switch key {
    case .left, .character("h"): swipeLeft()
    case .right, .character("l"): swipeRight()
    default: break
    }
  }

  private func move(by step: Int) {
    guard let selected = selectedViewController,
      let index = pages.firstIndex(where: { $0 === selected })
    else { return }
    let target = pages[min(max(index + step, 0), pages.count - 1)]
    transition(from: selected, to: target, options: step > 0 ? .transitionCurlUp : .transitionCurlDown)
  }

  private func transition(from: ViewController, to: ViewController, options: View.AnimationOptions) {
    guard from !== to, !from.isInTransition, !to.isInTransition else { return }
    to.view.frame = containerView.bounds
    to.view.autoresizingMask = containerView.autoresizingMask
    from.willMove(toParent: nil)
    addChild(to)
    selectedViewController = to
    transition(
      from: from, to: to, duration: transitionDuration, options: options, animations: {},
      completion: { _ in
        to.didMove(toParent: self)
        from.removeFromParent()
      })
  }

  /// A container with five pages, as in the example.
  public static func withFivePages() -> PageContainerViewController {
    let container = PageContainerViewController()
    container.subViewControllers = (1...5).map { PageViewController(number: $0, of: 5) }
    return container
  }
}
