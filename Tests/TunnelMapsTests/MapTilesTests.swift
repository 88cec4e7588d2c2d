import Foundation
import Testing
import TunnelGeo

@testable import TunnelMaps

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The Web Mercator tiles: their arithmetic against PROJ's, land and sea where they are, no seam or
/// false border drawn, and labels that continue across tile edges.
@MainActor
@Suite struct MapTilesTests {
  static let tiles = try! MapTiles(data: Shared.mapData)

  /// A tile's elements, parsed back as XML.
  func elements(_ zoom: Int, _ x: Int, _ y: Int, antipodal: Bool = false) throws -> [ElementCollector.Element]
  {
    let svg =
      antipodal ? Self.tiles.antipodalSvg(zoom: zoom, x: x, y: y) : Self.tiles.svg(zoom: zoom, x: x, y: y)
    let parser = XMLParser(data: Data(svg))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "tile \(zoom)/\(x)/\(y) is not well-formed XML")
    return collector.elements
  }

  /// The path drawn in a colour (fill or stroke), as absolute subpaths.
  func subpaths(
    _ elements: [ElementCollector.Element], _ attribute: String, _ colour: String
  ) -> [[(Double, Double)]] {
    elements.filter { $0.name == "path" && $0.attributes[attribute] == colour }.flatMap {
      Self.parsePath($0.attributes["d"] ?? "")
    }
  }

  /// Reads path data of `M x y`, `l dx dy …` and `z`.
  static func parsePath(_ data: String) -> [[(Double, Double)]] {
    var result: [[(Double, Double)]] = []
    var numbers: [Double] = []
    var command: Character = " "
    var current = ""
    func flushNumber() {
      if !current.isEmpty, let value = Double(current) { numbers.append(value) }
      current = ""
    }
    func apply() {
      if command == "M", numbers.count >= 2 {
        result.append([(numbers[0], numbers[1])])
      } else if command == "l" {
        var index = 0
        while index + 1 < numbers.count, let last = result.last?.last {
          result[result.count - 1].append((last.0 + numbers[index], last.1 + numbers[index + 1]))
          index += 2
        }
      }
      numbers.removeAll()
    }
    for character in data {
      if character.isLetter {
        flushNumber()
        apply()
        command = character
      } else if character == "-" {
        flushNumber()
        current = "-"
      } else if character == " " {
        flushNumber()
      } else {
        current.append(character)
      }
    }
    flushNumber()
    apply()
    return result
  }

  @Test func webMercatorAgreesWithPROJ() throws {
    let context = try ProjectionContext()
    let mercator = try Projection(
      definition:
        "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=webmerc +ellps=WGS84",
      in: context)
    let halfWorld = Double.pi * 6_378_137
    for (latitude, longitude) in [(56.55, 8.32), (-41.29, 174.78), (84.9, -179.9), (-85.0, 0.0), (0.0, 0.0)] {
      guard case .visible(let x, let y) = mercator.project(coordinate(latitude, longitude)) else {
        Issue.record("PROJ cannot project \(latitude), \(longitude)")
        continue
      }
      for zoom in [0, 5, 12] {
        let frame = TileFrame(zoom: zoom, x: 0, y: 0)
        let point = frame.point(longitude: longitude, latitude: latitude)
        let size = Double(256 << zoom)
        #expect(abs(point.x - (x + halfWorld) / (2 * halfWorld) * size) < 1e-6 * size)
        #expect(abs(point.y - (halfWorld - y) / (2 * halfWorld) * size) < 1e-6 * size)
      }
    }
  }

  @Test func tileNumbers() {
    #expect(MapTiles.isTile(zoom: 0, x: 0, y: 0))
    #expect(MapTiles.isTile(zoom: 12, x: 4095, y: 4095))
    #expect(!MapTiles.isTile(zoom: 13, x: 0, y: 0))
    #expect(!MapTiles.isTile(zoom: 2, x: 4, y: 0))
    #expect(!MapTiles.isTile(zoom: 2, x: 0, y: -1))
  }

  /// Inland, the land covers the whole tile; far out at sea there is none; both are valid SVG.
  @Test func landAndSea() throws {
    // Zoom 6 around 23° N 11° E, in the Sahara.
    let sahara = try elements(6, 33, 27)
    let land = subpaths(sahara, "fill", MapTiles.land)
    #expect(
      land.contains { ring in
        let xs = ring.map(\.0)
        let ys = ring.map(\.1)
        return xs.min()! <= 0 && xs.max()! >= 256 && ys.min()! <= 0 && ys.max()! >= 256
      }, "the Sahara's tile is not covered by land")
    // Zoom 6 at 0°–5.6° S, 140.6°–135° W, in the Pacific.
    let pacific = try elements(6, 7, 32)
    #expect(subpaths(pacific, "fill", MapTiles.land).isEmpty)
    #expect(pacific.first?.name == "svg")
    #expect(pacific.contains { $0.name == "rect" && $0.attributes["fill"] == MapTiles.sea })
  }

  /// No shoreline runs along 0° (where the source cut Eurasia) or along 180° down to the South Pole
  /// (where it closed Antarctica), and no border crosses Antarctica.
  @Test func noSeams() throws {
    // Zoom 3, x 4: from 0° east; y 2: 41°–67° N, through France. Its left edge is 0°.
    for (zoom, x, y, seamX) in [(3, 4, 2, 0.0), (4, 8, 5, 0.0), (2, 3, 3, 256.0), (2, 0, 3, 0.0)] {
      let tile = try elements(zoom, x, y)
      for line in subpaths(tile, "stroke", MapTiles.shoreColour) {
        for (a, b) in zip(line, line.dropFirst()) where abs(a.0 - seamX) < 0.2 && abs(b.0 - seamX) < 0.2 {
          #expect(abs(a.1 - b.1) < 2, "a shoreline runs along the seam in \(zoom)/\(x)/\(y)")
        }
      }
    }
    // Antarctica, south of 66° S at zoom 2: borders none.
    for x in 0..<4 {
      #expect(
        subpaths(try elements(2, x, 3), "stroke", MapTiles.borderColour).isEmpty, "a border in 2/\(x)/3")
    }
  }

  /// Borders are drawn between countries (France and Spain in the Pyrenees) but not along coasts.
  @Test func bordersBetweenCountries() throws {
    // Zoom 6, x 31–32, y 23: about 0° and 42.5° N, the Pyrenees.
    let borders = try [31, 32].flatMap { subpaths(try elements(6, $0, 23), "stroke", MapTiles.borderColour) }
    #expect(!borders.isEmpty, "no border in the Pyrenees")
    // Zoom 6 at 0°–5.6° E, 58.8°–61.6° N: Norway's coast about Bergen, a shore and no border.
    let bergen = try elements(6, 32, 18)
    #expect(!subpaths(bergen, "stroke", MapTiles.shoreColour).isEmpty)
    #expect(subpaths(bergen, "stroke", MapTiles.borderColour).isEmpty)
  }

  /// A label that crosses a tile's right edge is drawn again, at the same place, in the next tile.
  @Test func labelsContinueAcrossEdges() throws {
    var checked = 0
    for y in 2..<6 {
      for x in 0..<8 {
        let here = try elements(3, x, y).filter { $0.name == "text" }
        let next = try elements(3, (x + 1) % 8, y).filter { $0.name == "text" }
        for label in here {
          guard let textX = Double(label.attributes["x"] ?? ""), label.attributes["text-anchor"] == nil,
            textX > 200, textX < 256, textX + Double(label.text.count) * 6 > 260
          else { continue }
          #expect(
            next.contains {
              $0.text == label.text && abs((Double($0.attributes["x"] ?? "") ?? 0) - (textX - 256)) < 0.01
            },
            "'\(label.text)' at 3/\(x)/\(y) is cut at the tile's edge")
          checked += 1
        }
      }
    }
    #expect(checked > 0)
  }

  /// Each zoom labels the most populous places first: Tokyo and São Paulo at zoom 2.
  @Test func largestPlacesLabelled() throws {
    let names = Set(
      (0..<4).flatMap { x in
        (0..<4).flatMap { y in try! elements(2, x, y).filter { $0.name == "text" }.map(\.text) }
      })
    for name in ["Tokyo", "São Paulo", "Shanghai", "Lagos", "Moscow", "Cairo", "Mexico City"] {
      #expect(names.contains(name), "\(name) is not labelled at zoom 2")
    }
  }

  /// The same tile twice is the same bytes (so its ETag holds), and tiles stay small.
  @Test func deterministicAndSmall() {
    for (zoom, x, y) in [(0, 0, 0), (5, 16, 10), (12, 2170, 1269)] {
      let first = Self.tiles.svg(zoom: zoom, x: x, y: y)
      #expect(first == Self.tiles.svg(zoom: zoom, x: x, y: y))
      #expect(first.count < 400_000)
    }
  }

  /// Whether the antipodal overlay at zoom `zoom` covers a point: its flipped land, as the tile's transforms
  /// place it, holds the point by the even-odd rule.
  func overlayCovers(zoom: Int, latitude: Double, longitude: Double) throws -> Bool {
    let frame = TileFrame(zoom: zoom, x: 0, y: 0)
    let world = frame.point(longitude: longitude, latitude: latitude)
    let (x, y) = (Int(world.x / 256), Int(world.y / 256))
    let point = (world.x - Double(x * 256), world.y - Double(y * 256))
    var shift: Double?
    var crossings = 0
    for element in try elements(zoom, x, y, antipodal: true) {
      if element.name == "g" {
        // matrix(1 0 0 -1 shift 256)
        let numbers = (element.attributes["transform"] ?? "").split(whereSeparator: {
          !"-0123456789.".contains($0)
        })
        #expect(numbers.count == 6 && numbers[3] == "-1" && numbers[5] == "256")
        shift = Double(numbers[4])
      }
      guard element.name == "path", element.attributes["fill"] == MapTiles.antipodalLand, let shift else {
        continue
      }
      for ring in Self.parsePath(element.attributes["d"] ?? "") {
        let placed = ring.map { ($0.0 + shift, 256 - $0.1) }
        for (a, b) in zip(placed, placed.dropFirst() + placed.prefix(1))
        where (a.1 > point.1) != (b.1 > point.1)
          && point.0 < a.0 + (point.1 - a.1) / (b.1 - a.1) * (b.0 - a.0)
        {
          crossings += 1
        }
      }
    }
    return crossings % 2 == 1
  }

  /// The antipodal overlay draws the other side's land turned through the Earth: New Zealand over Madrid,
  /// Argentina over China, Kenya over the Pacific at 2° S 138.5° W, and nothing over the sea off Hawaii whose antipode is the
  /// Mozambique Channel; at zoom 0 as well as closer, with no ground of its own.
  @Test func antipodalOverlay() throws {
    for zoom in [0, 3, 5, 6] {
      // New Zealand is under a pixel wide at zoom 0.
      if zoom > 0 {
        #expect(
          try overlayCovers(zoom: zoom, latitude: 40.42, longitude: -3.70),
          "no New Zealand over Madrid at \(zoom)")
      }
      #expect(
        try overlayCovers(zoom: zoom, latitude: 30, longitude: 115), "no Argentina over China at \(zoom)")
      #expect(
        try overlayCovers(zoom: zoom, latitude: -2, longitude: -138.5), "no Kenya over the Pacific at \(zoom)"
      )
      #expect(
        try !overlayCovers(zoom: zoom, latitude: 20, longitude: -140), "land over 20° N 140° W at \(zoom)")
    }
    let tile = try elements(5, 15, 12, antipodal: true)
    #expect(!tile.contains { $0.name == "rect" }, "the overlay has a ground of its own")
    #expect(!tile.contains { $0.name == "text" }, "the overlay has labels, which would read upside down")
    #expect(Self.tiles.antipodalSvg(zoom: 5, x: 15, y: 12) == Self.tiles.antipodalSvg(zoom: 5, x: 15, y: 12))
  }
}
