/// Country names and codes by ISO alpha-2 code, for qualifiers and display.
struct CountryNames: Sendable {
  private let names: [String: String]
  /// Every folded spelling of a country (codes, names) mapped to its alpha-2 code.
  private let spellings: [String: Set<String>]
  /// The folded names of each country's own feature (long, short, everyday) mapped to its alpha-2 code,
  /// for text that names a country; a name two countries share is left out.
  private let countryNames: [String: String]
  /// The ISO alpha-2 and alpha-3 codes of each country's own feature, as written: capitals.
  private let countryCodes: [String: String]
  /// The folded names that two countries or more share ("Congo"), with their alpha-2 codes, sorted.
  private let sharedNames: [String: [String]]
  /// The feature each alpha-2 code's name comes from: the country itself.
  private let features: [String: Int]

  /// Names people write for countries that the data spells otherwise ("Republic of Korea"), folded. A
  /// name given for two countries ("congo", "korea") names neither alone: it is refused with both.
  static let everydayNames: [(String, String)] = [
    ("usa", "US"), ("united states", "US"), ("united states of america", "US"), ("america", "US"),
    ("uk", "GB"), ("great britain", "GB"), ("britain", "GB"), ("england", "GB"),
    ("south korea", "KR"), ("north korea", "KP"), ("korea", "KR"), ("korea", "KP"),
    ("congo", "CG"), ("congo", "CD"), ("dr congo", "CD"), ("drc", "CD"), ("congo brazzaville", "CG"),
    ("congo kinshasa", "CD"), ("czech republic", "CZ"), ("ivory coast", "CI"), ("macedonia", "MK"),
    ("burma", "MM"), ("east timor", "TL"), ("cape verde", "CV"), ("swaziland", "SZ"),
    ("holland", "NL"), ("vatican", "VA"), ("holy see", "VA"), ("russia", "RU"), ("vietnam", "VN"),
    ("laos", "LA"),
    ("syria", "SY"), ("iran", "IR"), ("bolivia", "BO"), ("venezuela", "VE"), ("tanzania", "TZ"),
    ("moldova", "MD"), ("palestine", "PS"), ("taiwan", "TW"), ("brunei", "BN"), ("micronesia", "FM"),
  ]

  init(_ layer: CountryLayer) {
    var names: [String: String] = [:]
    var spellings: [String: Set<String>] = [:]
    // Several features can share a code (France and Clipperton Island are both FR): the name is the
    // one of the feature that is the country itself, whose own code is its ISO alpha-3 code.
    var named: Set<String> = []
    var naming: [String: Country] = [:]  // the feature each code's name comes from
    for feature in 0..<layer.polygons.featureCount {
      let country = layer.country(feature)
      guard let code = country.isoAlpha2 else { continue }
      let isMain = country.naturalEarthCode == country.isoAlpha3
      if names[code] == nil || (isMain && !named.contains(code)) {
        names[code] = country.name
        naming[code] = country
        if isMain { named.insert(code) }
      }
      for spelling in [code, country.isoAlpha3, country.name, country.shortName].compactMap({ $0 }) {
        spellings[PlaceNameKey.fold(spelling), default: []].insert(code)
      }
    }
    // Everyday names that Natural Earth spells differently.
    for (spelling, code) in Self.everydayNames {
      spellings[spelling, default: []].insert(code)
    }
    self.names = names
    self.spellings = spellings
    // Only the feature a code is named after names the country: "Clipperton I." is France's too,
    // but does not mean France.
    var countryNames: [String: Set<String>] = [:]
    var countryCodes: [String: String] = [:]
    for (code, country) in naming {
      for name in [country.name, country.shortName] where !name.isEmpty {
        countryNames[PlaceNameKey.fold(name), default: []].insert(code)
      }
      countryCodes[code] = code
      if let alpha3 = country.isoAlpha3 { countryCodes[alpha3] = code }
    }
    for (name, code) in Self.everydayNames where names[code] != nil {
      countryNames[name, default: []].insert(code)
    }
    self.countryNames = countryNames.compactMapValues { $0.count == 1 ? $0.first : nil }
    sharedNames = countryNames.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
    self.countryCodes = countryCodes
    features = naming.mapValues(\.feature)
  }

  /// The alpha-2 code of the country `text` names: its English name (long or short, folded, so in any
  /// case) or its ISO 3166-1 alpha-2 or alpha-3 code in capitals ("DK", "DNK"; "Bra" is a town in
  /// Italy, "BRA" Brazil).
  func code(naming text: String) -> String? {
    let trimmed = text.trimmingWhitespace()
    if let code = countryCodes[trimmed] { return code }
    return countryNames[PlaceNameKey.fold(trimmed)]
  }

  func name(forCode code: String) -> String? { names[code] }

  /// The feature of the country with alpha-2 `code`: the one its name comes from.
  func feature(forCode code: String) -> Int? { features[code] }

  /// The alpha-2 codes of the countries that `text` names alike ("Congo": CD and CG), empty when it
  /// names one country or none.
  func codes(sharing text: String) -> [String] {
    sharedNames[PlaceNameKey.fold(text.trimmingWhitespace())] ?? []
  }

  /// Whether the folded `qualifier` is a spelling of the country with alpha-2 `code`.
  func matches(code: String, qualifier: String) -> Bool {
    spellings[qualifier]?.contains(code) ?? false
  }
}
