import TunnelGeo

/// A place as `find` and `pairs` print it in JSON.
public struct FoundPlace: Encodable, Sendable {
  public var name: String
  public var countryCode: String
  public var region: String?
  public var latitude: Double
  public var longitude: Double
  public var population: Int

  public init(_ match: GazetteerMatch) {
    self.init(match.place)
  }

  public init(_ place: Place) {
    name = place.name
    countryCode = place.countryCode
    region = place.region.flatMap { $0.name.isEmpty ? nil : $0.name }
    latitude = OutputRounding.degrees(place.coordinate.latitude)
    longitude = OutputRounding.degrees(place.coordinate.longitude)
    population = place.population
  }

  private enum CodingKeys: String, CodingKey {
    case name, countryCode, region, latitude, longitude, population
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(countryCode, forKey: .countryCode)
    try container.encode(region, forKey: .region)  // null rather than absent
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
    try container.encode(population, forKey: .population)
  }
}
