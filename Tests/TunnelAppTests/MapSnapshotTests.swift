import Foundation
import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo
import TunnelMaps

/// Text pictures of maps at fixed places, compared with the files in `Snapshots/`.
///
/// After a deliberate change to the drawing, run the suite with `TUNNEL_UPDATE_SNAPSHOTS=1` to
/// write the files anew, and read the diff before committing it.
@MainActor
@Suite("Map snapshots")
struct MapSnapshotTests {
  /// One map controller alone in a window, drawn as plain text.
  func render(_ annotation: MapAnnotation, at location: Coordinate, span: Double, charset: Charset) -> String
  {
    let map = MapViewController(annotation: annotation, location: location, renderer: Shared.renderer)
    map.regionSpan = span
    let window = Window(size: Size(width: 72, height: 18))
    window.charset = charset
    window.rootViewController = map
    window.makeKeyAndVisible()
    return window.render().plainText(charset: charset) + "\n"
  }

  func check(_ name: String, _ text: String) throws {
    if ProcessInfo.processInfo.environment["TUNNEL_UPDATE_SNAPSHOTS"] == "1" {
      let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots")
      try text.write(to: folder.appendingPathComponent(name + ".txt"), atomically: true, encoding: .utf8)
      return
    }
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Snapshots"),
      "Snapshots/\(name).txt is missing; run with TUNNEL_UPDATE_SNAPSHOTS=1 to write it")
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "Snapshots/\(name).txt differs:\n\(text)")
  }

  @Test("Western Denmark, where the original starts")
  func denmark() throws {
    let text = render(.digger, at: TunnelViewController.defaultStart, span: 1_000_000, charset: .unicode)
    #expect(text.contains("☻") && text.contains("Copenhagen"))
    try check("denmark", text)
  }

  @Test("Western Denmark in plain ASCII")
  func denmarkInASCII() throws {
    let text = render(.digger, at: TunnelViewController.defaultStart, span: 1_000_000, charset: .ascii)
    #expect(text.allSatisfy { $0.isASCII })
    #expect(text.contains("@") && text.contains("*Copenhagen"))
    try check("denmark-ascii", text)
  }

  @Test("The North Pole, 4,000 km across")
  func northPole() throws {
    let text = render(.target, at: coordinate(90, 0), span: 4_000_000, charset: .unicode)
    #expect(text.contains("✖"))
    try check("north-pole", text)
  }

  @Test("The far end of 'tunnel map 88 30': Antarctica round the South Pole, 1,000 km across, no seam drawn")
  func southPole() throws {
    let text = render(.target, at: coordinate(88, 30).antipode, span: 1_000_000, charset: .unicode)
    #expect(text.contains("✖"))
    // Land all round: the seams along 180° and at the pole are neither shore nor border, so every cell of
    // dots is full (the rest are the marker and the pointer to the nearest place).
    let dots = text.unicodeScalars.filter { (0x2800...0x28FF).contains($0.value) }
    #expect(dots.count > 1_000 && dots.allSatisfy { $0 == "⣿" }, "\(text)")
    try check("south-pole", text)
  }

  @Test("Fiji, on the antimeridian")
  func antimeridian() throws {
    let text = render(.digger, at: coordinate(-17.0, 180), span: 1_000_000, charset: .unicode)
    #expect(text.contains("Suva") || text.contains("Lautoka") || text.contains("Nadi"))
    try check("fiji-antimeridian", text)
  }

  @Test("A lake country: Finland's lakes as water, 500 km across")
  func lakeCountry() throws {
    let text = render(.digger, at: coordinate(62.6, 27.0), span: 500_000, charset: .unicode)
    #expect(text.contains("☻") && text.contains("Kuopio"))
    try check("finland-lakes", text)
  }

  @Test("An island capital: Suva labelled before the larger Nasinu, 100 km across")
  func islandCapital() throws {
    let text = render(.digger, at: coordinate(-18.0, 178.3), span: 100_000, charset: .unicode)
    #expect(text.contains("Suva"))
    try check("suva", text)
  }

  @Test("At sea the map says which sea, under the marker")
  func seaNamed() throws {
    let text = render(
      .target, at: TunnelViewController.defaultStart.antipode, span: 1_000_000, charset: .unicode)
    #expect(text.contains("South Pacific Ocean"))
    try check("south-pacific", text)
  }
}
