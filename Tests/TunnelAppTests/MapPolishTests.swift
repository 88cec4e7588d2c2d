import Foundation
import Testing
import TunnelGeo

@testable import TunnelApp

#if canImport(FoundationXML)
import FoundationXML
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
    _ start: Coordinate, regionSpan: Double = MapViewController.defaultRegionSpan
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

  @Test("Captions read once each: no region repeating the town, no two brackets, offsets from UTC")
  func captions() throws {
    #expect(PlaceText.regionName("Madrid, Comunidad de") == "Comunidad de Madrid")
    #expect(PlaceText.regionName("Valenciana, Comunitat") == "Comunitat Valenciana")
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
    let pole = try Self.elements(try Self.document(coordinate(88, 30)))
    let poles = pole.filter { $0.attributes["class"] == "pole" }
    #expect(poles.map(\.text).sorted() == ["North Pole", "South Pole"])
  }
}
