import Testing

@testable import TunnelGeo

/// Countries where Natural Earth's 1:10 million borders are too coarse to tell: enclaves, small countries and
/// territories that its countries fold into another (``ReverseGeocoder/borderAccuracyKm``,
/// `Scripts/data/territories.py`). The facts are GeoNames' country of each place and OpenStreetMap's borders.
@Suite struct BorderTests {
  static let data = try! PlaceData()
  static let geocoder: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: .country)
    return geocoder
  }()
  static let oneOff = ReverseGeocoder(data: data)

  @Test(arguments: [
    // Enclaves and small countries, and the country around them a little way off.
    ("Vatican City", 41.90268, 12.45414, "VA"), ("St Peter's Basilica", 41.9022, 12.4539, "VA"),
    ("the Colosseum", 41.8902, 12.4922, "IT"), ("Gibraltar", 36.14474, -5.35257, "GI"),
    ("La Línea de la Concepción", 36.1681, -5.3478, "ES"), ("Büsingen am Hochrhein", 47.697, 8.69, "DE"),
    ("Schaffhausen", 47.6959, 8.6343, "CH"), ("Campione d'Italia", 45.968, 8.972, "IT"),
    ("Lugano", 46.0037, 8.9511, "CH"), ("Baarle-Hertog", 51.4416, 4.9306, "BE"),
    ("Baarle-Nassau", 51.4475, 4.92917, "NL"), ("Llívia", 42.46462, 1.9807, "ES"),
    ("San Marino", 43.93667, 12.44639, "SM"), ("Monaco", 43.7384, 7.4246, "MC"),
    ("Vaduz", 47.141, 9.5215, "LI"),
    // Territories with codes of their own.
    ("Saint-Denis, Réunion", -20.88231, 55.4504, "RE"), ("Fort-de-France", 14.60365, -61.07418, "MQ"),
    ("Les Abymes", 16.273, -61.50507, "GP"), ("Cayenne", 4.9381, -52.33455, "GF"),
    ("Mamoudzou", -12.78234, 45.22878, "YT"), ("Longyearbyen", 78.22334, 15.64689, "SJ"),
    ("Kralendijk", 12.15, -68.26667, "BQ"), ("Flying Fish Cove", -10.42172, 105.67912, "CX"),
    ("West Island", -12.15681, 96.82251, "CC"), ("Paris", 48.8566, 2.3522, "FR"),
    ("Oslo", 59.9139, 10.7522, "NO"),
    // Kosovo keeps Serbia's time zone, and stays Kosovo.
    ("Pristina", 42.6629, 21.1655, "XK"),
    // Atolls and islands that Natural Earth draws kilometres off or not at all: GSHHG's land within 5 km
    // (0.6 km off Tarawa, 4.1 km off Upolu), or for Nukunonu, which no outline holds, the time zone's country.
    ("off Tarawa", 1.47, 173.03, "KI"), ("off Upolu", -14.08, -171.79, "WS"),
    ("Nukunonu", -9.2005, -171.8484, "TK"),
  ])
  func countryOfAPlace(place: String, latitude: Double, longitude: Double, code: String) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    #expect(try Self.geocoder.placemark(for: point, fields: .country).country?.code == code, "\(place)")
    #expect(try Self.oneOff.placemark(for: point, indexes: nil).country?.code == code, "\(place)")
  }

  /// Beyond 5 km from any land, and in the open sea, there is no country.
  @Test(arguments: [(-14.09, -171.79), (1.47, 174.5), (-30.0, -140.0)])
  func noCountryOffShore(latitude: Double, longitude: Double) throws {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    #expect(try Self.geocoder.placemark(for: point, fields: .country).country == nil)
    #expect(try Self.oneOff.placemark(for: point, indexes: nil).country == nil)
  }

  /// Each country's most populous place lies in that country, but for East Jerusalem, which Natural Earth's
  /// point of view draws in Israel (and whose time zone is Jerusalem's).
  @Test func everyCountrysLargestPlaceIsInIt() throws {
    let places = try Self.data.places()
    var largest: [String: Int] = [:]
    for index in 0..<places.count {
      let code = places.countryCode(at: index)
      if largest[code].map({ places.population(at: $0) < places.population(at: index) }) ?? true {
        largest[code] = index
      }
    }
    #expect(largest.count > 240)
    let codes = largest.keys.sorted()
    let found = try Self.geocoder.placemarks(
      for: codes.map { places.coordinate(at: largest[$0]!) }, fields: .country)
    var misses: [String] = []
    for (code, placemark) in zip(codes, found) where placemark.country?.code != code {
      misses.append(code)
      if code != "PS" {
        Issue.record("\(places.name(at: largest[code]!)), \(code): \(placemark.country?.code ?? "none")")
      }
    }
    #expect(misses == ["PS"])
  }

  /// Of GeoNames' 234,908 places, fewer than 0.2 % lie outside their own country (borders drawn
  /// coarsely, disputed areas, atolls); with Natural Earth's borders alone it was 0.44 %.
  @Test func placesLieInTheirOwnCountries() throws {
    let places = try Self.data.places()
    let points = (0..<places.count).map(places.coordinate(at:))
    let found = try Self.geocoder.placemarks(for: points, fields: .country)
    var outside = 0
    for (index, placemark) in found.enumerated()
    where placemark.country?.code != places.countryCode(at: index) {
      outside += 1
    }
    #expect(places.count > 200_000)
    #expect(Double(outside) < 0.002 * Double(places.count), "\(outside) of \(places.count)")
  }
}
