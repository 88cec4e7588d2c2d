import TunnelGeo

/// How deep a tunnel goes and how long a fall through it takes, as `antipode` and `dig` print them.
public struct TunnelFacts: Sendable, JSONWritable {
  /// The deepest point's depth in kilometres.
  public var depthKm: Double
  /// The point of the surface nearest to the deepest point; nil for the centre (as near both poles).
  public var below: Coordinate?
  /// Seconds of a fall from one end to the other on an Earth of one density.
  public var uniformFallSeconds: Double
  /// Seconds of the fall with the densities of the Preliminary Reference Earth Model.
  public var premFallSeconds: Double
  /// Whether both ends are one point: there is no tunnel, and the fall times are the limit that ever
  /// shorter tunnels approach (half the period of an orbit skimming the surface). JSON readers see a length
  /// of 0.
  public var isPoint: Bool

  public init(_ tunnel: StraightTunnel) {
    depthKm = tunnel.depth / 1000
    below = tunnel.deepestPointBelow
    uniformFallSeconds = tunnel.fallTime(.uniform)
    premFallSeconds = tunnel.fallTime(.prem)
    // Under a millimetre: the same point, written two ways (90 0 and 90 100 are both the North Pole).
    isPoint = tunnel.length < 0.001
  }

  /// `{"deepestPoint":{"depthKm":…,"latitude":…,"longitude":…},"fallSeconds":{"prem":…,"uniform":…}}`,
  /// the point `null` for the centre; seconds to a tenth.
  public func writeJSON(to json: inout JSONWriter) {
    json.object { json in
      json.member("deepestPoint") { json in
        json.object { json in
          json.member("depthKm") { $0.kilometres(depthKm) }
          json.member("latitude") { $0.degrees(below?.latitude) }
          json.member("longitude") { $0.longitude(below?.longitude) }
        }
      }
      json.member("fallSeconds") { json in
        json.object { json in
          json.member("prem") { $0.number(premFallSeconds, places: 1) }
          json.member("uniform") { $0.number(uniformFallSeconds, places: 1) }
        }
      }
    }
  }

  /// The deepest point and the fall as members of a row (`deepestPointDepthKm`, …).
  func rowMembers(_ precision: Precision) -> [(name: String, json: String)] {
    func degrees(_ value: Double?) -> String {
      value.map { OutputRow.number($0, places: precision.degrees) } ?? "null"
    }
    return [
      ("deepestPointDepthKm", OutputRow.number(depthKm, places: precision.kilometres)),
      ("deepestPointLatitude", degrees(below?.latitude)),
      ("deepestPointLongitude", degrees(below.map { precision.longitude($0.longitude) })),
      ("fallSecondsUniform", OutputRow.number(uniformFallSeconds, places: 1)),
      ("fallSecondsPrem", OutputRow.number(premFallSeconds, places: 1)),
    ]
  }

  /// "Deepest point       the Earth's centre, 6,357 km down" and "Fall through it     42 min 10 s …"; the
  /// point above the deepest rounded to `precision`.
  public func lines(precision: Precision = .text) -> [String] {
    // The fall to a tenth of a second first, as the JSON has it, so that both say the same whole seconds.
    let (uniform, prem) = ((uniformFallSeconds * 10).rounded() / 10, (premFallSeconds * 10).rounded() / 10)
    let depth = "\(PlaceText.grouped(Int(depthKm.rounded()))) km down"
    let deepest: String
    if let below,
      let point = try? Coordinate(
        latitude: precision.degrees(below.latitude), longitude: precision.longitude(below.longitude))
    {
      deepest = "\(depth), below \(point.formatted(.decimal(places: 6)))"
    } else {
      deepest = "the Earth's centre, \(depth)"
    }
    guard !isPoint else {
      return [
        "Deepest point       none: both ends are one point, so there is no tunnel",
        "Fall through it     none; a tunnel as short as you like takes \(Self.duration(uniform)) "
          + "on a uniform Earth, \(Self.duration(prem)) with PREM's densities",
      ]
    }
    return [
      "Deepest point       \(deepest)",
      "Fall through it     \(Self.duration(uniform)) on a uniform Earth, \(Self.duration(prem)) with PREM's densities",
    ]
  }

  /// `42 min 10 s`.
  public static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return "\(whole / 60) min \(whole % 60) s"
  }
}
