import Foundation

@testable import TunnelGeo

/// A small seeded generator, so that random tests fail the same way every time.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Coordinate {
  /// A point drawn uniformly over the sphere.
  static func random(using generator: inout SplitMix64) -> Coordinate {
    let z = Double.random(in: -1...1, using: &generator)
    let latitude = asin(z) * 180 / .pi
    let longitude = Double.random(in: -180..<180, using: &generator)
    return try! Coordinate(latitude: latitude, longitude: longitude)
  }
}

extension PolygonLayer {
  /// A point within `degrees` of a random vertex of a random ring: where borders and tolerances decide.
  func pointNearAVertex(within degrees: Double, using generator: inout SplitMix64) -> Coordinate {
    let vertices = self.vertices(ofRing: Int.random(in: 0..<ringCount, using: &generator))
    let near = coordinate(vertices[Int.random(in: 0..<vertices.count, using: &generator)])
    return Coordinate(
      uncheckedLatitude: max(
        -90, min(90, near.latitude + Double.random(in: -degrees...degrees, using: &generator))),
      longitude: near.longitude + Double.random(in: -degrees...degrees, using: &generator))
  }
}
