/// Manages a view and, as a container, child view controllers — UIKit's `UIViewController`,
/// headless, with the same names and the same call order.
///
/// Subclass it, override ``loadView()`` to build the view and the lifecycle callbacks to
/// react, and call `super` in every override as UIKit requires. The containment calls
/// (``addChild(_:)``, ``removeFromParent()``, ``willMove(toParent:)``,
/// ``didMove(toParent:)``, ``transition(from:to:duration:options:animations:completion:)``)
/// follow UIKit's contract; misuse is reported through ``Diagnostics`` and refused.
/// Every callback is recorded in the active ``LifecycleLog``s.
///
/// ```swift
/// final class Page: ViewController {
///   override func loadView() { view = Label(text: "Hello") }
///   override func viewWillAppear(_ animated: Bool) {
///     super.viewWillAppear(animated)
///     // …
///   }
/// }
///
/// container.addChild(page)
/// container.view.addSubview(page.view)
/// page.didMove(toParent: container)
/// ```
@MainActor
open class ViewController: @MainActor CustomStringConvertible {
  /// Creates a view controller; its view is loaded on first use.
  public init() {}

  // MARK: - The view

  private var loadedView: View?
  private var isLoadingView = false

  /// The controller's view, loaded by ``loadView()`` and ``viewDidLoad()`` on first read.
  public var view: View {
    get {
      if loadedView == nil {
        if isLoadingView {
          // Read from inside loadView() before a view was set: give it a plain one.
          install(View())
        } else {
          loadViewIfNeeded()
        }
      }
      return loadedView!
    }
    set { install(newValue) }
  }

  /// The view if it is loaded, without loading it.
  public var viewIfLoaded: View? { loadedView }

  /// Whether the view has been loaded.
  public var isViewLoaded: Bool { loadedView != nil }

  /// Loads the view now if it is not loaded yet: ``loadView()`` then ``viewDidLoad()``, once.
  public func loadViewIfNeeded() {
    guard loadedView == nil, !isLoadingView else { return }
    isLoadingView = true
    deliver(.loadView) { loadView() }
    if loadedView == nil { install(View()) }
    isLoadingView = false
    deliver(.viewDidLoad) { viewDidLoad() }
  }

  /// Creates the view; the default makes a plain ``View``. Overrides set ``view`` and do not call `super`.
  open func loadView() {
    view = View()
  }

  /// Called once after the view is loaded.
  open func viewDidLoad() {}

  private func install(_ newView: View) {
    if let loadedView, loadedView !== newView { loadedView.owningController = nil }
    if let other = newView.owningController, other !== self {
      Diagnostics.report(
        .invalidArgument,
        "View \(newView) is already the view of \(other); it cannot also be the view of \(self)")
      other.loadedView = nil
    }
    newView.owningController = self
    loadedView = newView
    // Views of other controllers inside the new view must belong to children of this one.
    for controller in newView.subviews.flatMap({ $0.topmostControllers() }) {
      if let parent = controller.parent, parent !== self {
        Diagnostics.report(
          .hierarchyInconsistency,
          "child view controller: \(controller) should have parent view controller: \(parent) but actual parent is: \(self)"
        )
        controller.view.removeFromSuperview()
      }
    }
  }

  // MARK: - Identity

  /// A localized title; containers show it in bars and menus.
  open var title: String?

  /// The title, or the type's name when there is no title. Log lines and diagnostics use it.
  open var description: String {
    title ?? String(describing: type(of: self))
  }

  // MARK: - Containment state

  /// The container this controller is a child of.
  public internal(set) weak var parent: ViewController?

  /// The child controllers, in the order they were added.
  public internal(set) var children: [ViewController] = []

  /// Set by ``addChild(_:)`` until the controller has appeared (or is removed).
  var movingToParent = false
  /// Set by `willMove(toParent: nil)` until the controller has disappeared (or was removed unseen).
  var movingFromParent = false

  // MARK: - Appearance state

  /// Where the controller is in its appearance cycle.
  public internal(set) var appearanceState: AppearanceState = .disappeared

  /// Whether the appearance under way is animated.
  var appearanceAnimated = false
  /// Whether `viewIsAppearing(_:)` was sent in the appearance under way.
  var isAppearingSent = false
  /// The callback being sent to this controller right now.
  var deliveringCallback: LifecycleCallback?
  /// The number of transitions in flight this controller takes part in.
  var transitionsInFlight = 0

