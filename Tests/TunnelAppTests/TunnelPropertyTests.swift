import SeededRandom
import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo

@MainActor
@Suite("The Tunnel under random use")
struct TunnelPropertyTests {
  /// Radar presses (refused ones included), time passing by uneven steps, moves of either marker, window
  /// resizes and renders, in random order: after every step the tree and the appearance states are
  /// consistent and the two ends are antipodes; once the clock runs out, the Tunnel rests in the state
  /// its accepted radar presses say.
  @Test("Random presses, moves, resizes and time keep the tree whole", arguments: 1...30)
  func randomUse(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let geocoder: GeoInfoViewController.Geocoder = { _ in nil }
    let (tunnel, window) = visibleTunnel(size: Size(width: 48, height: 18), geocoder: geocoder)
    var flipped = false
    let diagnostics = Diagnostics.capture {
      for step in 0..<80 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2:
          let wasFlipping = tunnel.isFlipping
          let accepted = tunnel.radar()
          #expect(accepted == !wasFlipping, "seed \(seed), step \(step)")
          if accepted { flipped.toggle() }
        case 3, 4:
          window.clock.advance(by: Double.random(in: 0...0.25, using: &random))
        case 5, 6:
          let point = try! Coordinate(
            latitude: Double.random(in: -90...90, using: &random),
            longitude: Double.random(in: -180..<180, using: &random))
          tunnel.moveMarker(Bool.random(using: &random) ? .digger : .target, to: point)
        case 7:
          window.resize(
            to: Size(
              width: Int.random(in: 20...90, using: &random), height: Int.random(in: 8...40, using: &random)))
        default:
          _ = window.render()
        }
        #expect(tunnel.isFlipped == flipped, "seed \(seed), step \(step)")
        checkTree(tunnel, seed: seed, step: step)
      }
      window.clock.runUntilIdle()
    }
    #expect(diagnostics.isEmpty, "seed \(seed): \(diagnostics)")
    #expect(!tunnel.isFlipping)
    let shown = flipped ? [tunnel.startInfo, tunnel.targetInfo] : [tunnel.startMap, tunnel.targetMap]
    let hidden = flipped ? [tunnel.startMap, tunnel.targetMap] : [tunnel.startInfo, tunnel.targetInfo]
    #expect(tunnel.children.map(\.title) == shown.map(\.title), "seed \(seed)")
    for controller in shown {
      #expect(controller.appearanceState == .appeared && controller.parent === tunnel, "seed \(seed)")
    }
    for controller in hidden {
      #expect(controller.parent == nil && controller.viewIfLoaded?.superview == nil, "seed \(seed)")
      #expect(controller.appearanceState == .disappeared, "seed \(seed)")
    }
    #expect(tunnel.topContainer.subviews.map(ObjectIdentifier.init) == [ObjectIdentifier(shown[0].view)])
    #expect(tunnel.bottomContainer.subviews.map(ObjectIdentifier.init) == [ObjectIdentifier(shown[1].view)])
    if flipped {
      #expect(tunnel.startInfo.location == tunnel.startMap.location, "seed \(seed)")
      #expect(tunnel.targetInfo.location == tunnel.targetMap.location, "seed \(seed)")
    }
  }

  /// What holds after every step, mid-flip or not.
  private func checkTree(_ tunnel: TunnelViewController, seed: UInt64, step: Int) {
    let context = "seed \(seed), step \(step)"
    // Each end shows its map, its info, or (mid-flip) both; everything shown is the Tunnel's child.
    for (map, info, container) in [
      (tunnel.startMap, tunnel.startInfo, tunnel.topContainer),
      (tunnel.targetMap, tunnel.targetInfo, tunnel.bottomContainer),
    ] {
      let inTree = [map, info].filter { $0.parent != nil }
      #expect(!inTree.isEmpty && inTree.allSatisfy { $0.parent === tunnel }, "\(context)")
      #expect(tunnel.children.filter { $0 === map || $0 === info }.count == inTree.count, "\(context)")
      for controller in [map, info] {
        if let view = controller.viewIfLoaded, view.superview != nil {
          #expect(
            view.superview === container, "\(context): \(controller.title ?? "") in the wrong container")
        }
        // A controller out of the tree is not on screen, and its appearance has ended.
        if controller.parent == nil {
          #expect(controller.viewIfLoaded?.superview == nil, "\(context)")
          #expect(controller.appearanceState == .disappeared, "\(context): \(controller.title ?? "")")
        }
      }
    }
    #expect(tunnel.children.count <= 4, "\(context)")
    // The relay: whichever end moved last, the other is its antipode.
    let start = tunnel.startMap.location
    let target = tunnel.targetMap.location
    #expect(start.antipode == target || target.antipode == start, "\(context): \(start) and \(target)")
  }
}
