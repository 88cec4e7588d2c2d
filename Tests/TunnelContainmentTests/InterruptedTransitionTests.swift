import Testing

@testable import TunnelContainment

/// What becomes of a transition in flight when its place changes under it: it completes at
/// once, cut short, before the change goes on (pinned).
@MainActor
@Suite("Transitions cut short (pinned)")
struct InterruptedTransitionTests {
  /// A visible root holding container K, whose child A is being swapped for B over 0.3 s,
  /// a third of the way through, the documented way (Apple's swap).
  @MainActor final class Scene {
    let root = Container("Root")
    let window: Window
    let container = Container("K")
    let a = Probe("A")
    let b = Probe("B")
    var finished: [Bool] = []

    init() {
      window = visibleWindow(root)
      root.add(container)
      container.add(a)
      b.view.frame = container.containerView.bounds
      b.view.autoresizingMask = .flexibleSize
      a.willMove(toParent: nil)
      container.addChild(b)
      container.transition(
        from: a, to: b, duration: 0.3, options: .transitionFlipFromTop, animations: nil
      ) { [self] finished in
        self.finished.append(finished)
        a.removeFromParent()
        b.didMove(toParent: container)
      }
      window.clock.advance(by: 0.1)
    }

    /// The swap has happened, once, and nothing is left in flight in K.
    func expectSwapped() {
      #expect(finished.count == 1)
      #expect(!a.isInTransition && !b.isInTransition)
      #expect(container.children.map(\.description) == ["B"] && a.parent == nil)
      #expect(container.containerView.subviews.count == 1 && b.view.superview === container.containerView)
      #expect(container.containerView.activeTransitions.isEmpty)
      #expect(a.appearedOffScreen == 0 && b.appearedOffScreen == 0)
    }
  }

  @Test("Removing the container completes the transition, then the container leaves with the new child")
  func containerRemoved() {
    let scene = Scene()
    var log: [String] = []
    let reported = Diagnostics.capture {
      log = lines { scene.root.remove(scene.container) }
    }
    #expect(reported.isEmpty)
    #expect(
      log == [
        "K: willMove(toParent: nil)",
        "K: transition completion(finished: false)",
        "A: didMove(toParent: nil)",
        "B: didMove(toParent: K)",
        "A: viewDidDisappear(animated: true)",
        "B: viewDidAppear(animated: true)",
        "K: viewWillDisappear(animated: false)",
        "B: viewWillDisappear(animated: false)",
        "K: viewDidDisappear(animated: false)",
        "B: viewDidDisappear(animated: false)",
        "K: didMove(toParent: nil)",
      ])
    #expect(scene.finished == [false] && scene.window.clock.isIdle)
    scene.expectSwapped()
    #expect([scene.container, scene.a, scene.b].allSatisfy { $0.appearanceState == .disappeared })
    // Added back, the container shows the new child only.
    scene.root.add(scene.container)
    #expect(scene.b.appearanceState == .appeared && scene.a.appearanceState == .disappeared)
  }

  @Test(
    "Hiding the window completes the transition before anything disappears; showing it shows the new child")
  func windowHidden() {
    let scene = Scene()
    let log = lines { scene.window.isHidden = true }
    #expect(
      Array(log.prefix(5)) == [
        "K: transition completion(finished: false)",
        "A: didMove(toParent: nil)",
        "B: didMove(toParent: K)",
        "A: viewDidDisappear(animated: true)",
        "B: viewDidAppear(animated: true)",
      ])
    #expect(log.dropFirst(5).allSatisfy { $0.contains("Disappear") })
    #expect(scene.finished == [false] && scene.window.clock.isIdle)
    scene.expectSwapped()
    #expect(
      [scene.root, scene.container, scene.a, scene.b].allSatisfy { $0.appearanceState == .disappeared })
    scene.window.makeKeyAndVisible()
    #expect(scene.b.appearanceState == .appeared && scene.a.appearanceState == .disappeared)
  }

  @Test("Replacing the window's root completes the transition; the old tree is all off screen")
  func windowRootReplaced() {
    let scene = Scene()
    let other = Container("Other")
    scene.window.rootViewController = other
    #expect(scene.finished == [false] && scene.window.clock.isIdle)
    scene.expectSwapped()
    #expect(
      [scene.root, scene.container, scene.a, scene.b].allSatisfy { $0.appearanceState == .disappeared })
    #expect(other.appearanceState == .appeared)
  }

  @Test("The container transitioned away by its own parent completes its inner transition first")
  func containerTransitionedAway() {
    let scene = Scene()
    let next = Probe("Next")
    next.view.frame = scene.root.containerView.bounds
    scene.root.addChild(next)
    scene.root.transition(from: scene.container, to: next, duration: 0.2, animations: nil, completion: nil)
    #expect(scene.finished == [false])
    scene.expectSwapped()
    #expect(scene.container.isInTransition && !scene.window.clock.isIdle)
    #expect(scene.container.appearanceState == .disappearing && scene.b.appearanceState == .disappearing)
    scene.window.clock.runUntilIdle()
    #expect([scene.container, scene.a, scene.b].allSatisfy { $0.appearanceState == .disappeared })
    #expect(next.appearanceState == .appeared)
  }

  @Test("Pulling the new child's view out cuts the transition short; viewDidAppear never comes off screen")
  func newViewPulledOut() {
    let scene = Scene()
    _ = Diagnostics.capture { scene.b.view.removeFromSuperview() }
    #expect(scene.finished == [false])
    #expect(scene.window.clock.isIdle && !scene.b.isInTransition)
    #expect(scene.b.appearanceState == .disappeared && scene.b.appearedOffScreen == 0)
    #expect(scene.a.appearanceState == .disappeared && scene.a.view.superview == nil)
  }

  @Test("A size change does not cut a transition short: it runs on in the resized container")
  func resizedMidTransition() {
    let scene = Scene()
    scene.window.resize(to: Size(width: 60, height: 20))
    #expect(scene.finished.isEmpty && scene.b.isInTransition)
    #expect(scene.a.sizes == [Size(width: 60, height: 20)] && scene.b.sizes == [Size(width: 60, height: 20)])
    #expect(scene.b.view.frame.size == scene.container.containerView.bounds.size)
    let frame = scene.window.render()
    #expect(frame.size == Size(width: 60, height: 20))
    scene.window.clock.advance(by: 0.2)
    #expect(scene.finished == [true])
    scene.expectSwapped()
    #expect(scene.b.appearanceState == .appeared && scene.a.appearanceState == .disappeared)
  }

  @Test("A transition started before its tree is in a window completes when the tree is installed")
  func startedOffWindow() {
    let container = Container("K")
    let a = Probe("A")
    let b = Probe("B")
    container.add(a)
    container.addChild(b)
    var finished: [Bool] = []
    container.transition(from: a, to: b, duration: 0.3, animations: nil) { finished.append($0) }
    #expect(finished.isEmpty && b.isInTransition)
    let window = visibleWindow(container)
    #expect(finished == [false] && !b.isInTransition)
    #expect(b.appearanceState == .appeared && a.appearanceState == .disappeared && a.view.superview == nil)
    _ = window
  }
}
