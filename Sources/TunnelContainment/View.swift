/// A rectangle of character cells that draws itself and holds subviews.
///
/// Frames are in the superview's coordinates, bounds in the view's own, both in character
/// cells. When a view's size changes, its subviews follow their ``autoresizingMask`` and
/// then ``layoutSubviews()`` runs. Views that belong to a ``ViewController`` carry the
/// containment checks: adding such a view under a controller that is not its parent is a
/// hierarchy inconsistency and is refused, and views entering or leaving a visible
/// ``Window`` drive the appearance callbacks of their controllers.
@MainActor
open class View: @MainActor CustomStringConvertible {
  /// The view's position and size in its superview's coordinates.
  public var frame: Rect {
    didSet {
      if oldValue.size != frame.size { sizeDidChange(from: oldValue.size) }
    }
  }

  /// The view's own coordinate space: its size at the origin.
  public var bounds: Rect {
    get { Rect(origin: .zero, size: frame.size) }
    set { frame.size = newValue.size }
  }

  /// How the view follows its superview's size changes.
  public var autoresizingMask: AutoresizingMask = []

  /// Whether the view (and its subviews) is left out of drawing.
  open var isHidden = false

  /// The colour the view fills its bounds with before drawing, or `nil` for none.
  public var backgroundColor: Color?

  /// The view this one is a subview of.
  public private(set) weak var superview: View?

  /// The subviews, back to front.
  public private(set) var subviews: [View] = []

  /// The controller whose ``ViewController/view`` this is.
  weak var owningController: ViewController?

  /// Transitions in flight whose children's views are subviews of this view.
  var activeTransitions: [TransitionState] = []

  /// Creates a view with a frame.
  public init(frame: Rect = .zero) {
    self.frame = frame
  }

  /// The type's name and the frame, such as `Label (0, 0, 10, 1)`.
  open var description: String { "\(type(of: self)) \(frame)" }

  /// The window at the root of this view's tree, if any.
  public var window: Window? {
    var view: View? = self
    while let current = view {
      if let window = current as? Window { return window }
      view = current.superview
    }
    return nil
  }

  /// Converts a point from the coordinates of `view` (the window's when `nil`) to this view's.
  ///
  /// Both views must be in the same tree; a point in a window's coordinates is a terminal cell.
  public func convert(_ point: Point, from view: View?) -> Point {
    point + (view?.originInRoot ?? .zero) - originInRoot
  }

  /// Converts a point from this view's coordinates to those of `view` (the window's when `nil`).
  public func convert(_ point: Point, to view: View?) -> Point {
    point + originInRoot - (view?.originInRoot ?? .zero)
  }

  /// The view's top-left cell in the coordinates of the root of its tree.
  private var originInRoot: Point {
    var origin = Point.zero
    var view: View? = self
    while let current = view, current.superview != nil {
      origin = origin + current.frame.origin
      view = current.superview
    }
    return origin
  }

  /// Whether this view is `view` or one of its descendants.
  public func isDescendant(of view: View) -> Bool {
    var current: View? = self
    while let candidate = current {
      if candidate === view { return true }
      current = candidate.superview
    }
    return false
  }

  /// Adds a view at the front of the subviews.
  ///
  /// A view that already has a superview leaves it first. Adding a view under itself, or a
  /// controller's view under a controller that is not its parent, is reported and refused.
  public func addSubview(_ view: View) {
    insertSubview(view, at: view.superview === self ? subviews.count - 1 : subviews.count)
  }

  /// Adds a view just in front of `sibling`, which must be a subview.
  public func insertSubview(_ view: View, aboveSubview sibling: View) {
    guard let index = subviews.firstIndex(where: { $0 === sibling }) else {
      addSubview(view)
      return
    }
    let adjusted = view.superview === self && (subviews.firstIndex { $0 === view } ?? 0) < index
    insertSubview(view, at: adjusted ? index : index + 1)
  }

  /// Adds a view at a position among the subviews (0 is the back).
  ///
  /// A view coming from another superview (or from none) first completes the transitions in
  /// flight it holds or takes part in (see
  /// ``ViewController/transition(from:to:duration:options:animations:completion:)``).
  public func insertSubview(_ view: View, at index: Int) {
    if isDescendant(of: view) {
      Diagnostics.report(.hierarchyInconsistency, "Can't add self as subview")
      return
    }
    if let problem = ViewController.inconsistency(adding: view, to: self) {
      Diagnostics.report(.hierarchyInconsistency, problem)
      return
    }
    if view.superview !== self {
      // Moving to another place cuts short the transitions it holds or takes part in.
      TransitionState.completeAll(under: view, includingOwnPlace: true)
      if isDescendant(of: view) || ViewController.inconsistency(adding: view, to: self) != nil {
        // A completion moved things around; check again from the start.
        insertSubview(view, at: index)
        return
      }
    }
    let wasVisible = view.isInVisibleWindow
    let sameSuperview = view.superview === self
    if let old = view.superview {
      let leaving = !sameSuperview && wasVisible && !isInVisibleWindow
      let controllers = leaving ? ViewController.viewWillLeaveVisibleWindow(view) : []
      old.subviews.removeAll { $0 === view }
      view.superview = nil
      ViewController.viewDidLeaveVisibleWindow(controllers)
    }
    subviews.insert(view, at: max(0, min(index, subviews.count)))
    view.superview = self
    if !wasVisible && isInVisibleWindow {
      ViewController.viewDidEnterVisibleWindow(view)
    }
  }

  /// Removes the view from its superview; controllers whose views leave a visible window disappear.
  ///
  /// Transitions in flight the view holds or takes part in complete first (see
  /// ``ViewController/transition(from:to:duration:options:animations:completion:)``).
  public func removeFromSuperview() {
    guard superview != nil else { return }
    // Leaving its place cuts short the transitions it holds or takes part in.
    TransitionState.completeAll(under: self, includingOwnPlace: true)
    guard let old = superview else { return }
    let controllers = isInVisibleWindow ? ViewController.viewWillLeaveVisibleWindow(self) : []
    old.subviews.removeAll { $0 === self }
    superview = nil
    ViewController.viewDidLeaveVisibleWindow(controllers)
  }

  /// Lays out the subviews after the view's size changed; the default does nothing.
  ///
  /// Autoresizing has already been applied when this runs.
  open func layoutSubviews() {}

  /// Draws the view's own content into `canvas`, in the view's coordinates and clipped to its
  /// bounds; the default draws nothing (the background is filled before).
  open func draw(in canvas: inout Canvas) {}

  /// Whether the view is in a window that is visible.
  var isInVisibleWindow: Bool { window?.isVisible ?? false }

  /// Resizes the subviews by their masks, then lays out.
  func sizeDidChange(from oldSize: Size) {
    for subview in subviews where !subview.autoresizingMask.isEmpty {
      subview.frame = subview.autoresizingMask.resize(subview.frame, from: oldSize, to: frame.size)
    }
    layoutSubviews()
  }

  /// The controllers whose views are the topmost controller views in this subtree.
  func topmostControllers() -> [ViewController] {
    if let controller = owningController { return [controller] }
    return subviews.flatMap { $0.topmostControllers() }
  }

  /// The nearest controller owning this view or one of its ancestors.
  var nearestController: ViewController? {
    var view: View? = self
    while let current = view {
      if let controller = current.owningController { return controller }
      view = current.superview
    }
    return nil
  }
}
