extension ViewController {
  /// Starts an appearance change sent by the container itself (manual forwarding).
  ///
  /// `true` sends ``viewWillAppear(_:)``, `false` ``viewWillDisappear(_:)``; the child's
  /// own children follow if it forwards automatically. A begin in the opposite direction
  /// cancels one in flight. A begin in the direction already under way (or already reached)
  /// is unbalanced: reported, and no callback is sent.
  public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
    guard canBeginAppearance(isAppearing) else {
      reportUnbalanced()
      return
    }
    beginAppearance(isAppearing, animated: animated)
    if isAppearing, viewIfLoaded?.isInVisibleWindow == true { sendIsAppearing() }
  }

  /// Finishes the appearance change under way: sends ``viewDidAppear(_:)`` or
  /// ``viewDidDisappear(_:)``, to the child's own children too. With nothing begun it is
  /// unbalanced: reported, and no callback is sent.
  public func endAppearanceTransition() {
    guard appearanceState == .appearing || appearanceState == .disappearing else {
      reportUnbalanced()
      return
    }
    endAppearance()
  }

  private func reportUnbalanced() {
    Diagnostics.report(
      .unbalancedAppearanceTransition, "Unbalanced calls to begin/end appearance transitions for \(self).")
  }

  /// Whether a begin in this direction is legal in the current state.
  func canBeginAppearance(_ appearing: Bool) -> Bool {
    appearing
      ? appearanceState == .disappeared || appearanceState == .disappearing
      : appearanceState == .appeared || appearanceState == .appearing
  }

  /// The children that follow this controller's appearance automatically right now.
  private var forwardedChildren: [ViewController] {
    guard shouldAutomaticallyForwardAppearanceMethods, let ownView = viewIfLoaded else { return [] }
    return children.filter { child in
      !child.isInTransition && child.viewIfLoaded?.superview != nil
        && child.viewIfLoaded?.isDescendant(of: ownView) == true
    }
  }

  /// Sends the will-callback to this controller, then (depth first) to its forwarded children.
  ///
  /// Transitions in flight inside this controller's view are completed first, cut short
  /// (see ``transition(from:to:duration:options:animations:completion:)``), so that every
  /// controller below is settled before the change begins. Controllers for which the move is
  /// not legal are skipped silently.
  func beginAppearance(_ appearing: Bool, animated: Bool) {
    guard canBeginAppearance(appearing) else { return }
    if let ownView = viewIfLoaded {
      TransitionState.completeAll(under: ownView, includingOwnPlace: false)
    }
    forwardBeginAppearance(appearing, animated: animated)
  }

  /// ``beginAppearance(_:animated:)`` once transitions are settled.
  private func forwardBeginAppearance(_ appearing: Bool, animated: Bool) {
    guard canBeginAppearance(appearing) else { return }
    if appearing { loadViewIfNeeded() }
    appearanceState = appearing ? .appearing : .disappearing
    appearanceAnimated = animated
    isAppearingSent = false
    if appearing {
      deliver(.viewWillAppear(animated: animated)) { viewWillAppear(animated) }
    } else {
      deliver(.viewWillDisappear(animated: animated)) { viewWillDisappear(animated) }
    }
    for child in forwardedChildren {
      child.forwardBeginAppearance(appearing, animated: animated)
    }
  }

  /// Sends `viewIsAppearing(_:)` once per appearance, parent first.
  func sendIsAppearing() {
    guard appearanceState == .appearing else { return }
    if !isAppearingSent {
      isAppearingSent = true
      deliver(.viewIsAppearing(animated: appearanceAnimated)) { viewIsAppearing(appearanceAnimated) }
    }
    for child in forwardedChildren where child.appearanceState == .appearing {
      child.sendIsAppearing()
    }
  }

  /// Sends the did-callback to this controller, then (depth first) to its forwarded children.
  func endAppearance() {
    let animated = appearanceAnimated
    switch appearanceState {
    case .appearing:
      if !isAppearingSent { sendIsAppearing() }
      appearanceState = .appeared
      deliver(.viewDidAppear(animated: animated)) { viewDidAppear(animated) }
      movingToParent = false
    case .disappearing:
      appearanceState = .disappeared
      deliver(.viewDidDisappear(animated: animated)) { viewDidDisappear(animated) }
      movingFromParent = false
    case .appeared, .disappeared:
      return
    }
    let appeared = appearanceState == .appeared
    for child in forwardedChildren {
      switch (appeared, child.appearanceState) {
      case (true, .appearing), (false, .disappearing):
        child.endAppearance()
      case (true, .disappeared):
        // Its view arrived while this controller was appearing: it appears now, in full.
        child.appearNow(animated: animated)
      case (false, .appeared):
        child.disappearNow(animated: animated)
      default:
        break
      }
    }
  }

  /// Runs a whole appearance: will, is-appearing, did.
  func appearNow(animated: Bool = false) {
    beginAppearance(true, animated: animated)
    sendIsAppearing()
    endAppearance()
  }

  /// Runs a whole disappearance: will, did.
  func disappearNow(animated: Bool = false) {
    beginAppearance(false, animated: animated)
    endAppearance()
  }

  /// Whether this controller appears now that its view entered its parent's visible tree.
  var shouldAppearByViewMovement: Bool {
    guard let parent, parent.shouldAutomaticallyForwardAppearanceMethods else { return false }
    return parent.appearanceState == .appeared && appearanceState == .disappeared && !isInTransition
  }

  /// Whether this controller disappears now that its view leaves its parent's visible tree:
  /// it is shown or on its way in or out, and no transition of its parent is moving it.
  var shouldDisappearByViewMovement: Bool {
    guard let parent, parent.shouldAutomaticallyForwardAppearanceMethods else { return false }
    return appearanceState != .disappeared && !isInTransition
  }

  /// Sends the appearance callbacks for controllers whose views just entered a visible window.
  static func viewDidEnterVisibleWindow(_ view: View) {
    for controller in view.topmostControllers() where controller.shouldAppearByViewMovement {
      controller.appearNow()
    }
  }

  /// Sends the will-disappear callbacks for controllers whose views are about to leave a
  /// visible window; returns them, to finish with ``viewDidLeaveVisibleWindow(_:)``.
  static func viewWillLeaveVisibleWindow(_ view: View) -> [ViewController] {
    let leaving = view.topmostControllers().filter(\.shouldDisappearByViewMovement)
    // One already disappearing (its parent is on its way out) only has its disappearance ended.
    for controller in leaving where controller.appearanceState != .disappearing {
      controller.beginAppearance(false, animated: false)
    }
    return leaving
  }

  /// Sends the did-disappear callbacks begun by ``viewWillLeaveVisibleWindow(_:)``.
  static func viewDidLeaveVisibleWindow(_ controllers: [ViewController]) {
    for controller in controllers where controller.appearanceState == .disappearing {
      controller.endAppearance()
    }
  }

  /// Brings this controller's appearance in line with where its view is, after a transition.
  func reconcileAppearance() {
    let visible: Bool = {
      guard let parent, parent.shouldAutomaticallyForwardAppearanceMethods,
        parent.appearanceState == .appeared, let ownView = viewIfLoaded,
        let parentView = parent.viewIfLoaded
      else { return false }
      return ownView.superview != nil && ownView.isDescendant(of: parentView) && ownView.isInVisibleWindow
    }()
    let isWindowRoot = viewIfLoaded?.superview is Window && parent == nil
    if visible && appearanceState == .disappeared {
      appearNow()
    } else if !visible && appearanceState == .appeared && !isWindowRoot {
      disappearNow()
    }
  }
}
