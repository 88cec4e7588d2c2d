#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gauss–Legendre quadrature: the integral of a smooth function over an interval from its values at a
/// few points.
///
/// With *n* nodes the rule is exact for polynomials of degree 2*n* − 1, and for a function analytic
/// around the interval its error falls geometrically with *n*. Nodes never sit on the interval's ends,
/// so an integrand may be undefined there.
///
/// ```swift
/// GaussLegendre.sixteen.integral(over: 0, 1) { x in x * x }  // 1/3
/// ```
struct GaussLegendre: Sendable {
  /// The nodes in -1…1 and their weights, which add up to 2.
  let nodes: [(position: Double, weight: Double)]

  /// The rule with 16 nodes: exact to degree 31.
  static let sixteen = GaussLegendre(count: 16)

  /// The rule with `count` nodes, each found by Newton's method on the Legendre polynomial of that
  /// degree from Chebyshev's estimate; the weights follow from the polynomial's derivative.
  init(count: Int) {
    var nodes: [(position: Double, weight: Double)] = []
    for i in 1...count {
      var x = cos(.pi * (Double(i) - 0.25) / (Double(count) + 0.5))
      var derivative = 0.0
      for _ in 0..<100 {
        // P_n(x) and P_{n-1}(x) by the three-term recurrence.
        var (previous, current) = (1.0, x)
        for k in stride(from: 2, through: count, by: 1) {
          (previous, current) = (
            current, ((2 * Double(k) - 1) * x * current - Double(k - 1) * previous) / Double(k)
          )
        }
        derivative = Double(count) * (x * current - previous) / (x * x - 1)
        let step = current / derivative
        x -= step
        if abs(step) < 1e-16 { break }
      }
      nodes.append((x, 2 / ((1 - x * x) * derivative * derivative)))
    }
    self.nodes = nodes
  }

  /// ∫ `f` from `lower` to `lower` + `width`.
  ///
  /// The width is given rather than the upper end so that callers can pass one computed without
  /// subtracting nearly equal numbers.
  func integral(from lower: Double, width: Double, _ f: (Double) -> Double) -> Double {
    let half = width / 2
    var sum = 0.0
    for node in nodes {
      sum += node.weight * f(lower + half * (1 + node.position))
    }
    return sum * half
  }

  /// The mean of `f` from `lower` to `lower` + `width`: the integral over the width, without dividing
  /// by it, so that it is `f(lower)` for a width of zero.
  func average(from lower: Double, width: Double, _ f: (Double) -> Double) -> Double {
    let half = width / 2
    var sum = 0.0
    for node in nodes {
      sum += node.weight * f(lower + half * (1 + node.position))
    }
    return sum / 2
  }
}
