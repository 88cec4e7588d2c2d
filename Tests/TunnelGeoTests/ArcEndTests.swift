import RandomPoints
import SeededRandom
import Testing

@testable import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An arc settled by its nearer end (``SphereGeometry/closestPoint(on:_:to:chordToA:chordToB:)``) gives
/// the very bits of ``SphereGeometry/closestPoint(on:_:to:)``: on arcs of every length, from points
/// anywhere, and from points whose foot falls on an end or within rounding of it, where the two tests of
/// the foot's side could disagree.
@Suite struct ArcEndTests {
  /// A unit vector `angle` radians from `point` towards `direction` (any vector not along `point`).
  static func moved(
    _ point: SIMD3<Double>, towards direction: SIMD3<Double>, by angle: Double
  ) -> SIMD3<Double> {
    var tangent = direction - (direction * point).sum() * point
    tangent /= (tangent * tangent).sum().squareRoot()
    return point * cos(angle) + tangent * sin(angle)
  }

  /// Both ways of measuring an arc from `p`; true when the nearest point is an end.
  static func compare(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ p: SIMD3<Double>) -> Bool {
    let chordToA = SphereGeometry.chordSquared(p, a)
    let chordToB = SphereGeometry.chordSquared(p, b)
    let fast = SphereGeometry.closestPoint(on: a, b, to: p, chordToA: chordToA, chordToB: chordToB)
    let exact = SphereGeometry.closestPoint(on: a, b, to: p)
    #expect(fast.point == exact, "arc \(a) to \(b) from \(p)")
    #expect(fast.chordSquared == SphereGeometry.chordSquared(p, exact), "arc \(a) to \(b) from \(p)")
    return exact == a || exact == b
  }

  @Test("The end that settles an arc is closestPoint's, to the bit")
  func endsAreClosestPoints() throws {
    var generator = SplitMix64(seed: 83)
    var ends = 0
    var samples = 0
    for round in 0..<40_000 {
      let a = SphereGeometry.unitVector(Coordinate.random(using: &generator))
      let random = SphereGeometry.unitVector(Coordinate.random(using: &generator))
      // Arcs from a nanoradian (6 mm) to a radian.
      let length = pow(10, -9 + 9 * Double(generator.next() % 1_000) / 1_000)
      let b = Self.moved(a, towards: random, by: length)
      let normal = SphereGeometry.cross(a, b)
      let n = normal / (normal * normal).sum().squareRoot()
      let p: SIMD3<Double>
      switch round % 4 {
      case 0:
        // Anywhere.
        p = SphereGeometry.unitVector(Coordinate.random(using: &generator))
      case 1:
        // Off the great circle, the foot on an end or a few roundings either side of it.
        let end = round % 8 == 1 ? a : b
        let along = Self.moved(end, towards: b - a, by: Double(Int(generator.next() % 9) - 4) * 1e-16)
        let away = 1e-6 * pow(10, 6 * Double(generator.next() % 1_000) / 1_000)
        p = Self.moved(along, towards: generator.next() % 2 == 0 ? n : -n, by: away)
      case 2:
        // Near the arc's pole, where the foot is barely defined.
        let tilt = pow(10, -15 + 6 * Double(generator.next() % 1_000) / 1_000)
        p = Self.moved(generator.next() % 2 == 0 ? n : -n, towards: random, by: tilt)
      default:
        // Beside the arc, the foot within or just beyond it.
        let share = Double(generator.next() % 1_400) / 1_000 - 0.2
        var on = a * (1 - share) + b * share
        on /= (on * on).sum().squareRoot()
        p = Self.moved(on, towards: n, by: 0.3 * Double(generator.next() % 1_000) / 1_000)
      }
      samples += 1
      if Self.compare(a, b, p) { ends += 1 }
    }
    // A point where the arc starts and ends: the end, however it is reached.
    let a = SphereGeometry.unitVector(try Coordinate(latitude: 12.5, longitude: -70.25))
    _ = Self.compare(a, a, SphereGeometry.unitVector(try Coordinate(latitude: 12, longitude: -70)))
    #expect(ends > samples / 3, "\(ends) of \(samples) arcs nearest at an end")
  }
}
