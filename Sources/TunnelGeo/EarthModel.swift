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
  ///
  /// - Complexity: O(1): PREM's shells below the radius are added up once, for all calls.
  public func mass(withinRadius radius: Double) -> Double {
    let radius = min(max(0, radius), Self.radius)
    switch self {
    case .uniform:
      return Self.wgs84GM / Self.gravitationalConstant * pow(radius / Self.radius, 3)
    case .prem:
      // ∫ 4π ρ r² dr, exactly: the shells below whole, then this one up to the radius.
      let shell =
        Self.premShells.firstIndex { radius <= $0.outerRadiusKm * 1000 } ?? Self.premShells.count - 1
      let inner = shell == 0 ? 0 : Self.premShells[shell - 1].outerRadiusKm * 1000
      let c = Self.premShells[shell].coefficients
      return Self.premMassInside[shell] + 4 * .pi * 1000
        * (Self.premIntegral(c, upTo: radius) - Self.premIntegral(c, upTo: inner))
    }
  }

  /// PREM's mass inside each shell, in kg.
  private static let premMassInside: [Double] = {
    var masses: [Double] = []
    var total = 0.0
    var inner = 0.0
    for shell in premShells {
      masses.append(total)
      let outer = shell.outerRadiusKm * 1000
      total +=
        4 * .pi * 1000
        * (premIntegral(shell.coefficients, upTo: outer) - premIntegral(shell.coefficients, upTo: inner))
      inner = outer
    }
    return masses
  }()

  /// ∫ ρ r² dr from the centre to `r` for a shell's density cubic, in g/cm³ · m³: R³·Σ cᵢ·xⁱ⁺³/(i + 3)
  /// with x = r / R.
  private static func premIntegral(_ c: [Double], upTo r: Double) -> Double {
    let x = r / radius
    return radius * radius * radius * x * x * x * (c[0] / 3 + x * (c[1] / 4 + x * (c[2] / 5 + x * c[3] / 6)))
  }

  /// The acceleration of gravity in m/s² at `radius` metres from the centre (towards it).
  public func gravity(atRadius radius: Double) -> Double {
    guard radius > 0 else { return 0 }
    return Self.gravitationalConstant * mass(withinRadius: radius) / (radius * radius)
  }

  /// How long a fall from rest takes through a straight, frictionless, airless tunnel between two
  /// points of the surface `centralAngle` radians apart (0…π), from one end to the other, in seconds.
  ///
  /// With the half chord h = R·sin(θ/2), the closest approach d = R·cos(θ/2) and s = h·sin φ the
  /// distance from the tunnel's middle, the radius is r = √(d² + s²) and R − r = h²·cos²φ / (R + r).
  /// The speed comes from the energy gained falling from the surface, E(r) = ∫ g from r to R =
  /// (R − r)·ḡ(r), where ḡ(r) is gravity's mean between r and the surface; so the speed is
  /// h·cos φ·√(2ḡ / (R + r)), and the time, twice that from the middle to an end, is
  ///
  ///     T = 2 ∫ √((R + r) / 2ḡ(r)) dφ   over 0…π/2.
  ///
  /// The ends' zero speed has cancelled and nothing is a difference of nearly equal numbers, so a
  /// tunnel of a millimetre is as accurate as one through the centre. The integral is taken by
  /// Gauss–Legendre between the points where the tunnel crosses a shell of the model, and ḡ by the
  /// same rule within each shell, where gravity is smooth.
  ///
  /// On the uniform model ḡ(r) = GM·(R + r) / 2R³, and every tunnel takes π·√(R³/GM), 42 min 10 s.
  /// As a tunnel shortens, r → R and the time tends to π·√(R / g(R)): half the period of an orbit
  /// skimming the surface, 42 min 10 s on either model (their surface gravity is the same to 0.1 %).
  /// A tunnel of length zero, both ends the same point, has no fall; it is given this limit, which
  /// the time of every short tunnel approaches.
  ///
  /// - Complexity: about 3,000 gravity evaluations for PREM (0.1 ms), 300 for the uniform model.
  public func fallTime(centralAngle: Double) -> Double {
    let a = Self.radius
    let angle = min(max(0, centralAngle), .pi)
    let half = a * sin(angle / 2)
    let closest = a * cos(angle / 2)
    let rule = GaussLegendre.sixteen
    // Where gravity is smooth: between the radii where the density jumps.
    let radii = shellRadii
    let shellEnergy = (0..<radii.count - 1).map { k in
      rule.integral(from: radii[k], width: radii[k + 1] - radii[k]) { gravity(atRadius: $0) }
    }
    var energyAbove = [Double](repeating: 0, count: radii.count)  // ∫ g from radii[k + 1] to R
    for k in stride(from: radii.count - 3, through: 0, by: -1) {
      energyAbove[k] = energyAbove[k + 1] + shellEnergy[k + 1]
    }
    // The integrand at φ.
    func integrand(_ phi: Double) -> Double {
      let s = half * sin(phi)
      let r = min(a, (closest * closest + s * s).squareRoot())
      let rise = half * cos(phi)
      let depth = rise * rise / (a + r)  // R − r
      let k = radii.lastIndex { $0 < r } ?? 0
      let meanGravity: Double
      if k == radii.count - 2 {
        meanGravity = rule.average(from: r, width: depth) { gravity(atRadius: $0) }
      } else {
        let partial = rule.integral(from: r, width: radii[k + 1] - r) { gravity(atRadius: $0) }
        meanGravity = (partial + energyAbove[k]) / depth
      }
      return ((a + r) / (2 * meanGravity)).squareRoot()
    }
    // φ where the tunnel crosses a shell: s² = ρ² − d².
    var cuts = [0.0]
    for radius in radii where radius > closest && radius < a {
      let s = ((radius - closest) * (radius + closest)).squareRoot()
      cuts.append(asin(min(1, s / half)))
    }
    cuts.append(.pi / 2)
    var time = 0.0
    for (lower, upper) in zip(cuts, cuts.dropFirst()) where upper > lower {
      time += rule.integral(from: lower, width: upper - lower, integrand)
    }
    return 2 * time
  }

  /// The radii in metres between which the density is smooth, from the centre to the surface.
  private var shellRadii: [Double] {
    switch self {
    case .uniform: [0, Self.radius]
    case .prem: [0] + Self.premShells.map { $0.outerRadiusKm * 1000 }
    }
  }
}
