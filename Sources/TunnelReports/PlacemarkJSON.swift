import TunnelGeo

// A placemark as `tunnel where --format json` prints it and `tunnel serve` answers it: every member present
// (`null` when the data has no value), members in alphabetical order as they have always been, degrees and
// kilometres to the writer's precision.

extension Placemark: JSONWritable {
  public func writeJSON(to json: inout JSONWriter) {
    json.object { json in
      json.member("boundaryKm") { json in
        guard let boundaries = boundaryKm else { return json.null() }
        json.object { json in
          json.member("country") { $0.kilometres(boundaries.country) }
          json.member("region") { $0.kilometres(boundaries.region) }
          json.member("subregion") { $0.kilometres(boundaries.subregion) }
          json.member("timeZone") { $0.kilometres(boundaries.timeZone) }
        }
      }
      json.member("country") { $0.country(country) }
      // The text's headline, so that a page or a script names the point by the same rule.
      json.member("headline") { $0.string(PlacemarkText.headline(self)) }
      json.member("inLake") { $0.bool(inLake) }
      json.member("lake") { $0.string(lake) }
      json.member("land") { $0.bool(land) }
      json.member("latitude") { $0.degrees(latitude) }
      json.member("longitude") { $0.longitude(longitude) }
      json.member("nearestLand") { json in
        guard let land = nearestLand else { return json.null() }
        json.object { json in
          json.member("country") { $0.country(land.country) }
          json.member("distanceKm") { $0.kilometres(land.distanceKm) }
          json.member("island") { $0.string(land.island) }
          json.member("latitude") { $0.degrees(land.latitude) }
          json.member("longitude") { $0.longitude(land.longitude) }
          json.member("name") { $0.string(land.name) }
        }
      }
      json.member("nearestPlace") { nearestPlace.writeJSON(to: &$0) }
      json.member("region") { json in
        guard let region else { return json.null() }
        json.object { json in
          json.member("code") { $0.string(region.code) }
          json.member("name") { $0.string(region.name) }
          json.member("source") { $0.string(region.source.rawValue) }
        }
      }
      json.member("sea") { $0.string(sea) }
      json.member("subregion") { json in
        guard let subregion else { return json.null() }
        json.object { json in
          json.member("code") { $0.string(subregion.code) }
          json.member("name") { $0.string(subregion.name) }
        }
      }
      json.member("timeZone") { json in
        json.object { json in
          json.member("identifier") { $0.string(timeZone.identifier) }
          json.member("others") { $0.array(timeZone.others) { $0.string($1) } }
        }
      }
    }
  }
}

extension NearestPlace: JSONWritable {
  public func writeJSON(to json: inout JSONWriter) {
    json.object { json in
      json.member("countryCode") { $0.string(countryCode) }
      json.member("distanceKm") { $0.kilometres(distanceKm) }
      json.member("latitude") { $0.degrees(latitude) }
      json.member("longitude") { $0.longitude(longitude) }
      json.member("name") { $0.string(name) }
      json.member("population") { $0.integer(population) }
    }
  }
}

extension JSONWriter {
  /// `{"code":"DK","name":"Denmark"}`, or `null`.
  mutating func country(_ country: Placemark.Country?) {
    guard let country else { return null() }
    object { json in
      json.member("code") { $0.string(country.code) }
      json.member("disputed") { $0.string(country.disputed) }
      json.member("name") { $0.string(country.name) }
    }
  }
}