  /// Whether the controller is the old or new child of a transition that has not finished.
  public var isInTransition: Bool { transitionsInFlight > 0 }

  /// Whether containers forward appearance callbacks to their children by themselves (the default).
  ///
  /// Override to return `false` and drive the children with
  /// ``beginAppearanceTransition(_:animated:)`` and ``endAppearanceTransition()``.
  open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

  /// True only inside the appearance callbacks of a controller that appears because it was just added.
  public var isMovingToParent: Bool {
    guard movingToParent, let callback = deliveringCallback else { return false }
    switch callback {
    case .viewWillAppear, .viewIsAppearing, .viewDidAppear: return true
    default: return false
    }
  }

  /// True only inside the disappearance callbacks of a controller that is being removed.
  public var isMovingFromParent: Bool {
    guard movingFromParent, let callback = deliveringCallback else { return false }
    switch callback {
    case .viewWillDisappear, .viewDidDisappear: return true
    default: return false
    }
  }

  // MARK: - Callbacks

  /// Called just before the controller is added to or removed from a container.
  ///
  /// ``addChild(_:)`` sends it with the new parent; when removing a child the container calls
  /// it with `nil` itself. Overrides must call `super`.
  open func willMove(toParent parent: ViewController?) {
    if deliveringCallback?.name != "willMove" {
      // Called by the container (removing): record it here.
      LifecycleLog.record(.willMove(toParent: parent?.description), from: self)
    }
    if parent == nil, self.parent != nil { movingFromParent = true }
  }

  /// Called after the controller was added to or removed from a container.
  ///
  /// The container calls it with itself once the child's view is in place (after its
  /// transition, if any); ``removeFromParent()`` sends it with `nil`. Overrides must call `super`.
  open func didMove(toParent parent: ViewController?) {
    if deliveringCallback?.name != "didMove" {
      LifecycleLog.record(.didMove(toParent: parent?.description), from: self)
    }
    guard let parent else { return }
    if parent !== self.parent {
      Diagnostics.report(
        .hierarchyInconsistency,
        "didMove(toParent:) sent to \(self) with \(parent), but its parent view controller is \(self.parent.map { "\($0)" } ?? "nil")"
      )
      return
    }
    if let host = viewIfLoaded?.superview?.nearestController, host !== parent {
      Diagnostics.report(
        .hierarchyInconsistency,
        "child view controller: \(self) should have parent view controller: \(parent) but actual parent is: \(host)"
      )
    }
    if appearanceState == .disappeared && parent.appearanceState != .appearing {
      movingToParent = false
    }
  }

  /// Called before the view is added to a visible view tree.
  open func viewWillAppear(_ animated: Bool) { checkDelivery("viewWillAppear(_:)", "viewWillAppear") }

  /// Called when the view is in the view tree and laid out, before it is shown.
  open func viewIsAppearing(_ animated: Bool) {
    checkDelivery("viewIsAppearing(_:)", "viewIsAppearing")
  }

  /// Called after the view became visible.
  open func viewDidAppear(_ animated: Bool) { checkDelivery("viewDidAppear(_:)", "viewDidAppear") }

  /// Called before the view leaves the visible view tree.
  open func viewWillDisappear(_ animated: Bool) {
    checkDelivery("viewWillDisappear(_:)", "viewWillDisappear")
  }

  /// Called after the view left the visible view tree.
  open func viewDidDisappear(_ animated: Bool) {
    checkDelivery("viewDidDisappear(_:)", "viewDidDisappear")
  }

  /// Called before the window's size changes, parent first, on every controller in the tree.
  ///
  /// The window sends this to each controller itself; overrides need not forward it.
  open func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {}

  /// Records a callback and runs it with ``deliveringCallback`` set.
  func deliver(_ callback: LifecycleCallback, _ body: () -> Void) {
    LifecycleLog.record(callback, from: self)
    let previous = deliveringCallback
    deliveringCallback = callback
    body()
    deliveringCallback = previous
  }

  /// Reports an appearance method that is being called directly rather than sent.
  private func checkDelivery(_ method: String, _ name: String) {
    guard deliveringCallback?.name != name else { return }
    Diagnostics.report(
      .appearanceMethodCalledDirectly,
      "\(method) called directly on \(self); use beginAppearanceTransition(_:animated:) and endAppearanceTransition()"
    )
  }
}
