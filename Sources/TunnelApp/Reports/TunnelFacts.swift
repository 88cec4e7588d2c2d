import TunnelGeo
import TunnelMaps

/// How deep a tunnel goes and how long a fall through it takes, as `antipode` and `dig` print them.
public struct TunnelFacts: Encodable, Sendable {
  /// The deepest point: its depth, and the point of the surface above it (none for the centre).
  public struct Deepest: Encodable, Sendable {
    public var depthKm: Double
    public var latitude: Double?
    public var longitude: Double?

    private enum CodingKeys: String, CodingKey { case depthKm, latitude, longitude }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(depthKm, forKey: .depthKm)
      try container.encode(latitude, forKey: .latitude)
      try container.encode(longitude, forKey: .longitude)
    }
  }

  /// Seconds of a fall from one end to the other, by density model.
  public struct Fall: Encodable, Sendable {
    public var uniform: Double
    public var prem: Double
  }

  public var deepestPoint: Deepest
  public var fallSeconds: Fall
  /// Whether both ends are one point: there is no tunnel, and the fall times are the limit that ever
  /// shorter tunnels approach (half the period of an orbit skimming the surface). Not encoded: JSON
  /// readers see a length of 0.
  public var isPoint = false

  private enum CodingKeys: String, CodingKey { case deepestPoint, fallSeconds }

  public init(_ tunnel: StraightTunnel) {
    let below = tunnel.deepestPointBelow
    deepestPoint = Deepest(
      depthKm: OutputRounding.kilometres(tunnel.depth / 1000),
      latitude: below.map { OutputRounding.degrees($0.latitude) },
      longitude: below.map { OutputRounding.longitude($0.longitude) })
    fallSeconds = Fall(
      uniform: (tunnel.fallTime(.uniform) * 10).rounded() / 10,
      prem: (tunnel.fallTime(.prem) * 10).rounded() / 10)
    // Under a millimetre: the same point, written two ways (90 0 and 90 100 are both the North Pole).
    isPoint = tunnel.length < 0.001
  }

  /// "Deepest point       the Earth's centre, 6,371 km down" and "Fall through it     42 min 10 s …".
  public var lines: [String] {
    let depth = "\(PlaceText.grouped(Int(deepestPoint.depthKm.rounded()))) km down"
    let deepest: String
    if let latitude = deepestPoint.latitude, let longitude = deepestPoint.longitude,
      let point = try? Coordinate(latitude: latitude, longitude: longitude)
    {
      deepest = "\(depth), below \(point.formatted(.decimal(places: 6)))"
    } else {
      deepest = "the Earth's centre, \(depth)"
    }
    guard !isPoint else {
      return [
        "Deepest point       none: both ends are one point, so there is no tunnel",
        "Fall through it     none; a tunnel as short as you like takes \(Self.duration(fallSeconds.uniform)) "
          + "on a uniform Earth, \(Self.duration(fallSeconds.prem)) with PREM's densities",
      ]
    }
    return [
      "Deepest point       \(deepest)",
      "Fall through it     \(Self.duration(fallSeconds.uniform)) on a uniform Earth, "
        + "\(Self.duration(fallSeconds.prem)) with PREM's densities",
    ]
  }

  /// `42 min 10 s`.
  public static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return "\(whole / 60) min \(whole % 60) s"
  }
}
