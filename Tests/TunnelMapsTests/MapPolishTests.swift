import Foundation
import Testing
import TunnelGeo

@testable import TunnelMaps

#if canImport(FoundationXML)
import FoundationXML
import TunnelReports
#endif

/// What a cartographer would fix in the pictures: seams drawn as shores and borders, captions that repeat
/// or bracket twice, zones without their offset, a dig site without its name, and a map without scale.
@MainActor
@Suite("The maps, polished")
struct MapPolishTests {
  /// The elements of an SVG document.
  static func elements(_ document: String) throws -> [ElementCollector.Element] {
    let parser = XMLParser(data: Data(document.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse())
    return collector.elements
  }

  static func document(
    _ start: Coordinate, regionSpan: Double = MapViewport.defaultRegionSpan
  ) throws
    -> String
  {
    let placemarks = (
      try Shared.reverseGeocoder.placemark(for: start),
      try Shared.reverseGeocoder.placemark(for: start.antipode)
    )
    return try SVGMap(renderer: Shared.renderer, start: start, regionSpan: regionSpan, placemarks: placemarks)
      .document()
  }

  @Test("The seams along 180° and round the South Pole are neither shore nor border; real borders still are")
  func seams() throws {
    let viewport = MapViewport(centre: coordinate(-86, 170), regionSpan: 1_500_000, width: 300, height: 200)
    let picture = try Shared.renderer.picture(of: viewport)
    let frame = try MapRenderer.Frame(
      viewport: viewport,
      projection: Projection.azimuthalEquidistant(
        centredOn: viewport.centre, in: ProjectionContext(), onSphere: true))
    // The coastline's edges left undrawn are its seams: every point of them lies on 180° or at the pole.
    let coast = Shared.renderer.polylines(of: Shared.mapData.coast, in: frame)
    let seams = zip(coast.lines, coast.isSeam).filter(\.1).map(\.0)
    #expect(!seams.isEmpty, "the antimeridian seam of Antarctica is in view")
    for line in seams {
      for point in line {
        guard let found = Shared.renderer.coordinate(at: point, in: viewport) else { continue }
        let onSeam = abs(found.longitude) < 0.05 || abs(abs(found.longitude) - 180) < 0.05
        #expect(onSeam || found.latitude < -89.9, "\(found)")
      }
    }
    // No border drawn runs along 180° in Antarctica (a country's own seam and coast are no border).
    for line in picture.borderLines {
      for point in line {
        guard let found = Shared.renderer.coordinate(at: point, in: viewport) else { continue }
        #expect(!(abs(abs(found.longitude) - 180) < 0.05 && found.latitude < -80), "\(found)")
      }
    }
    // Where the seam runs inland, no border or shore pixel is drawn.
    for latitude in [-84.0, -86, -88] {
      let point = try #require(frame.point(latitude: latitude, longitude: 180))
      let (x, y) = (Int(point.x), Int(point.y))
      #expect(picture.land[x, y], "Antarctica at \(latitude)")
      #expect(!picture.borders[x, y] && !picture.coast[x, y], "a seam drawn at \(latitude), 180")
    }
    // Borders between countries are still drawn (Spain and France).
    let pyrenees = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(42.6, 1.0), regionSpan: 600_000, width: 200, height: 120))
    #expect(pyrenees.borders.bits.contains(true))
  }

  /// The vertices of an SVG path made of M and L commands.
  static func vertices(_ path: String) -> [MapPoint] {
    let numbers = path.split { "MLhvz ".contains($0) }.compactMap { Double($0) }
    return stride(from: 0, to: numbers.count - 1, by: 2).map { MapPoint(x: numbers[$0], y: numbers[$0 + 1]) }
  }

  @Test("tunnel map 88 30 --svg: no shore or border stroke runs along 180° or across Antarctica's interior")
  func svgSeams() throws {
    let start = coordinate(88, 30)
    let elements = try Self.elements(try Self.document(start))
    // The maps are nested <svg> elements; the strokes after the second one's start are the far end's.
    let far = try #require(elements.lastIndex { $0.attributes["class"] == "map target" })
    let strokes = elements[far...].filter {
      $0.name == "path" && ($0.attributes["stroke"] == "#c8d9a8" || $0.attributes["stroke-dasharray"] != nil)
    }
    let viewport = MapViewport(
      centre: start.antipode, regionSpan: MapViewport.defaultRegionSpan, width: 960, height: 400)
    var checked = 0
    for stroke in strokes {
      for point in Self.vertices(stroke.attributes["d"] ?? "") {
        guard let found = Shared.renderer.coordinate(at: point, in: viewport) else { continue }
        checked += 1
        #expect(abs(abs(found.longitude) - 180) > 0.05, "a stroke along 180° at \(found)")
        #expect(found.latitude > -80, "a stroke across Antarctica's interior at \(found)")
      }
    }
    // The far end's map is all land round the pole: it has no stroke left to draw.
    #expect(checked == 0, "\(checked) stroked vertices on the map round the South Pole")
    let picture = try Shared.renderer.picture(of: viewport)
    #expect(picture.land.bits.allSatisfy { $0 }, "Antarctica fills the map round the South Pole")
  }

  @Test(
    "Lakes and islets whose fill does not show get no shore stroke: no scratches across Norway, Spain, New Zealand",
    arguments: [(61.0, 9.0), (40.4165, -3.70256), (-44.0, 170.0), (16.3, -0.05)])
  func noScratches(latitude: Double, longitude: Double) throws {
    let viewport = MapViewport(
      centre: coordinate(latitude, longitude), regionSpan: MapViewport.defaultRegionSpan, width: 960,
      height: 400)
    let picture = try Shared.renderer.picture(of: viewport)
    let kept = picture.shorelines.filter(SVGMap.isReadableShore)
    var checked = 0
    for line in kept {
      let first = line[0]
      let last = line[line.count - 1]
      guard abs(first.x - last.x) <= 1, abs(first.y - last.y) <= 1,
        line.allSatisfy({ (0..<960).contains($0.x) && (0..<400).contains($0.y) })
      else { continue }
      checked += 1
      // A whole ring in view that is stroked bounds something the fill shows: both land and water lie within it.
      let xs = line.map { Int($0.x) }
      let ys = line.map { Int($0.y) }
      var seen: Set<Bool> = []
      for y in ys.min()!...ys.max()! {
        for x in xs.min()!...xs.max()! {
          seen.insert(picture.land[x, y])
        }
      }
      #expect(seen.count == 2, "a shore stroked round a ring whose fill does not show, at \(first)")
    }
    #expect(checked > 0, "some lake or island ring lies wholly in view")
  }

  @Test("Captions read once each: no region repeating the town, no two brackets, offsets from UTC")
  func captions() throws {
    #expect(PlaceText.regionName("Madrid, Comunidad de") == "Comunidad de Madrid")
    #expect(PlaceText.regionName("Valenciana, Comunitat") == "Comunitat Valenciana")
    // Transnistria's ISO name, whose tail is in lower case.
    #expect(
      PlaceText.regionName("Stînga Nistrului, unitatea teritorială din")
        == "Unitatea teritorială din Stînga Nistrului")
    #expect(PlaceText.regionName("Midtjylland") == "Midtjylland")
    // At Madrid's own point, whose region is "Madrid, Comunidad de" in the data.
    let madrid = try Shared.reverseGeocoder.placemark(for: coordinate(40.4165, -3.70256))
    #expect(madrid.region?.name == "Madrid, Comunidad de")
    #expect(PlacemarkText.headline(madrid) == "Madrid, Spain")
    let valencia = try Shared.reverseGeocoder.placemark(for: coordinate(39.4699, -0.3763))
    #expect(PlacemarkText.headline(valencia) == "Valencia, Comunidad Valenciana, Spain")
    #expect(PlaceText.timeZone("Etc/GMT+2") == "Etc/GMT+2 (UTC\u{2212}2)")
    #expect(PlaceText.timeZone("Etc/GMT-12") == "Etc/GMT-12 (UTC+12)")
    #expect(PlaceText.timeZone("Asia/Kolkata") == "Asia/Kolkata (UTC+5:30)")
    #expect(PlaceText.timeZone("Etc/UTC") == "Etc/UTC (UTC)")
    let noronha = try Shared.reverseGeocoder.placemark(for: coordinate(-3.80, -32.35))
    let headline = PlacemarkText.headline(noronha)
    #expect(headline.hasSuffix("from Fernando de Noronha (Distrito Estadual), Brazil"), "\(headline)")
    #expect(!headline.contains(") ("), "\(headline)")
  }

  @Test("The SVG names the dig site beside its marker, and has a scale bar, a graticule and the pole in view")
  func svg() throws {
    let madrid = try Self.elements(try Self.document(coordinate(40.4165, -3.70256)))
    let featured = madrid.filter { ($0.attributes["class"] ?? "").contains("featured") }
    #expect(featured.contains { $0.text == "Madrid" }, "the dig site is named")
    let scales = madrid.filter { $0.attributes["class"] == "scale" }
    #expect(scales.count == 2 && scales.allSatisfy { $0.text.hasSuffix(" km") })
    #expect(madrid.filter { $0.attributes["class"] == "graticule" }.count == 2)
    let captions = madrid.filter { ($0.attributes["class"] ?? "").hasPrefix("caption") }
    #expect(captions.count == 2 && captions.allSatisfy { $0.text.contains("(UTC") })
    // No label over the scale bar (Brisbane sat on it on the map round Vanua Levu, 3,000 km across).
    let box = SVGMap.scaleBarBox(width: 960, mapHeight: 400)
    let fiji = try Self.elements(try Self.document(coordinate(16.27, -0.04), regionSpan: 3_000_000))
    let texts = fiji.filter { $0.name == "text" && ($0.attributes["font-size"] ?? "") == "13" }
    #expect(texts.count > 10)
    for text in texts {
      let x = try #require(Double(text.attributes["x"] ?? ""))
      let y = try #require(Double(text.attributes["y"] ?? ""))
      let textWidth = Double(text.text.count) * 13 * 0.6
      let (x0, x1) = text.attributes["text-anchor"] == "end" ? (x - textWidth, x) : (x, x + textWidth)
      let overlaps = x0 < box.x1 && box.x0 < x1 && y - 13 < box.y1 && box.y0 < y + 4
      #expect(!overlaps, "\(text.text) over the scale bar")
    }
    let pole = try Self.elements(try Self.document(coordinate(88, 30)))
    let poles = pole.filter { $0.attributes["class"] == "pole" }
    #expect(poles.map(\.text).sorted() == ["North Pole", "South Pole"])
  }

  @Test("Capitals are labelled before larger places: Suva before Nasinu, in the terminal and in the SVG")
  func capitalsFirst() throws {
    let viewport = MapViewport(centre: coordinate(-18.1, 178.4), regionSpan: 200_000, width: 160, height: 80)
    let picture = try Shared.renderer.picture(of: viewport)
    let names = picture.places.map(\.name)
    let suva = try #require(names.firstIndex(of: "Suva"))
    let nasinu = try #require(names.firstIndex(of: "Nasinu"))
    #expect(suva < nasinu && picture.places[suva].isCapital && !picture.places[nasinu].isCapital)
    #expect(picture.places[nasinu].population > picture.places[suva].population)
    // The order is by population, a capital's counted four times.
    let ranks = picture.places.map { $0.population * ($0.isCapital ? 4 : 1) }
    #expect(ranks == ranks.sorted(by: >))
    let svg = try Self.elements(try Self.document(coordinate(-18.14, 178.44)))
    let labels = svg.filter { ($0.attributes["class"] ?? "").hasPrefix("place") }.map(\.text)
    #expect(labels.contains("Suva"), "\(labels)")
  }

  @Test(
    "No place is named on open sea: an island too small for the coastlines gets a dot of land",
    arguments: [(-3.85, -32.42, "Vila dos Remédios", false), (3.85, 154.95, "Nukuoro", true)])
  func isletsUnderNames(latitude: Double, longitude: Double, name: String, isIslet: Bool) throws {
    let viewport = MapViewport(
      centre: coordinate(latitude, longitude), regionSpan: 300_000, width: 400, height: 300)
    let picture = try Shared.renderer.picture(of: viewport)
    // Every place has land in its pixel or next to it (a coastal town may sit a pixel out at sea).
    for place in picture.places {
      let (x, y) = (Int(place.point.x), Int(place.point.y))
      let nearLand = (-1...1).contains { dy in (-1...1).contains { dx in picture.land[x + dx, y + dy] } }
      #expect(nearLand, "\(place.name) on open sea")
    }
    let named = try #require(picture.places.first { $0.name == name }, "\(picture.places.map(\.name))")
    // Fernando de Noronha is in the coastlines; Nukuoro's atoll is not, and gets a dot.
    #expect(picture.islets.contains(named.point) == isIslet, "\(name) on an islet: \(isIslet)")
    if isIslet {
      #expect(picture.land[Int(named.point.x), Int(named.point.y)])
      // In the SVG an islet is a small land circle under the place's dot.
      let svg = try Self.elements(try Self.document(coordinate(latitude, longitude), regionSpan: 300_000))
      #expect(svg.contains { $0.attributes["class"] == "islet" })
    }
  }

  @Test("The sea or lake at the centre is named, in the picture and in the SVG; land has no sea name")
  func seaNamed() throws {
    // Where the Tunnel starts (TunnelApp's `TunnelViewController.defaultStart`).
    let start = coordinate(56.55, 8.316667)
    let sea = try Shared.renderer.picture(
      of: MapViewport(centre: start.antipode, regionSpan: 1_000_000, width: 160, height: 80))
    #expect(sea.seaName == "South Pacific Ocean")
    let land = try Shared.renderer.picture(
      of: MapViewport(centre: coordinate(55.95, 8.5), regionSpan: 1_000_000, width: 160, height: 80))
    #expect(land.seaName == nil)
    let svg = try Self.elements(try Self.document(start))
    #expect(svg.filter { $0.attributes["class"] == "sea" }.map(\.text) == ["South Pacific Ocean"])
    // A lake at the centre is named too, by the high-resolution coastline whatever the scale drawn.
    for span in [1_000_000.0, 50_000] {
      let lake = try Shared.renderer.picture(
        of: MapViewport(centre: coordinate(47.7, -87.5), regionSpan: span, width: 160, height: 80))
      #expect(lake.seaName == "Lake Superior")
    }
  }

  @Test("The place a caption names is labelled even when larger places fill the map (Gao, Mali)")
  func captionPlaceLabelled() throws {
    // From Gao's antipode the far end is Gao: its map is crowded with larger towns of Mali, Niger and Burkina.
    let gao = coordinate(16.27, -0.04)
    let end = try Shared.reverseGeocoder.placemark(for: gao)
    #expect(end.locality == "Gao")
    let crowded = try Shared.renderer.picture(
      of: MapViewport(centre: gao, regionSpan: 3_000_000, width: 960, height: 400))
    #expect(!crowded.places.prefix(14).contains { $0.name == "Gao" }, "Gao is not among the largest in view")
    let svg = try Self.elements(try Self.document(gao.antipode, regionSpan: 3_000_000))
    let target = svg.filter { ($0.attributes["class"] ?? "").contains("featured") }.map(\.text)
    #expect(target.contains("Gao"), "\(target)")
  }

  @Test("Zoomed in past the low-resolution coastlines, maps are drawn from the high-resolution ones")
  func closeZoomDetail() throws {
    let low = Shared.mapData.coast(metresPerPixel: MapData.detailedMetresPerPixel)
    let high = Shared.mapData.coast(metresPerPixel: MapData.detailedMetresPerPixel / 2)
    #expect(high.drawing.rings.count > 5 * low.drawing.rings.count)
    // Ringkøbing Fjord's shores at 20 km across: many more shore pixels than the low resolution's chords.
    let close = MapViewport(centre: coordinate(56.0, 8.25), regionSpan: 20_000, width: 160, height: 80)
    let picture = try Shared.renderer.picture(of: close)
    #expect(close.metresPerPixel < MapData.detailedMetresPerPixel)
    #expect(picture.shorelines.map(\.count).reduce(0, +) > 200, "\(picture.shorelines.map(\.count))")
    #expect(picture.coast.bits.filter { $0 }.count > 150)
  }

  @Test(
    "Zoomed in where no place is in view, the map points to the nearest one: the geocoder's, its way and distance",
    arguments: [(-25.0, 133.0), (-56.55, -171.683333), (72.0, -40.0)])
  func nearestOutside(latitude: Double, longitude: Double) throws {
    let centre = coordinate(latitude, longitude)
    let picture = try Shared.renderer.picture(
      of: MapViewport(centre: centre, regionSpan: 20_000, width: 120, height: 60))
    #expect(picture.places.isEmpty)
    let pointer = try #require(picture.nearestOutside)
    let nearest = try Shared.reverseGeocoder.placemark(for: centre, fields: .nearestPlace).nearestPlace
    #expect(pointer.name == nearest.name)
    #expect(abs(pointer.distanceKm - nearest.distanceKm) < 0.005 * nearest.distanceKm + 0.1)
    let way = try Geodesic.inverse(
      from: centre, to: try Coordinate(latitude: nearest.latitude, longitude: nearest.longitude))
    let bearing = (way.initialAzimuth + 360).truncatingRemainder(dividingBy: 360)
    let difference = abs(bearing - pointer.bearing)
    #expect(min(difference, 360 - difference) < 1, "\(bearing) against \(pointer.bearing)")
  }
}
