import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo

/// Records what a map tells its delegate.
@MainActor
final class DelegateSpy: MapViewControllerDelegate {
  var moves: [(MapViewController, Coordinate)] = []

  func mapViewController(_ mapViewController: MapViewController, didMoveTo location: Coordinate) {
    moves.append((mapViewController, location))
  }
}

@MainActor
@Suite("The relay between the maps")
struct RelayTests {
  @Test("The container starts at 56.55 N 8.316667 E with the target at its antipode")
  func startsInWesternDenmark() {
    let (tunnel, _) = visibleTunnel()
    #expect(tunnel.startMap.location == coordinate(56.55, 8.316667))
    #expect(tunnel.targetMap.location == coordinate(-56.55, -171.683333))
    #expect(tunnel.children.map(\.title) == ["Start map", "Target map"])
    #expect(tunnel.startMap.delegate === tunnel && tunnel.targetMap.delegate === tunnel)
  }

  @Test("A user move on the start map puts the target at its antipode, and back the other way")
  func relaysBothWays() throws {
    let (tunnel, _) = visibleTunnel()
    let lisbon = coordinate(38.7223, -9.1393)
    tunnel.startMap.moveAnnotation(to: lisbon)
    #expect(tunnel.targetMap.location == lisbon.antipode)
    #expect(tunnel.startMap.location == lisbon)
    let wellington = coordinate(-41.2865, 174.7762)
    tunnel.targetMap.moveAnnotation(to: wellington)
    #expect(tunnel.startMap.location == wellington.antipode)
    #expect(tunnel.targetMap.location == wellington)
    // Keyboard-sized moves relay too, from either map.
    try tunnel.targetMap.moveAnnotation(azimuth: 90, fraction: 0.05)
    #expect(tunnel.startMap.location == tunnel.targetMap.location.antipode)
    try tunnel.startMap.moveAnnotation(azimuth: 0, fraction: 0.25)
    #expect(tunnel.targetMap.location == tunnel.startMap.location.antipode)
  }

  @Test("updateAnnotationLocation moves and re-centres without telling the delegate")
  func updatesDoNotNotifyBack() {
    let map = MapViewController(annotation: .target, location: coordinate(0, 0), renderer: Shared.renderer)
    let spy = DelegateSpy()
    map.delegate = spy
    map.view.frame = Rect(x: 0, y: 0, width: 40, height: 10)
    map.updateAnnotationLocation(coordinate(10, 20))
    #expect(spy.moves.isEmpty)
    #expect(map.location == coordinate(10, 20))
    #expect(map.picture?.viewport.centre == coordinate(10, 20))
    map.moveAnnotation(to: coordinate(11, 21))
    #expect(spy.moves.count == 1)
    #expect(spy.moves.first?.0 === map && spy.moves.first?.1 == coordinate(11, 21))
  }

  @Test("Through the container, one user move makes exactly one relayed update and no echo")
  func noUpdateLoop() {
    let (tunnel, _) = visibleTunnel()
    // Listen beside the container: wrap the start map's delegate.
    final class Forwarding: MapViewControllerDelegate {
      let next: MapViewControllerDelegate
      var calls = 0
      init(_ next: MapViewControllerDelegate) { self.next = next }
      func mapViewController(_ mapViewController: MapViewController, didMoveTo location: Coordinate) {
        calls += 1
        next.mapViewController(mapViewController, didMoveTo: location)
      }
    }
    let start = Forwarding(tunnel)
    let target = Forwarding(tunnel)
    tunnel.startMap.delegate = start
    tunnel.targetMap.delegate = target
    tunnel.startMap.moveAnnotation(to: coordinate(1, 2))
    #expect(start.calls == 1 && target.calls == 0)
    tunnel.targetMap.moveAnnotation(to: coordinate(3, 4))
    #expect(start.calls == 1 && target.calls == 1)
  }

  @Test("A click on a map cell moves that marker to the coordinate under the cell")
  func clickMovesTheMarker() throws {
    let (tunnel, window) = visibleTunnel(renderer: Shared.renderer)
    _ = window.render()
    let map = tunnel.startMap
    let cell = Point(x: map.view.bounds.width / 2 + 10, y: map.view.bounds.height / 2)
    let expected = try #require(map.coordinate(atCell: cell))
    #expect(map.moveAnnotation(toCell: cell))
    #expect(map.location == expected)
    #expect(tunnel.targetMap.location == expected.antipode)
    // Ten cells east of the centre, 20 dots at 1,000 km per the map's height.
    let metresPerDot = MapViewController.defaultRegionSpan / Double(map.view.bounds.height * 4)
    let moved = try Geodesic.distance(from: TunnelViewController.defaultStart, to: expected)
    #expect(abs(moved - 20 * metresPerDot) < metresPerDot)
    #expect(!map.moveAnnotation(toCell: Point(x: -1, y: 0)))
  }
}
