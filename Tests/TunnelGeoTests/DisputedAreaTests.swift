import Testing

@testable import TunnelGeo

/// Areas that Natural Earth 10m admin-0 5.1.1 (German point of view) marks as disputed or indeterminate, or whose
/// note names a claim, say so in their own words (``Placemark/Country/disputed``); every other country says
/// nothing. The facts are the source's `TYPE` and `NOTE_BRK` columns.
@Suite struct DisputedAreaTests {
  static let data = try! PlaceData()
  static let oneOff = ReverseGeocoder(data: data)
  static let batch: ReverseGeocoder = {
    let geocoder = ReverseGeocoder(data: data)
    try! geocoder.prepareForBatch(fields: .country)
    return geocoder
  }()

  @Test(
    arguments: [
      ("Gibraltar", 36.14474, -5.35257, "GI", "Admin. By U.K.; Claimed by Spain"),
      ("Stanley", -51.6938, -57.8570, "FK", "Admin. by U.K.; Claimed by Argentina"),
      ("Laayoune", 27.1536, -13.2033, "EH", "Self admin.; Claimed by Morocco"),
      ("Taipei", 25.0330, 121.5654, "TW", "Self admin.; Claimed by China"),
      ("Pristina", 42.6629, 21.1655, "XK", "Disputed"),
      ("South Pole", -89.0, 0.0, "AQ", "Multiple claims held in abeyance by treaty"),
      ("Paris", 48.8566, 2.3522, "FR", nil), ("Madrid", 40.4168, -3.7038, "ES", nil),
      ("Buenos Aires", -34.6037, -58.3816, "AR", nil),
    ] as [(String, Double, Double, String, String?)])
  func countryOfAPlace(
    place: String, latitude: Double, longitude: Double, code: String, disputed: String?
  )
    throws
  {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    for geocoder in [Self.oneOff, Self.batch] {
      let country = try #require(try geocoder.placemark(for: point, fields: .country).country, "\(place)")
      #expect(country.code == code, "\(place)")
      #expect(country.disputed == disputed, "\(place)")
    }
  }

  /// The features the source marks, and no others.
  @Test func theMarkedFeatures() throws {
    let countries = try Self.data.countries()
    var marked: [String] = []
    for feature in 0..<countries.polygons.featureCount {
      let country = countries.country(feature)
      if country.dispute != nil { marked.append(country.isoAlpha2 ?? country.naturalEarthCode) }
    }
    #expect(marked.sorted() == Self.marked)
  }

  /// Antarctica, Brazilian Island (whose `ISO_A2_EH` is BR), Bir Tawil, Western Sahara, the Falklands, Gibraltar,
  /// Israel, the British Indian Ocean Territory, the Spratly Islands, Palestine, Scarborough Reef, Taiwan,
  /// Guantanamo Bay and Kosovo.
  static let marked = [
    "AQ", "BR", "BRT", "EH", "FK", "GI", "IL", "IO", "PGA", "PS", "SCR", "TW", "USG", "XK",
  ]
}
