import CMath
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Unit vectors and great-circle distances on the sphere of mean radius.
///
/// Every nearest-something search in the geocoder compares squared chord lengths between unit vectors:
/// `|a - b|²` grows with the great-circle angle between `a` and `b`, so it orders points exactly as the
/// great-circle distance does, without a single trigonometric call.
enum SphereGeometry {
  /// The mean radius R₁ in kilometres.
  static let radiusKm = WGS84.meanRadius / 1000

  /// The unit vector `(cos φ cos λ, cos φ sin λ, sin φ)` of a coordinate.
  @inline(__always) static func unitVector(_ coordinate: Coordinate) -> SIMD3<Double> {
    unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
  }

  /// The unit vector of a latitude and longitude in degrees.
  @inline(__always) static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
    let phi = sineCosine(latitude * .pi / 180)
    let lambda = sineCosine(longitude * .pi / 180)
    return SIMD3(phi.cosine * lambda.cosine, phi.cosine * lambda.sine, phi.sine)
  }

  /// `sin(angle)` and `cos(angle)`, the very values those give, computed together.
  @inline(__always) static func sineCosine(_ angle: Double) -> (sine: Double, cosine: Double) {
    var sine = 0.0
    var cosine = 0.0
    tunnel_sincos(angle, &sine, &cosine)
    return (sine, cosine)
  }

  /// The coordinate of a (not necessarily normalised, non-zero) vector.
  static func coordinate(_ vector: SIMD3<Double>) -> Coordinate {
    let latitude = atan2(vector.z, (vector.x * vector.x + vector.y * vector.y).squareRoot()) * 180 / .pi
    let longitude = atan2(vector.y, vector.x) * 180 / .pi
    return Coordinate(uncheckedLatitude: min(90, max(-90, latitude)), longitude: longitude)
  }

  /// The squared chord length between two unit vectors.
  @inline(__always) static func chordSquared(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return d.x * d.x + d.y * d.y + d.z * d.z
  }

  /// The great-circle angle in radians for a squared chord length.
  @inline(__always) static func angle(chordSquared: Double) -> Double {
    2 * asin(min(1, chordSquared.squareRoot() / 2))
  }

  /// The squared chord length for a great-circle angle in radians (capped at π).
  @inline(__always) static func chordSquared(angle: Double) -> Double {
    let half = min(Double.pi, max(0, angle)) / 2
    let chord = 2 * sin(half)
    return chord * chord
  }

  /// The great-circle angle in radians between two unit vectors (accurate at every distance).
  @inline(__always) static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    let sine = (cross.x * cross.x + cross.y * cross.y + cross.z * cross.z).squareRoot()
    return atan2(sine, a.x * b.x + a.y * b.y + a.z * b.z)
  }

  /// A lower bound of the chord from a point to every point of the great-circle arc between two unit
  /// vectors `a` and `b`, from the chords `toA` and `toB` from the point to them.
  ///
  /// For `s` on the arc, `|p − s| ≥ |p − a| − |a − s|` and `|p − s| ≥ |p − b| − |s − b|`, and the two
  /// chords from `s` add up to at most the arc's length, `2 asin(c / 2)` for its chord `c`: at most
  /// `c (1 + c² / 20)` for `c ≤ 1`, at most `c π / 2` always. Measuring an arc costs far more than this
  /// bound, which settles most arcs of a piece of shoreline.
  @inline(__always) static func arcChordLowerBound(
    toA: Double, toB: Double, _ a: SIMD3<Double>, _ b: SIMD3<Double>
  ) -> Double {
    let chord = chordSquared(a, b).squareRoot()
    let length = chord <= 1 ? chord * (1 + chord * chord / 20) : chord * (.pi / 2)
    return (toA + toB - length) / 2
  }

  /// The cross product.
  @inline(__always) static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }

  /// The point of the great-circle arc from `a` to `b` (shorter than π) closest to `p`, all unit vectors.
  ///
  /// The foot of the perpendicular from `p` to the arc's great circle when it falls inside the arc,
  /// otherwise the nearer end.
  static func closestPoint(
    on a: SIMD3<Double>, _ b: SIMD3<Double>, to p: SIMD3<Double>
  ) -> SIMD3<Double> {
    let normal = cross(a, b)
    let length = (normal * normal).sum().squareRoot()
    guard length > 1e-15 else { return chordSquared(p, a) <= chordSquared(p, b) ? a : b }
    let n = normal / length
    // Project p onto the plane of the great circle; inside the arc when it lies between a and b.
    let projected = p - (p * n).sum() * n
    let projectedLength = (projected * projected).sum().squareRoot()
    if projectedLength > 1e-15 {
      let foot = projected / projectedLength
      if (cross(a, foot) * n).sum() >= 0 && (cross(foot, b) * n).sum() >= 0 { return foot }
    }
    return chordSquared(p, a) <= chordSquared(p, b) ? a : b
  }

  /// ``closestPoint(on:_:to:)`` and the squared chord from `p` to it, given the squared chords from `p` to
  /// `a` and to `b` (``chordSquared(_:_:)`` of `p` and each): where the foot of the perpendicular falls
  /// clearly outside the arc, the nearer end, without measuring. The nearest point of a piece of border to
  /// a point some way off is nearly always one of its vertices, so most arcs are settled here.
  ///
  /// The foot lies beyond `a` when `p · ((a × b) × a) < 0`, for unit vectors `b·p − (a·p)(a·b)`, and
  /// beyond `b` when `a·p − (a·b)(b·p) < 0`. Those dot products are off by a few units in the last place,
  /// and `closestPoint`'s own test of the same sign (with `a × b` as it computes it) by a few more times
  /// `|a × b|` ≤ 1: below −``outsideMargin`` the two cannot disagree, and `closestPoint` returns the nearer
  /// end too, by the same rule (`a` on a tie). Both answers are the same bits.
  @inline(__always) static func closestPoint(
    on a: SIMD3<Double>, _ b: SIMD3<Double>, to p: SIMD3<Double>, chordToA: Double, chordToB: Double
  ) -> (point: SIMD3<Double>, chordSquared: Double) {
    if footIsOutside(aDotP: dot(a, p), bDotP: dot(b, p), aDotB: dot(a, b)) {
      return chordToA <= chordToB ? (a, chordToA) : (b, chordToB)
    }
    let closest = closestPoint(on: a, b, to: p)
    return (closest, chordSquared(p, closest))
  }

  /// Whether the foot of the perpendicular from `p` to the arc from `a` to `b` falls clearly outside the
  /// arc, from the dot products of the three unit vectors: then ``closestPoint(on:_:to:)`` is the nearer
  /// end (see ``closestPoint(on:_:to:chordToA:chordToB:)``).
  @inline(__always) static func footIsOutside(aDotP: Double, bDotP: Double, aDotB: Double) -> Bool {
    bDotP - aDotP * aDotB < -outsideMargin || aDotP - aDotB * bDotP < -outsideMargin
  }

  /// The dot product.
  @inline(__always) static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    a.x * b.x + a.y * b.y + a.z * b.z
  }

  /// How far below zero the tests of ``footIsOutside(aDotP:bDotP:aDotB:)`` must fall to settle an arc by
  /// its end: a thousand times the rounding of either way of computing them.
  static let outsideMargin = 1e-12
}

