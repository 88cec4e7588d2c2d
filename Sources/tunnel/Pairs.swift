import ArgumentParser
import Foundation
import TunnelApp
import TunnelCommandLine
import TunnelGeo
import TunnelMaps

extension Tunnel {
  /// `tunnel pairs`: populated places at opposite ends of the Earth.
  struct Pairs: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "pairs",
      abstract: "List pairs of places at opposite ends of the Earth, the closest pairs first.",
      discussion: """
        Each place with at least --min-population inhabitants is paired with the place (with as many) \
        nearest to its antipode, when that place is at most --within kilometres away; each pair is \
        listed once. The famous pairs fall out of it: Hamilton (New Zealand) and Córdoba (Spain), \
        Nanjing and Gálvez, Ulan-Ude and Puerto Natales.

        Examples:
          tunnel pairs
          tunnel pairs --min-population 1000000 --within 200
          tunnel pairs --min-population 0 --within 10 --format csv > pairs.csv
          tunnel pairs --format geojson > pairs.geojson
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json, jsonl, csv, geojson
    }

    @Option(
      help: ArgumentHelp("How far a place may be from the other's antipode, in kilometres.", valueName: "km"))
    var within: Double = 25
    @Option(help: ArgumentHelp("The fewest inhabitants a place of a pair may have.", valueName: "n"))
    var minPopulation: Int = 10_000
    @Option(
      help:
        "How to print the pairs: 'text' for people; 'json', 'jsonl' (a pair a line), 'csv' or 'geojson' for programs."
    )
    var format: Format = .text
    @OptionGroup var data: DataOptions

    func check() throws {
      guard within.isFinite, within >= 0, within <= 20_000 else {
        throw ValidationError("--within must be between 0 and 20,000 km")
      }
      guard minPopulation >= 0 else { throw ValidationError("--min-population must be 0 or more") }
    }

    func run() throws {
      let placeData = try data.placeData()
      let pairs: [AntipodalPair]
      do {
        pairs = try ReverseGeocoder(data: placeData, cache: CacheLocation.cache())
          .antipodalPairs(
            withinKm: within, minimumPopulation: minPopulation)
      } catch {
        throw CommandFailure(error)
      }
      let rows = pairs.map(PairRow.init)
      let lines: [String]
      switch format {
      case .text:
        lines =
          rows.isEmpty
          ? [
            "No pair of places with at least \(PlaceText.grouped(minPopulation)) inhabitants is within \(within) km."
          ] : rows.map(\.text)
      case .json:
        lines = [try ReportJSON.string(rows)]
      case .jsonl:
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        lines = try rows.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
      case .csv:
        lines = [PairRow.csvHeader] + rows.map(\.csv)
      case .geojson:
        lines = [try ReportJSON.string(PairRow.featureCollection(rows))]
      }
      try OutputFile.print(lines.map { $0 + "\n" }.joined())
    }
  }
}

/// One pair as the formats print it.
struct PairRow: Encodable {
  var first: FoundPlace
  var second: FoundPlace
  var distanceKm: Double

  init(_ pair: AntipodalPair) {
    first = FoundPlace(pair.first)
    second = FoundPlace(pair.second)
    distanceKm = OutputRounding.kilometres(pair.distanceKm)
  }

  /// "   0.6 km   Hamilton, NZ (169,300)   ↔   Córdoba, ES (328,428)".
  var text: String {
    let tenths = Int((distanceKm * 10).rounded())
    let distance = "\(tenths / 10).\(tenths % 10) km"
    let left = Self.label(first)
    return String(repeating: " ", count: max(0, 9 - distance.count)) + distance + "   "
      + left + String(repeating: " ", count: max(1, 44 - left.count)) + "↔   " + Self.label(second)
  }

  /// "Hamilton, NZ (192,100)".
  static func label(_ place: FoundPlace) -> String {
    "\(place.name), \(place.countryCode) (\(PlaceText.grouped(place.population)))"
  }

  static let csvHeader =
    "distance_km,name_1,country_code_1,population_1,latitude_1,longitude_1,name_2,country_code_2,population_2,latitude_2,longitude_2"

  var csv: String {
    func field(_ text: String) -> String {
      text.contains(where: { ",\"\n\r".contains($0) })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
    return [
      "\(distanceKm)", field(first.name), first.countryCode, "\(first.population)", "\(first.latitude)",
      "\(first.longitude)", field(second.name), second.countryCode, "\(second.population)",
      "\(second.latitude)",
      "\(second.longitude)",
    ].joined(separator: ",")
  }

  /// GeoJSON (RFC 7946, longitude first): a MultiPoint feature per pair.
  struct FeatureCollection: Encodable {
    struct Feature: Encodable {
      struct Geometry: Encodable {
        var type = "MultiPoint"
        var coordinates: [[Double]]
      }
      var type = "Feature"
      var geometry: Geometry
      var properties: PairRow
    }
    var type = "FeatureCollection"
    var features: [Feature]
  }

  static func featureCollection(_ rows: [PairRow]) -> FeatureCollection {
    FeatureCollection(
      features: rows.map { row in
        .init(
          geometry: .init(coordinates: [
            [row.first.longitude, row.first.latitude], [row.second.longitude, row.second.latitude],
          ]),
          properties: row)
      })
  }
}
