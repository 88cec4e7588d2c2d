import Testing

@testable import TunnelContainment

@MainActor
@Suite("transition(from:to:…) (rules 11–14)")
struct TransitionTests {
  /// A visible container P showing child A, with B added but not shown.
  func setUp() -> (Window, Container, Probe, Probe) {
    let parent = Container()
    let window = visibleWindow(parent)
    let a = Probe("A")
    let b = Probe("B")
    parent.add(a)
    parent.addChild(b)
    return (window, parent, a, b)
  }

  @Test("11. Children of different parents must have a common parent")
  func commonParent() {
    let (window, parent, a, _) = setUp()
    let stranger = Probe("S")
    var completed = false
    let reported = Diagnostics.capture {
      parent.transition(from: a, to: stranger, duration: 0, animations: nil) { _ in completed = true }
    }
    #expect(
      reported == [
        Diagnostic(
          .invalidArgument,
          "Children view controllers A and S must have a common parent view controller when calling transition(from:to:duration:options:animations:completion:)"
        )
      ])
    #expect(!completed)
    #expect(a.view.superview === parent.containerView)
    _ = window
  }

  @Test("11. Refused when the parent forwards appearance manually")
  func refusedWithManualForwarding() {
    let (window, parent, a, b) = setUp()
    parent.forwardsAutomatically = false
    let reported = Diagnostics.capture {
      parent.transition(from: a, to: b, duration: 0, animations: nil, completion: nil)
    }
    #expect(reported.map(\.kind) == [.invalidArgument])
    #expect(b.viewIfLoaded?.superview == nil)
    _ = window
  }

  @Test("11. A's view must be in the tree and B's must not")
  func viewsInPlace() {
    let (window, parent, a, b) = setUp()
    parent.containerView.addSubview(b.view)
    let reported = Diagnostics.capture {
      parent.transition(from: a, to: b, duration: 0, animations: nil, completion: nil)
      b.view.removeFromSuperview()
      a.view.removeFromSuperview()
      parent.transition(from: a, to: b, duration: 0, animations: nil, completion: nil)
    }
    #expect(reported.map(\.kind) == [.invalidArgument, .invalidArgument])
    #expect(reported[0].message.hasPrefix("The view of B must not be in the view hierarchy"))
    #expect(reported[1].message.hasPrefix("The view of A must be in the view hierarchy"))
    _ = window
  }

  @Test("12. Duration 0: the whole sequence, completion first then the did-callbacks, before returning")
  func zeroDurationOrder() {
    let (window, parent, a, b) = setUp()
    var inAnimations: [View] = []
    let log = lines {
      parent.transition(
        from: a, to: b, duration: 0, options: .transitionFlipFromTop,
        animations: { inAnimations = parent.containerView.subviews }, completion: { _ in })
    }
    #expect(
      log == [
        "A: viewWillDisappear(animated: false)",
        "B: loadView()",
        "B: viewDidLoad()",
        "B: viewWillAppear(animated: false)",
        "B: viewIsAppearing(animated: false)",
        "P: transition completion(finished: true)",
        "A: viewDidDisappear(animated: false)",
        "B: viewDidAppear(animated: false)",
      ])
    #expect(inAnimations.count == 2 && inAnimations[0] === a.view && inAnimations[1] === b.view)
    #expect(parent.containerView.subviews.count == 1 && parent.containerView.subviews[0] === b.view)
    #expect(a.appearanceState == .disappeared && b.appearanceState == .appeared)
    _ = window
  }

  @Test("12. With a duration the did half waits for the clock; callbacks are animated")
  func timedTransition() {
    let (window, parent, a, b) = setUp()
    b.loadViewIfNeeded()
    var finished: Bool?
    let started = lines {
      parent.transition(
        from: a, to: b, duration: 0.4, options: .transitionCurlUp, animations: nil,
        completion: { finished = $0 })
    }
    #expect(
      started == [
        "A: viewWillDisappear(animated: true)",
        "B: viewWillAppear(animated: true)",
        "B: viewIsAppearing(animated: true)",
      ])
    #expect(b.view.superview === parent.containerView && a.view.superview === parent.containerView)
    #expect(a.isInTransition && b.isInTransition)
    let early = lines { window.clock.advance(by: 0.39) }
    #expect(early.isEmpty && finished == nil)
    let rest = lines { window.clock.advance(by: 0.01) }
    #expect(
      rest == [
        "P: transition completion(finished: true)",
        "A: viewDidDisappear(animated: true)",
        "B: viewDidAppear(animated: true)",
      ])
    #expect(finished == true)
    #expect(a.view.superview == nil && !a.isInTransition && !b.isInTransition)
  }

  @Test("13. Apple's swap, in UIKit's order")
  func applesSwap() {
    let (window, parent, old, _) = setUp()
    let new = Probe("New")
    let log = lines {
      old.willMove(toParent: nil)
      parent.addChild(new)
      parent.transition(from: old, to: new, duration: 0, animations: nil) { _ in
        old.removeFromParent()
        new.didMove(toParent: parent)
      }
    }
    #expect(
      log == [
        "A: willMove(toParent: nil)",
        "New: willMove(toParent: P)",
        "A: viewWillDisappear(animated: false)",
        "New: loadView()",
        "New: viewDidLoad()",
        "New: viewWillAppear(animated: false)",
        "New: viewIsAppearing(animated: false)",
        "P: transition completion(finished: true)",
        "A: didMove(toParent: nil)",
        "New: didMove(toParent: P)",
        "A: viewDidDisappear(animated: false)",
        "New: viewDidAppear(animated: false)",
      ])
    #expect(parent.children.map(\.description) == ["B", "New"])
    #expect(old.movingFromParentSeen == ["viewWillDisappear": true, "viewDidDisappear": true])
    #expect(new.movingToParentSeen == ["viewWillAppear": true, "viewDidAppear": true])
    _ = window
  }

  @Test("13. Tunnel's flip: addChild(to), willMove(nil), transition { didMove; removeFromParent }")
  func tunnelsFlip() {
    let (window, parent, map, _) = setUp()
    let info = Probe("Info")
    info.view.frame = map.view.bounds
    parent.addChild(info)
    map.willMove(toParent: nil)
    parent.transition(
      from: map, to: info, duration: 0.2, options: [.transitionFlipFromTop, .curveEaseIn], animations: nil
    ) {
      _ in
      info.didMove(toParent: parent)
      map.removeFromParent()
    }
    window.clock.advance(by: 0.2)
    #expect(parent.children.map(\.description) == ["B", "Info"])
    #expect(map.parent == nil && map.appearanceState == .disappeared)
    #expect(info.appearanceState == .appeared && info.view.superview === parent.containerView)
  }

  @Test("14. A second transition on a child in flight is refused (pinned), and the tree stays intact")
  func secondTransitionRefused() {
    let (window, parent, a, b) = setUp()
    var completions = 0
    parent.transition(from: a, to: b, duration: 0.4, animations: nil) { _ in completions += 1 }
    window.clock.advance(by: 0.2)
    let reported = Diagnostics.capture {
      parent.transition(from: b, to: a, duration: 0.4, animations: nil) { _ in completions += 1 }
    }
    #expect(reported.map(\.kind) == [.transitionInFlight])
    window.clock.runUntilIdle()
    #expect(completions == 1)
    #expect(parent.containerView.subviews.count == 1 && parent.containerView.subviews[0] === b.view)
    #expect(a.appearanceState == .disappeared && b.appearanceState == .appeared)
    // Once the first one is over, the way back is open.
    parent.transition(from: b, to: a, duration: 0, animations: nil) { _ in completions += 1 }
    #expect(completions == 2 && a.appearanceState == .appeared)
  }

  @Test("14. Overlapping transitions of different children run side by side (the radar's 0.2 s stagger)")
  func overlappingTransitionsOfDifferentChildren() {
    let parent = Container()
    let window = visibleWindow(parent)
    let top = Probe("Top")
    let bottom = Probe("Bottom")
    let topInfo = Probe("TopInfo")
    let bottomInfo = Probe("BottomInfo")
    let log = LifecycleLog(clock: window.clock)
    parent.add(top)
    parent.add(bottom)
    func flip(_ from: ViewController, _ to: ViewController) {
      parent.addChild(to)
      from.willMove(toParent: nil)
      parent.transition(from: from, to: to, duration: 0.2, options: .transitionFlipFromTop, animations: nil) {
        _ in
        to.didMove(toParent: parent)
        from.removeFromParent()
      }
    }
    log.start()
    flip(top, topInfo)
    window.clock.schedule(after: 0.2) { flip(bottom, bottomInfo) }
    window.clock.runUntilIdle()
    log.stop()
    #expect(window.clock.now == 0.4)
    #expect(parent.children.map(\.description) == ["TopInfo", "BottomInfo"])
    #expect(log.events.filter { $0.callback == .viewDidAppear(animated: true) }.map(\.time) == [0.2, 0.4])
  }
}