/// Unit vectors of fixed-point coordinates (``PolygonLayer/unitsPerDegree`` per degree) without a call to
/// `sin` or `cos`: an angle of `n` units is split into `a · 4096 + b`, and its sine and cosine come from
/// tables of both parts by the angle-sum formulas, within about two units in the last place.
///
/// Every search that measures polygon edges (the one-off scans and the batch trees alike) takes its
/// vertices' vectors from here, so they all measure the same points.
final class FixedPointVectors: @unchecked Sendable {
  /// The units per degree of the coordinates.
  let unitsPerDegree: Int
  private static let fineBits = 12
  private static let fineMask = Int32(1 << fineBits - 1)
  /// Sine and cosine side by side (one cache line holds both): of `b` units at `2b` and `2b + 1`, `b` in
  /// `0..<4096`. Read through a pointer: an array's bounds checks and buffer loads were a fifth of the
  /// decoding of every vertex a search measures. Written once, before the tables are shared.
  private let fine: UnsafeMutablePointer<Double>
  /// Sine and cosine of `a · 4096` units, side by side at `2(a + coarseOffset)`, `a` from
  /// `-coarseOffset` to `coarseOffset`.
  private let coarse: UnsafeMutablePointer<Double>
  private let coarseOffset: Int
  /// How many coarse pairs there are: none when the coordinates are too fine to tabulate.
  private let coarseCount: Int

