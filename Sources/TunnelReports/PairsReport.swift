import TunnelGeo

/// What `tunnel pairs` says about the pairs of places at opposite ends of the Earth, in each of its formats.
public struct PairsReport: Sendable, JSONWritable {
  /// The pairs, closest first.
  public var pairs: [AntipodalPair]

  public init(_ pairs: [AntipodalPair]) {
    self.pairs = pairs
  }

  /// An array of `{"distanceKm":…,"first":…,"second":…}`, the places as ``FoundPlace``s.
  public func writeJSON(to json: inout JSONWriter) {
    json.array(pairs) { json, pair in Self.write(pair, to: &json) }
  }

  private static func write(_ pair: AntipodalPair, to json: inout JSONWriter) {
    json.object { json in
      json.member("distanceKm") { $0.kilometres(pair.distanceKm) }
      json.member("first") { FoundPlace(pair.first).writeJSON(to: &$0) }
      json.member("second") { FoundPlace(pair.second).writeJSON(to: &$0) }
    }
  }

  /// A line a pair, "   0.6 km   Hamilton, NZ (169,300)   ↔   Córdoba, ES (328,428)"; `none` when there is
  /// no pair.
  public func text(none: String) -> String {
    guard !pairs.isEmpty else { return none + "\n" }
    return pairs.map { pair in
      let tenths = Int((Precision.data.kilometres(pair.distanceKm) * 10).rounded())
      let distance = "\(tenths / 10).\(tenths % 10) km"
      let left = FoundPlace(pair.first).label
      return String(repeating: " ", count: max(0, 9 - distance.count)) + distance + "   "
        + left + String(repeating: " ", count: max(1, 44 - left.count)) + "↔   "
        + FoundPlace(pair.second).label + "\n"
    }.joined()
  }

  /// A compact JSON object a line.
  public func jsonLines(precision: Precision = .data) -> String {
    pairs.map { pair in
      var json = JSONWriter(style: .compact, precision: precision)
      Self.write(pair, to: &json)
      return json.text + "\n"
    }.joined()
  }

  /// A header, then a line a pair: the distance, then each place's name, country code, population and
  /// position; numbers as Swift writes a double, after rounding to `precision`.
  public func csv(precision: Precision = .data) -> String {
    // Quoted as every CSV field Tunnel writes is (`OutputBytes.field`).
    func field(_ text: String) -> String {
      var out = OutputBytes()
      out.field(text, separator: UInt8(ascii: ","))
      return String(decoding: out.bytes, as: UTF8.self)
    }
    func place(_ place: Place) -> [String] {
      [
        field(place.name), place.countryCode, "\(place.population)",
        "\(precision.degrees(place.coordinate.latitude))", "\(precision.degrees(place.coordinate.longitude))",
      ]
    }
    let header =
      "distance_km,name_1,country_code_1,population_1,latitude_1,longitude_1,name_2,country_code_2,population_2,latitude_2,longitude_2\n"
    return header
      + pairs.map { pair in
        (["\(precision.kilometres(pair.distanceKm))"] + place(pair.first) + place(pair.second))
          .joined(separator: ",") + "\n"
      }.joined()
  }

  /// GeoJSON (RFC 7946, longitude first): a MultiPoint feature a pair, its properties the pair's JSON.
  public func geoJSON(precision: Precision = .data) -> String {
    var json = JSONWriter(style: .pretty, precision: precision)
    json.object { json in
      json.member("features") { json in
        json.array(pairs) { json, pair in
          json.object { json in
            json.member("geometry") { json in
              json.object { json in
                json.member("coordinates") { json in
                  json.array([pair.first.coordinate, pair.second.coordinate]) { json, point in
                    json.array { json in
                      json.degrees(point.longitude)
                      json.degrees(point.latitude)
                    }
                  }
                }
                json.member("type") { $0.string("MultiPoint") }
              }
            }
            json.member("properties") { Self.write(pair, to: &$0) }
            json.member("type") { $0.string("Feature") }
          }
        }
      }
      json.member("type") { $0.string("FeatureCollection") }
    }
    return json.text + "\n"
  }
}
