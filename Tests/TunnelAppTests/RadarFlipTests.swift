import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo

@MainActor
@Suite("The radar flip")
struct RadarFlipTests {
  /// The log lines of one flip of a pair, as CONTAINMENT.md orders them: the new child added
  /// (willMove sent by addChild), the old one told it will leave, the will-callbacks, the
  /// completion (didMove, then removeFromParent's didMove(nil)), then the did-callbacks.
  func flipLines(from old: String, to new: String, loadsView: Bool) -> [String] {
    (loadsView ? ["\(new): loadView()", "\(new): viewDidLoad()"] : []) + [
      "\(new): willMove(toParent: Tunnel)",
      "\(old): willMove(toParent: nil)",
      "\(old): viewWillDisappear(animated: true)",
      "\(new): viewWillAppear(animated: true)",
      "\(new): viewIsAppearing(animated: true)",
      "Tunnel: transition completion(finished: true)",
      "\(new): didMove(toParent: Tunnel)",
      "\(old): didMove(toParent: nil)",
      "\(old): viewDidDisappear(animated: true)",
      "\(new): viewDidAppear(animated: true)",
    ]
  }

  @Test("Start: both maps added the documented way; the geo controllers get nothing")
  func startLog() {
    var tunnel: TunnelViewController?
    let log = LifecycleLog.recording {
      tunnel = visibleTunnel().0
    }
    #expect(
      log.lines == [
        "Tunnel: loadView()", "Tunnel: viewDidLoad()",
        "Start map: willMove(toParent: Tunnel)", "Start map: loadView()", "Start map: viewDidLoad()",
        "Start map: didMove(toParent: Tunnel)",
        "Target map: willMove(toParent: Tunnel)", "Target map: loadView()", "Target map: viewDidLoad()",
        "Target map: didMove(toParent: Tunnel)",
        "Tunnel: viewWillAppear(animated: false)", "Start map: viewWillAppear(animated: false)",
        "Target map: viewWillAppear(animated: false)",
        "Tunnel: viewIsAppearing(animated: false)", "Start map: viewIsAppearing(animated: false)",
        "Target map: viewIsAppearing(animated: false)",
        "Tunnel: viewDidAppear(animated: false)", "Start map: viewDidAppear(animated: false)",
        "Target map: viewDidAppear(animated: false)",
      ])
    #expect(tunnel?.startInfo.isViewLoaded == false && tunnel?.targetInfo.isViewLoaded == false)
  }

  @Test("Radar: top pair at once, bottom pair 0.2 s later, each in the documented order")
  func flipLog() {
    let (tunnel, window) = visibleTunnel()
    let log = LifecycleLog(clock: window.clock)
    log.start()
    let diagnostics = Diagnostics.capture {
      #expect(tunnel.radar())
      window.clock.runUntilIdle()
    }
    log.stop()
    #expect(diagnostics.isEmpty)
    #expect(
      log.lines
        == flipLines(from: "Start map", to: "Start info", loadsView: true)
        + flipLines(from: "Target map", to: "Target info", loadsView: true))
    let times = log.events.map(\.time)
    #expect(times.prefix(6).allSatisfy { $0 == 0 })
    #expect(log.events.first { $0.description == "Target info: willMove(toParent: Tunnel)" }?.time == 0.2)
    #expect(log.events.last?.time == 0.4)
    #expect(tunnel.children.map(\.title) == ["Start info", "Target info"])
    #expect(
      tunnel.topContainer.subviews.count == 1 && tunnel.topContainer.subviews[0] === tunnel.startInfo.view)
    #expect(
      tunnel.bottomContainer.subviews.count == 1
        && tunnel.bottomContainer.subviews[0] === tunnel.targetInfo.view)
    // Each geo controller got its map's location.
    #expect(tunnel.startInfo.location == tunnel.startMap.location)
    #expect(tunnel.targetInfo.location == tunnel.targetMap.location)
  }

  @Test("Radar again flips back, flip from bottom, in the same order")
  func flipBack() {
    let (tunnel, window) = visibleTunnel()
    tunnel.radar()
    window.clock.runUntilIdle()
    let log = LifecycleLog.recording {
      #expect(tunnel.radar())
      window.clock.runUntilIdle()
    }
    #expect(
      log.lines
        == flipLines(from: "Start info", to: "Start map", loadsView: false)
        + flipLines(from: "Target info", to: "Target map", loadsView: false))
    #expect(tunnel.children.map(\.title) == ["Start map", "Target map"])
    #expect(!tunnel.isFlipped && !tunnel.isFlipping)
  }

  @Test("Only the container's area turns over, from the top going over and from the bottom coming back")
  func onlyTheContainerFlips() {
    let (tunnel, window) = visibleTunnel(renderer: Shared.renderer)
    let before = window.render()
    tunnel.radar()
    window.clock.advance(by: 0.1)
    let middle = window.render()
    let top = tunnel.topContainer.frame
    for y in 0..<before.size.height where !(top.minY..<top.maxY).contains(y) {
      #expect((0..<before.size.width).allSatisfy { before[$0, y] == middle[$0, y] }, "row \(y) changed")
    }
    #expect(
      (top.minY..<top.maxY).contains { y in
        (0..<before.size.width).contains { before[$0, y] != middle[$0, y] }
      })
    window.clock.runUntilIdle()
  }

  @Test(
    "A radar press while the maps turn is refused and leaves the tree whole",
    arguments: [0.0, 0.1, 0.2, 0.3, 0.39])
  func pressDuringAFlip(at time: Double) {
    let (tunnel, window) = visibleTunnel()
    let diagnostics = Diagnostics.capture {
      #expect(tunnel.radar())
      window.clock.advance(by: time)
      #expect(tunnel.isFlipping)
      #expect(!tunnel.radar())
      #expect(!tunnel.radar())
      window.clock.runUntilIdle()
      #expect(!tunnel.isFlipping)
      #expect(tunnel.radar())
      window.clock.runUntilIdle()
    }
    #expect(diagnostics.isEmpty)
    #expect(tunnel.children.map(\.title) == ["Start map", "Target map"])
    for controller in [tunnel.startMap, tunnel.targetMap] {
      #expect(controller.appearanceState == .appeared && controller.parent === tunnel)
    }
    for controller in [tunnel.startInfo, tunnel.targetInfo] {
      #expect(controller.appearanceState == .disappeared && controller.parent == nil)
      #expect(controller.viewIfLoaded?.superview == nil)
    }
  }

  @Test("A window resize reaches every controller, and the maps fill 42 % of the height each")
  func resize() {
    let (tunnel, window) = visibleTunnel(size: Size(width: 60, height: 20))
    let log = LifecycleLog.recording { window.resize(to: Size(width: 100, height: 50)) }
    #expect(
      log.lines == [
        "Tunnel: viewWillTransition(to: 100×50)", "Start map: viewWillTransition(to: 100×50)",
        "Target map: viewWillTransition(to: 100×50)",
      ])
    #expect(tunnel.topContainer.frame == Rect(x: 0, y: 0, width: 100, height: 21))
    #expect(tunnel.bottomContainer.frame == Rect(x: 0, y: 29, width: 100, height: 21))
    #expect(tunnel.startMap.view.frame == tunnel.topContainer.bounds)
    #expect(tunnel.targetMap.view.frame == tunnel.bottomContainer.bounds)
    #expect(tunnel.radarButton.frame.minY > 21 && tunnel.radarButton.frame.maxY <= 29)
  }
}
