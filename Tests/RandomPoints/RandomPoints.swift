import Foundation
import SeededRandom
import TunnelGeo

/// Random points for the test suites: uniform on the sphere, or near the vertices of a layer.
extension Coordinate {
  /// A point drawn uniformly over the sphere.
  public static func random(using generator: inout SplitMix64) -> Coordinate {
    let z = Double.random(in: -1...1, using: &generator)
    let latitude = asin(z) * 180 / .pi
    let longitude = Double.random(in: -180..<180, using: &generator)
    return try! Coordinate(latitude: latitude, longitude: longitude)
  }
}

extension PolygonLayer {
  /// A point within `degrees` of a random vertex of a random ring: where borders and tolerances decide.
  public func pointNearAVertex(within degrees: Double, using generator: inout SplitMix64) -> Coordinate {
    let vertices = self.vertices(ofRing: Int.random(in: 0..<ringCount, using: &generator))
    let near = coordinate(vertices[Int.random(in: 0..<vertices.count, using: &generator)])
    return Coordinate(
      uncheckedLatitude: max(
        -90, min(90, near.latitude + Double.random(in: -degrees...degrees, using: &generator))),
      longitude: near.longitude + Double.random(in: -degrees...degrees, using: &generator))
  }
}
