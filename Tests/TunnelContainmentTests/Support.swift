import TunnelContainment

/// A controller that counts the times `viewDidAppear(_:)` reached it while its view was not
/// in a visible window.
@MainActor
protocol AppearanceRecording: ViewController {
  var appearedOffScreen: Int { get }
}

extension ViewController {
  /// Whether the view is in a window that is visible right now.
  var isOnScreen: Bool { viewIfLoaded?.window?.isVisible ?? false }
}

/// A controller with a title, recording what it saw during its callbacks.
@MainActor
final class Probe: ViewController, AppearanceRecording {
  var appearedOffScreen = 0
  var movingToParentSeen: [String: Bool] = [:]
  var movingFromParentSeen: [String: Bool] = [:]
  var parentAtDidMove: [ViewController?] = []
  var sizes: [Size] = []
  var layouts = 0

  init(_ title: String) {
    super.init()
    self.title = title
  }

  override func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    movingToParentSeen["viewWillAppear"] = isMovingToParent
  }

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    movingToParentSeen["viewDidAppear"] = isMovingToParent
    if !isOnScreen { appearedOffScreen += 1 }
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    movingFromParentSeen["viewWillDisappear"] = isMovingFromParent
  }

  override func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
    movingFromParentSeen["viewDidDisappear"] = isMovingFromParent
  }

  override func didMove(toParent parent: ViewController?) {
    super.didMove(toParent: parent)
    parentAtDidMove.append(self.parent)
  }

  override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
    super.viewWillTransition(to: size, with: coordinator)
    sizes.append(size)
  }
}

/// A container whose children go into `containerView`, a subview inset from its view.
@MainActor
final class Container: ViewController, AppearanceRecording {
  let containerView = View()
  var forwardsAutomatically = true
  var appearedOffScreen = 0

  init(_ title: String = "P") {
    super.init()
    self.title = title
  }

  override var shouldAutomaticallyForwardAppearanceMethods: Bool { forwardsAutomatically }

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    if !isOnScreen { appearedOffScreen += 1 }
  }

  override func loadView() {
    let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 12))
    containerView.frame = Rect(x: 2, y: 2, width: 36, height: 8)
    containerView.autoresizingMask = .flexibleSize
    root.addSubview(containerView)
    view = root
  }

  /// Adds a child the documented way: addChild, add the view, didMove.
  func add(_ child: ViewController) {
    loadViewIfNeeded()
    addChild(child)
    child.view.frame = containerView.bounds
    child.view.autoresizingMask = .flexibleSize
    containerView.addSubview(child.view)
    child.didMove(toParent: self)
  }

  /// Removes a child the documented way: willMove(nil), remove the view, removeFromParent.
  func remove(_ child: ViewController) {
    child.willMove(toParent: nil)
    child.view.removeFromSuperview()
    child.removeFromParent()
  }
}

/// A visible window of 40×12 cells showing `root`.
@MainActor
func visibleWindow(_ root: ViewController, size: Size = Size(width: 40, height: 12)) -> Window {
  let window = Window(size: size)
  window.rootViewController = root
  window.makeKeyAndVisible()
  return window
}

/// The log lines recorded while `body` runs.
@MainActor
func lines(_ body: () -> Void) -> [String] {
  LifecycleLog.recording(body).lines
}
