import Foundation

/// How mass is spread inside the Earth, for how fast something falls through it.
///
/// - ``uniform``: one density throughout, the whole mass of WGS84's GM. Gravity grows linearly
///   with the distance from the centre, and a fall along any straight tunnel takes the same time,
///   π·√(R³/GM): 42 min 10 s.
/// - ``prem``: the Preliminary Reference Earth Model (Dziewonski and Anderson, 1981), the
///   seismologists' density profile, in 13 shells from the inner core to the ocean. The dense core
///   pulls harder at depth, and a fall through the centre takes about 38 minutes.
///
/// Both are spherical, with the mean radius 6,371 km.
public enum EarthModel: String, Sendable, Hashable, CaseIterable {
  case uniform
  case prem

  /// The radius of the model's sphere in metres.
  public static let radius = 6_371_000.0
  /// The gravitational constant, m³ kg⁻¹ s⁻² (CODATA 2018).
  public static let gravitationalConstant = 6.674_30e-11
  /// WGS84's geocentric gravitational constant GM, m³ s⁻².
  public static let wgs84GM = 3.986_004_418e14

  /// PREM's shells: outer radius in km and density in g/cm³ as a cubic in x = r / 6371 km.
  static let premShells: [(outerRadiusKm: Double, coefficients: [Double])] = [
    (1_221.5, [13.0885, 0, -8.8381, 0]),  // inner core
    (3_480.0, [12.5815, -1.2638, -3.6426, -5.5281]),  // outer core
    (5_701.0, [7.9565, -6.4761, 5.5283, -3.0807]),  // lower mantle and D″
    (5_771.0, [5.3197, -1.4836, 0, 0]),  // transition zone
    (5_971.0, [11.2494, -8.0298, 0, 0]),
    (6_151.0, [7.1089, -3.8045, 0, 0]),
    (6_346.6, [2.6910, 0.6924, 0, 0]),  // low-velocity zone and lid
    (6_356.0, [2.900, 0, 0, 0]),  // lower crust
    (6_368.0, [2.600, 0, 0, 0]),  // upper crust
    (6_371.0, [1.020, 0, 0, 0]),  // ocean
  ]

  /// The density in kg/m³ at `radius` metres from the centre.
  public func density(atRadius radius: Double) -> Double {
    switch self {
    case .uniform:
      return Self.wgs84GM / Self.gravitationalConstant / (4 / 3 * .pi * pow(Self.radius, 3))
    case .prem:
      let x = radius / Self.radius
      let shell = Self.premShells.first { radius <= $0.outerRadiusKm * 1000 } ?? Self.premShells.last!
      let c = shell.coefficients
      return 1000 * (c[0] + x * (c[1] + x * (c[2] + x * c[3])))
    }
  }

  /// The mass in kg inside `radius` metres.
  public func mass(withinRadius radius: Double) -> Double {
    let radius = min(max(0, radius), Self.radius)
    switch self {
    case .uniform:
      return Self.wgs84GM / Self.gravitationalConstant * pow(radius / Self.radius, 3)
    case .prem:
      // ∫ 4π ρ r² dr, exactly, shell by shell: ρ r² is a polynomial in r.
      var mass = 0.0
      var inner = 0.0
      let a = Self.radius
      for shell in Self.premShells {
        let outer = min(radius, shell.outerRadiusKm * 1000)
        guard outer > inner else { break }
        func integral(_ r: Double) -> Double {
          let x = r / a
          let c = shell.coefficients
          return pow(a, 3)
            * (c[0] * pow(x, 3) / 3 + c[1] * pow(x, 4) / 4 + c[2] * pow(x, 5) / 5 + c[3] * pow(x, 6) / 6)
        }
        mass += 4 * .pi * 1000 * (integral(outer) - integral(inner))
        inner = outer
      }
      return mass
    }
  }

  /// The acceleration of gravity in m/s² at `radius` metres from the centre (towards it).
  public func gravity(atRadius radius: Double) -> Double {
    guard radius > 0 else { return 0 }
    return Self.gravitationalConstant * mass(withinRadius: radius) / (radius * radius)
  }

  /// How long a fall from rest takes through a straight, frictionless, airless tunnel whose closest
  /// point to the centre is `closestApproach` metres from it, from one end to the other, in seconds.
  ///
  /// The speed at each point comes from the energy gained falling from the surface; the time is the
  /// integral of the length over the speed, taken with a change of variable that removes the ends'
  /// zero speed. On the uniform model every tunnel takes π·√(R³/GM).
  ///
  /// - Complexity: a few thousand gravity evaluations; well under a millisecond.
  public func fallTime(closestApproach: Double) -> Double {
    let a = Self.radius
    let d = min(max(0, closestApproach), a)
    let half = (a * a - d * d).squareRoot()
    guard half > 0 else { return 0 }
    // The energy gained falling from the surface to radius r: ∫ g from r to a, tabulated.
    let steps = 4_000
    var gained = [Double](repeating: 0, count: steps + 1)  // at r = a·i/steps
    for i in stride(from: steps - 1, through: 0, by: -1) {
      let r0 = a * Double(i) / Double(steps)
      let r1 = a * Double(i + 1) / Double(steps)
      gained[i] = gained[i + 1] + (gravity(atRadius: r0) + gravity(atRadius: r1)) / 2 * (r1 - r0)
    }
    func energy(atRadius r: Double) -> Double {
      let position = r / a * Double(steps)
      let index = min(steps - 1, Int(position))
      let t = position - Double(index)
      return gained[index] * (1 - t) + gained[index + 1] * t
    }
    // s = half·sin φ from the middle of the tunnel to an end; the time to cross is twice that.
    let samples = 4_000
    var time = 0.0
    for k in 0..<samples {
      let phi = (Double(k) + 0.5) / Double(samples) * .pi / 2
      let s = half * sin(phi)
      let r = (d * d + s * s).squareRoot()
      let speed = (2 * energy(atRadius: r)).squareRoot()
      guard speed > 0 else { continue }
      time += half * cos(phi) / speed * (.pi / 2 / Double(samples))
    }
    return 2 * time
  }
}