  /// Coordinates of more units per degree than this use `sin` and `cos` (their tables would be large).
  static let largestTabulated = 100_000

  private static let made = Locked<[Int: FixedPointVectors]>([:])

  /// The tables for `unitsPerDegree`, made on first use and shared.
  static func shared(unitsPerDegree: Int) -> FixedPointVectors {
    made.withLock { made in
      if let existing = made[unitsPerDegree] { return existing }
      let tables = FixedPointVectors(unitsPerDegree: unitsPerDegree)
      made[unitsPerDegree] = tables
      return tables
    }
  }

  private init(unitsPerDegree: Int) {
    self.unitsPerDegree = unitsPerDegree
    let radiansPerUnit = Double.pi / 180 / Double(unitsPerDegree)
    fine = .allocate(capacity: 2 << Self.fineBits)
    for step in 0..<(1 << Self.fineBits) {
      let angle = Double(step) * radiansPerUnit
      (fine[2 * step], fine[2 * step + 1]) = (sin(angle), cos(angle))
    }
    let tabulated = unitsPerDegree <= Self.largestTabulated
    let halfTurn = 180 * unitsPerDegree
    coarseOffset = tabulated ? (halfTurn >> Self.fineBits) + 1 : 0
    coarseCount = tabulated ? 2 * coarseOffset + 1 : 0
    coarse = .allocate(capacity: max(1, 2 * coarseCount))
    for index in 0..<coarseCount {
      let angle = Double((index - coarseOffset) << Self.fineBits) * radiansPerUnit
      (coarse[2 * index], coarse[2 * index + 1]) = (sin(angle), cos(angle))
    }
  }

  deinit {
    fine.deallocate()
    coarse.deallocate()
  }

  /// The sine and cosine of `units` units.
  @inline(__always) private func sineCosine(_ units: Int32) -> (sine: Double, cosine: Double) {
    let index = Int(units >> Int32(Self.fineBits)) + coarseOffset
    guard index >= 0 && index < coarseCount else {
      let angle = Double(units) / Double(unitsPerDegree) * .pi / 180
      return (sin(angle), cos(angle))
    }
    let step = Int(units & Self.fineMask)
    let (s1, c1) = (coarse[2 * index], coarse[2 * index + 1])
    let (s2, c2) = (fine[2 * step], fine[2 * step + 1])
    return (s1 * c2 + c1 * s2, c1 * c2 - s1 * s2)
  }

  /// The unit vector of a fixed-point coordinate.
  @inline(__always) func unitVector(_ point: FixedPoint) -> SIMD3<Double> {
    unitVector(latitude: point.latitude, longitude: point.longitude)
  }

  /// The unit vector of a fixed-point latitude and longitude.
  @inline(__always) func unitVector(latitude: Int32, longitude: Int32) -> SIMD3<Double> {
    let phi = sineCosine(latitude)
    let lambda = sineCosine(longitude)
    return SIMD3(phi.cosine * lambda.cosine, phi.cosine * lambda.sine, phi.sine)
  }
}
