/// Country names and codes by ISO alpha-2 code, for qualifiers and display.
struct CountryNames: Sendable {
  private let names: [String: String]
  /// Every folded spelling of a country (codes, names) mapped to its alpha-2 code.
  private let spellings: [String: Set<String>]

  init(_ layer: CountryLayer) {
    var names: [String: String] = [:]
    var spellings: [String: Set<String>] = [:]
    // Several features can share a code (France and Clipperton Island are both FR): the name is the
    // one of the feature that is the country itself, whose own code is its ISO alpha-3 code.
    var named: Set<String> = []
    for feature in 0..<layer.polygons.featureCount {
      let country = layer.country(feature)
      guard let code = country.isoAlpha2 else { continue }
      let isMain = country.naturalEarthCode == country.isoAlpha3
      if names[code] == nil || (isMain && !named.contains(code)) {
        names[code] = country.name
        if isMain { named.insert(code) }
      }
      for spelling in [code, country.isoAlpha3, country.name, country.shortName].compactMap({ $0 }) {
        spellings[PlaceNameKey.fold(spelling), default: []].insert(code)
      }
    }
    // Everyday names that Natural Earth spells differently.
    for (spelling, code) in [("usa", "US"), ("united states", "US"), ("uk", "GB"), ("great britain", "GB")] {
      spellings[spelling, default: []].insert(code)
    }
    self.names = names
    self.spellings = spellings
  }

  func name(forCode code: String) -> String? { names[code] }

  /// Whether the folded `qualifier` is a spelling of the country with alpha-2 `code`.
  func matches(code: String, qualifier: String) -> Bool {
    spellings[qualifier]?.contains(code) ?? false
  }
}
