extension ViewController {
  /// Swaps the view of child `from` for the view of child `to`, with an animated effect.
  ///
  /// Both must already be children of this controller (call ``addChild(_:)`` for `to`
  /// first); `from`'s view must be in the view tree and `to`'s must not. The order is:
  /// `from` gets `viewWillDisappear`, `to` gets `viewWillAppear` (animated when `duration > 0`;
  /// only while the container is on screen); `to.view` is inserted into `from.view`'s superview
  /// just above it, so only that container view animates; `animations` runs; once `duration`
  /// has passed on the window's ``AnimationClock``, `from.view` is removed, `completion(true)`
  /// runs, and then `from` gets `viewDidDisappear` and `to` `viewDidAppear` **(pinned:
  /// completion before the did-callbacks)**. With `duration` 0 all of it has happened when
  /// this method returns **(pinned)**.
  ///
  /// `from` and `to` get their callbacks when the container view is in a visible window and
  /// this controller has appeared or is appearing there (itself the new child of a transition
  /// still running).
  ///
  /// A transition in flight never outlives the place it runs in: it **completes at once**
  /// **(pinned)** — `from.view` removed, `completion(false)` (as UIKit passes when an
  /// animation is cut short), then the did-callbacks — as soon as
  /// - its container view, `from.view` or `to.view` is taken out of the tree or put in another
  ///   place, or a view holding them is (the parent removed from its own container, the
  ///   window's root replaced, a tree that was not in a window installed in one), or
  /// - a controller whose view holds it begins to appear or disappear (the window hidden or
  ///   shown, the parent itself transitioned away, `beginAppearanceTransition(_:animated:)`).
  ///
  /// That change then goes on from the settled state: a parent that leaves the window takes
  /// `to` out with it (`viewWillDisappear`/`viewDidDisappear`), and nothing is left half-way.
  /// `completion` may ignore `finished`, as Apple's own swap does: the swap has happened
  /// either way. `viewDidAppear(_:)` never reaches a view that is not on screen: an appearance
  /// whose view is no longer shown when the transition ends is turned into a disappearance.
  /// A size change does not cut a transition short; it goes on in the resized container.
  ///
  /// Refused and reported, with neither `animations` nor `completion` run: children that do not
  /// share this parent ("must have a common parent"), a parent that forwards appearance
  /// manually, views in the wrong place, and a transition on a child that is already part of
  /// one in flight — a second transition is refused, not queued **(pinned)**, and
  /// ``isInTransition`` tells whether one is under way.
  public func transition(
    from: ViewController, to: ViewController, duration: Double,
    options: View.AnimationOptions = [], animations: (@MainActor () -> Void)?,
    completion: (@MainActor (Bool) -> Void)?
  ) {
    guard from.parent === self, to.parent === self, from !== to else {
      Diagnostics.report(
        .invalidArgument,
        "Children view controllers \(from) and \(to) must have a common parent view controller when calling transition(from:to:duration:options:animations:completion:)"
      )
      return
    }
    guard shouldAutomaticallyForwardAppearanceMethods else {
      Diagnostics.report(
        .invalidArgument,
        "transition(from:to:duration:options:animations:completion:) is not supported by \(self): it forwards appearance methods manually"
      )
      return
    }
    guard !from.isInTransition, !to.isInTransition else {
      let busy = from.isInTransition ? from : to
      Diagnostics.report(
        .transitionInFlight,
        "Cannot start transition(from: \(from), to: \(to)) while \(busy) is part of a transition in flight")
      return
    }
    guard let fromView = from.viewIfLoaded, let container = fromView.superview else {
      Diagnostics.report(
        .invalidArgument,
        "The view of \(from) must be in the view hierarchy when calling transition(from:to:duration:options:animations:completion:)"
      )
      return
    }
    if let toView = to.viewIfLoaded, toView.superview != nil {
      Diagnostics.report(
        .invalidArgument,
        "The view of \(to) must not be in the view hierarchy when calling transition(from:to:duration:options:animations:completion:)"
      )
      return
    }
    let animated = duration > 0
    // On screen: in a visible window, and the container shown or on its way in.
    let onScreen =
      (appearanceState == .appeared || appearanceState == .appearing) && container.isInVisibleWindow
    from.transitionsInFlight += 1
    to.transitionsInFlight += 1
    if onScreen {
      from.beginAppearance(false, animated: animated)
      to.beginAppearance(true, animated: animated)
    }
    let toView = to.view
    container.insertSubview(toView, aboveSubview: fromView)
    guard toView.superview === container, fromView.superview === container else {
      // Refused by the hierarchy check (already reported): undo.
      from.transitionsInFlight -= 1
      to.transitionsInFlight -= 1
      if toView.superview === container { toView.removeFromSuperview() }
      if onScreen {
        to.beginAppearance(false, animated: animated)
        to.endAppearance()
        from.beginAppearance(true, animated: animated)
        from.endAppearance()
      }
      return
    }
    if onScreen { to.sendIsAppearing() }
    animations?()
    let clock = container.window?.clock ?? AnimationClock.shared
    let state = TransitionState(
      container: container, fromView: fromView, toView: toView, options: options,
      duration: max(0, duration), clock: clock)
    state.onComplete = { [self] finished in
      if fromView.superview === container { fromView.removeFromSuperview() }
      LifecycleLog.record(.transitionCompletion(finished: finished), from: self)
      completion?(finished)
      from.settleAppearance()
      to.settleAppearance()
      from.transitionsInFlight -= 1
      to.transitionsInFlight -= 1
      from.reconcileAppearance()
      to.reconcileAppearance()
    }
    if duration > 0 {
      container.activeTransitions.append(state)
      state.scheduledID = clock.scheduleItem(after: duration) { state.complete(finished: true) }
    } else {
      state.complete(finished: true)
    }
  }

  /// Ends the appearance change under way at the end of a transition: a disappearance ends;
  /// an appearance ends only if the view is on screen, and is otherwise turned back into a
  /// disappearance, so `viewDidAppear(_:)` never reaches a view that is not shown.
  fileprivate func settleAppearance() {
    if appearanceState == .appearing, viewIfLoaded?.isInVisibleWindow != true {
      beginAppearance(false, animated: appearanceAnimated)
    }
    endAppearance()
  }
}
