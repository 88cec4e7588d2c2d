import Testing

@testable import TunnelGeo

@Suite struct MapLinkTests {
  /// Links as the sites produce them, with the place each points at.
  static let readable: [(String, MapLinkTarget)] = [
    // Google Maps
    ("https://www.google.com/maps/@56.55,8.32,12z", .coordinate(latitude: 56.55, longitude: 8.32)),
    (
      "https://www.google.com/maps/@56.0876623,8.2442417,3a,75y,90t/data=!3m6!1e1!3m4!1sAF1QipNx7Yw!2e10!7i13312"
        + "!8i6656?entry=ttu",
      .coordinate(latitude: 56.0876623, longitude: 8.2442417)
    ),
    (
      "https://www.google.com/maps/@56.0876623,8.2442417,1234m/data=!3m1!1e3?entry=ttu",
      .coordinate(latitude: 56.0876623, longitude: 8.2442417)
    ),
    ("https://www.google.com/maps?q=56.55,8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    ("https://maps.google.com/?q=56.55,8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    ("  http://maps.google.com/maps?q=loc:56.55,8.32  ", .coordinate(latitude: 56.55, longitude: 8.32)),
    (
      "https://www.google.com/maps/place/Skjern/@55.9512,8.4868,13z/data=!3m1!4b1!4m6!3m5!1s0x464b7f2b1d3c0a6b:"
        + "0xa00afcc1d506690!8m2!3d55.9500356!4d8.4957424!16zL20vMDd5c3pq?entry=ttu",
      .coordinate(latitude: 55.9500356, longitude: 8.4957424)
    ),
    (
      "https://www.google.com/maps/place/Skjern/@55.9512,8.4868,13z",
      .coordinate(latitude: 55.9512, longitude: 8.4868)
    ),
    (
      "https://www.google.com/maps/search/56.55,+8.32?entry=tts",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    (
      "https://www.google.com/maps/place/56%C2%B033'00.0%22N+8%C2%B019'00.0%22E/@56.5501,8.3167,17z/data=!3m1!4b1"
        + "!4m4!3m3!8m2!3d56.55!4d8.3166667?entry=ttu",
      .coordinate(latitude: 56.55, longitude: 8.3166667)
    ),
    (
      "https://www.google.com/maps/place/56%C2%B033'00.0%22N+8%C2%B019'00.0%22E/@56.5501,8.3167,17z",
      .coordinate(latitude: 56.5501, longitude: 8.3167)
    ),
    ("google.de/maps/@-33.9249,18.4241,14z", .coordinate(latitude: -33.9249, longitude: 18.4241)),
    (
      "https://www.google.co.uk/maps?ll=51.5007,-0.1246&z=15",
      .coordinate(latitude: 51.5007, longitude: -0.1246)
    ),
    (
      "https://www.google.com/maps/@?api=1&map_action=map&center=56.55,8.32&zoom=12",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    (
      "https://www.google.com/maps/search/?api=1&query=56.55%2C8.32",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    ("https://www.google.com/maps?q=Skjern", .name("Skjern")),
    ("https://www.google.com/maps/place/Skjern,+Denmark/", .name("Skjern, Denmark")),
    ("https://www.google.dk/maps/place/K%C3%B8benhavn/", .name("København")),
    ("www.google.com/maps/search/?api=1&query=Ringk%C3%B8bing+Fjord", .name("Ringkøbing Fjord")),
    // OpenStreetMap
    ("https://www.openstreetmap.org/#map=12/56.55/8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    (
      "https://www.openstreetmap.org/?mlat=56.5500&mlon=8.3200#map=12/56.4000/8.1000",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    (
      "openstreetmap.org/#map=15/-33.92490/18.42410&layers=C",
      .coordinate(latitude: -33.9249, longitude: 18.4241)
    ),
    (
      "https://www.openstreetmap.org/search?lat=56.55&lon=8.32#map=16/56.5500/8.3200",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    ("https://www.openstreetmap.org/search?query=Skjern", .name("Skjern")),
    ("https://osm.org/#map=12/56.55/8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    // Apple Maps
    ("https://maps.apple.com/?ll=56.55,8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    (
      "https://maps.apple.com/?q=Skjern&ll=55.9500,8.4957&spn=0.05,0.08&t=m",
      .coordinate(latitude: 55.95, longitude: 8.4957)
    ),
    (
      "https://maps.apple.com/?address=Bredgade%201,%206900%20Skjern,%20Denmark&auid=123456&ll=55.9500,8.4957"
        + "&lsp=9902&q=Bredgade%201",
      .coordinate(latitude: 55.95, longitude: 8.4957)
    ),
    (
      "https://maps.apple.com/place?coordinate=56.55,8.32&name=Marked%20Location",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    ("https://maps.apple.com/?q=56.55,8.32", .coordinate(latitude: 56.55, longitude: 8.32)),
    ("https://maps.apple.com/?sll=56.0,8.5&z=10&t=m", .coordinate(latitude: 56.0, longitude: 8.5)),
    ("https://maps.apple.com/?q=Skjern&sll=56.0,8.5", .name("Skjern")),
    ("https://maps.apple.com/?address=Bredgade+1,+6900+Skjern", .name("Bredgade 1, 6900 Skjern")),
    // Bing Maps
    ("https://www.bing.com/maps?cp=56.55~8.32&lvl=12", .coordinate(latitude: 56.55, longitude: 8.32)),
    (
      "https://www.bing.com/maps?cp=56.55%7E8.32&lvl=12.0&style=r",
      .coordinate(latitude: 56.55, longitude: 8.32)
    ),
    ("https://www.bing.com/maps?where1=Skjern%2C%20Denmark", .name("Skjern, Denmark")),
    (
      "https://www.bing.com/maps?q=Skjern&cp=55.95~8.49&lvl=12", .coordinate(latitude: 55.95, longitude: 8.49)
    ),
    // geo: URIs with a query
    ("geo:56.55,8.32?z=12", .coordinate(latitude: 56.55, longitude: 8.32)),
    ("geo:0,0?q=56.55,8.32(Skjern+Station)", .coordinate(latitude: 56.55, longitude: 8.32)),
    ("geo:0,0?q=Skjern", .name("Skjern")),
    ("GEO:56.55,8.32?q=Skjern", .coordinate(latitude: 56.55, longitude: 8.32)),
  ]

  /// Map links that cannot be read offline, with a part of the sentence each gives.
  static let refused: [(String, String)] = [
    ("https://maps.app.goo.gl/3XbGq5tXjR8ZpJ9h8", "is a short link; Tunnel works offline"),
    ("https://goo.gl/maps/AbCdEfGhIjK12", "copy the full address from the address bar"),
    ("https://maps.apple/p/xYz1AbCdEf.1", "is a short link"),
    ("https://osm.org/go/0EFlvBa--", "OpenStreetMap short link"),
    ("https://www.openstreetmap.org/node/123456789", "needs OpenStreetMap's service"),
    ("https://www.openstreetmap.org/way/23456789#map=17/56.55/8.32", "OpenStreetMap way"),
    ("https://www.openstreetmap.org/relation/3456789", "needs OpenStreetMap's service"),
    (
      "https://www.google.com/maps/dir/Skjern/Ringk%C3%B8bing/@56.0,8.3,11z",
      "a directions link has several places; copy the link of one place"
    ),
    ("https://www.google.com/maps/dir/?api=1&destination=56.55,8.32", "a directions link has several places"),
    ("https://maps.apple.com/?saddr=Skjern&daddr=Ringk%C3%B8bing", "a directions link has several places"),
    ("https://www.bing.com/maps?rtp=adr.Skjern~adr.Ringk%C3%B8bing", "a directions link has several places"),
    (
      "https://www.openstreetmap.org/directions?engine=fossgis_osrm_car&route=56.0%2C8.5%3B56.1%2C8.2",
      "a directions link"
    ),
    ("///filled.count.soap", "what3words addresses need their service (what3words.com)"),
    ("filled.count.soap", "paste the coordinates it shows instead"),
    ("https://what3words.com/filled.count.soap", "what3words addresses need their service"),
    ("https://www.google.com/maps/@56.55,abc,12z", "the part '@56.55,abc,12z' should hold a latitude"),
    ("https://www.google.com/maps/@56.55,1e400,12z", "the part '@56.55,1e400,12z'"),
    (
      "https://www.google.com/maps/place/Skjern/data=!4m2!3m1!8m2!3dabc!4d8.5",
      "the part '!3dabc!4d8.5'"
    ),
    ("https://www.openstreetmap.org/#map=12/56.55", "the part 'map=12/56.55'"),
    ("https://www.openstreetmap.org/?mlat=56.55", "the part 'mlat=56.55'"),
    ("https://www.bing.com/maps?cp=56.55&lvl=12", "the part 'cp=56.55'"),
    ("https://maps.apple.com/?ll=56.55,north", "the part 'll=56.55,north'"),
    ("geo:north,east?z=3", "the part 'geo:north,east'"),
    ("https://maps.apple.com/place?place-id=I6E0F0C8A2B1D3E4&_provider=9902", "needs Apple Maps' service"),
    ("https://www.google.com/maps", "is a Google Maps link with no place in it"),
  ]

  /// Text that is not a map link at all.
  static let ignored: [String] = [
    "Skjern",
    "56 8.5",
    "geo:56,8.5",
    "",
    "   ",
    "56°33′N 8°19′E",
    "www.google.com",
    "https://www.google.com/search?q=skjern",
    "https://example.com/maps/@56,8,12z",
    "https://en.wikipedia.org/wiki/Skjern",
    "https://goo.gl/abc",
    "ftp://maps.google.com/?q=56,8",
    "Filled.Count.Soap",
  ]

  @Test(arguments: readable)
  func reads(link: String, expected: MapLinkTarget) throws {
    #expect(try MapLink.target(of: link) == expected, "\(link)")
  }

  @Test(arguments: refused)
  func refuses(link: String, reason: String) {
    let error = #expect(throws: UnreadableLink.self, "\(link)") {
      try MapLink.target(of: link)
    }
    #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
  }

  @Test(arguments: ignored)
  func ignores(text: String) throws {
    #expect(try MapLink.target(of: text) == nil, "\(text)")
  }

  @Test func quotesTheLinkSafely() {
    let error = #expect(throws: UnreadableLink.self) {
      try MapLink.target(of: "https://maps.app.goo.gl/abc\u{1B}[31m")
    }
    #expect(error?.reason.hasPrefix("'https://maps.app.goo.gl/abc\\u{1B}[31m' is a short link") == true)
  }
}
