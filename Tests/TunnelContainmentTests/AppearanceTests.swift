import Testing

@testable import TunnelContainment

@MainActor
@Suite("Appearance (rules 6–10)")
struct AppearanceTests {
  /// P with children A (holding grandchild G) and B in its tree, and N added but not in the tree.
  func family() -> (Container, Container, Probe, Probe, Probe) {
    let parent = Container()
    let a = Container("A")
    let g = Probe("G")
    let b = Probe("B")
    let n = Probe("N")
    parent.add(a)
    a.add(g)
    parent.add(b)
    parent.addChild(n)
    return (parent, a, g, b, n)
  }

  @Test("6. Appearing: parent first, children in order, depth first, all will before any did")
  func appearanceOrder() {
    let (parent, _, _, _, _) = family()
    let window = Window(size: Size(width: 40, height: 12))
    window.rootViewController = parent
    let log = LifecycleLog.recording { window.makeKeyAndVisible() }
    #expect(
      log.lines(only: ["viewWillAppear", "viewDidAppear"]) == [
        "P: viewWillAppear(animated: false)",
        "A: viewWillAppear(animated: false)",
        "G: viewWillAppear(animated: false)",
        "B: viewWillAppear(animated: false)",
        "P: viewDidAppear(animated: false)",
        "A: viewDidAppear(animated: false)",
        "G: viewDidAppear(animated: false)",
        "B: viewDidAppear(animated: false)",
      ])
    #expect(
      log.lines(only: ["viewIsAppearing"]) == [
        "P: viewIsAppearing(animated: false)",
        "A: viewIsAppearing(animated: false)",
        "G: viewIsAppearing(animated: false)",
        "B: viewIsAppearing(animated: false)",
      ])
    let firstDid = log.lines.firstIndex { $0.contains("viewDidAppear") }!
    let lastIsAppearing = log.lines.lastIndex { $0.contains("viewIsAppearing") }!
    #expect(lastIsAppearing < firstDid)
  }

  @Test("6. Disappearing mirrors appearing (pinned), and a child not in the tree gets nothing")
  func disappearanceOrderAndChildOutsideTree() {
    let (parent, _, _, _, n) = family()
    let window = visibleWindow(parent)
    let log = LifecycleLog.recording { window.isHidden = true }
    #expect(
      log.lines == [
        "P: viewWillDisappear(animated: false)",
        "A: viewWillDisappear(animated: false)",
        "G: viewWillDisappear(animated: false)",
        "B: viewWillDisappear(animated: false)",
        "P: viewDidDisappear(animated: false)",
        "A: viewDidDisappear(animated: false)",
        "G: viewDidDisappear(animated: false)",
        "B: viewDidDisappear(animated: false)",
      ])
    #expect(n.appearanceState == .disappeared)
    #expect(parent.appearanceState == .disappeared)
  }

  @Test("6. Replacing the root controller of a visible window swaps their appearance")
  func replacingRoot() {
    let first = Probe("First")
    let second = Probe("Second")
    let window = visibleWindow(first)
    let log = lines { window.rootViewController = second }
    #expect(
      log == [
        "First: viewWillDisappear(animated: false)",
        "First: viewDidDisappear(animated: false)",
        "Second: loadView()",
        "Second: viewDidLoad()",
        "Second: viewWillAppear(animated: false)",
        "Second: viewIsAppearing(animated: false)",
        "Second: viewDidAppear(animated: false)",
      ])
    #expect(second.view.frame == window.bounds)
  }

  @Test("7. A child view added to a visible container appears; removed, it disappears")
  func viewMovementDrivesAppearance() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    parent.addChild(child)
    child.loadViewIfNeeded()
    let added = lines { parent.containerView.addSubview(child.view) }
    #expect(
      added == [
        "C: viewWillAppear(animated: false)",
        "C: viewIsAppearing(animated: false)",
        "C: viewDidAppear(animated: false)",
      ])
    let removed = lines { child.view.removeFromSuperview() }
    #expect(removed == ["C: viewWillDisappear(animated: false)", "C: viewDidDisappear(animated: false)"])
    _ = window
  }

  @Test("7. A child added while the container is invisible appears with it later")
  func childOfInvisibleContainer() {
    let parent = Container()
    let child = Probe("C")
    #expect(lines { parent.add(child) }.allSatisfy { !$0.contains("Appear") })
    let window = visibleWindow(parent)
    #expect(child.appearanceState == .appeared)
    _ = window
  }

  @Test(
    "8. With manual forwarding the container drives its children with begin/end, which reach grandchildren")
  func manualForwarding() {
    let parent = Container()
    parent.forwardsAutomatically = false
    let child = Container("C")
    let grandchild = Probe("G")
    parent.add(child)
    child.add(grandchild)
    let window = Window(size: Size(width: 40, height: 12))
    window.rootViewController = parent
    let appeared = lines { window.makeKeyAndVisible() }
    #expect(appeared.allSatisfy { $0.hasPrefix("P:") })
    let began = lines { child.beginAppearanceTransition(true, animated: true) }
    #expect(
      began == [
        "C: viewWillAppear(animated: true)",
        "G: viewWillAppear(animated: true)",
        "C: viewIsAppearing(animated: true)",
        "G: viewIsAppearing(animated: true)",
      ])
    let ended = lines { child.endAppearanceTransition() }
    #expect(ended == ["C: viewDidAppear(animated: true)", "G: viewDidAppear(animated: true)"])
    #expect(grandchild.appearanceState == .appeared)
  }

  @Test("8. Calling viewWillAppear and friends directly is misuse")
  func directCallsAreReported() {
    let child = Probe("C")
    let reported = Diagnostics.capture {
      child.viewWillAppear(false)
      child.viewDidDisappear(false)
    }
    #expect(reported.map(\.kind) == [.appearanceMethodCalledDirectly, .appearanceMethodCalledDirectly])
    #expect(reported.first?.message.hasPrefix("viewWillAppear(_:) called directly on C") == true)
    #expect(child.appearanceState == .disappeared)
  }

  @Test("9. The appearance states follow disappeared → appearing → appeared → disappearing → disappeared")
  func stateMachine() {
    let child = Probe("C")
    #expect(child.appearanceState == .disappeared)
    child.beginAppearanceTransition(true, animated: false)
    #expect(child.appearanceState == .appearing)
    child.endAppearanceTransition()
    #expect(child.appearanceState == .appeared)
    child.beginAppearanceTransition(false, animated: false)
    #expect(child.appearanceState == .disappearing)
    child.endAppearanceTransition()
    #expect(child.appearanceState == .disappeared)
  }

  @Test("9. A begin in the opposite direction cancels the one in flight")
  func oppositeBeginCancels() {
    let child = Probe("C")
    child.loadViewIfNeeded()
    let log = lines {
      child.beginAppearanceTransition(true, animated: true)
      child.beginAppearanceTransition(false, animated: true)
      child.endAppearanceTransition()
    }
    #expect(
      log == [
        "C: viewWillAppear(animated: true)",
        "C: viewWillDisappear(animated: true)",
        "C: viewDidDisappear(animated: true)",
      ])
    #expect(child.appearanceState == .disappeared)
  }

  @Test(
    "9. An end with nothing begun, or a begin in the direction under way, is unbalanced and sends nothing",
    arguments: [
      ["end"], ["begin+", "begin+"], ["begin+", "end", "begin+"], ["begin-"], ["begin+", "end", "end"],
    ])
  func unbalanced(steps: [String]) {
    let child = Probe("C")
    var log: [String] = []
    let reported = Diagnostics.capture {
      log = lines {
        for step in steps {
          switch step {
          case "begin+": child.beginAppearanceTransition(true, animated: false)
          case "begin-": child.beginAppearanceTransition(false, animated: false)
          default: child.endAppearanceTransition()
          }
        }
      }
    }
    #expect(
      reported == [
        Diagnostic(
          .unbalancedAppearanceTransition, "Unbalanced calls to begin/end appearance transitions for C.")
      ])
    #expect(Set(log.filter { !$0.hasPrefix("!") }).count == log.filter { !$0.hasPrefix("!") }.count)
  }

  @Test("10. isMovingToParent is true only inside the appearance callbacks of a controller just added")
  func movingToParent() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    parent.add(child)
    #expect(child.movingToParentSeen == ["viewWillAppear": true, "viewDidAppear": true])
    #expect(!child.isMovingToParent)
    window.isHidden = true
    window.isHidden = false
    #expect(child.movingToParentSeen == ["viewWillAppear": false, "viewDidAppear": false])
    #expect(!parent.isMovingToParent)
  }

  @Test(
    "10. isMovingFromParent is true only inside the disappearance callbacks of a controller being removed")
  func movingFromParent() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    parent.add(child)
    window.isHidden = true
    #expect(child.movingFromParentSeen == ["viewWillDisappear": false, "viewDidDisappear": false])
    window.isHidden = false
    parent.remove(child)
    #expect(child.movingFromParentSeen == ["viewWillDisappear": true, "viewDidDisappear": true])
    #expect(!child.isMovingFromParent)
  }
}
