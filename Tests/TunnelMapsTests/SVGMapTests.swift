import Foundation
import Testing
import TunnelGeo

@testable import TunnelMaps

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the elements of an XML document with their attributes and the text inside them.
final class ElementCollector: NSObject, XMLParserDelegate {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""
  }

  var elements: [Element] = []
  private var open: [Int] = []

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String]
  ) {
    open.append(elements.count)
    elements.append(Element(name: name, attributes: attributes))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    for index in open { elements[index].text += string }
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
  {
    open.removeLast()
  }
}

@MainActor
@Suite("SVG maps")
struct SVGMapTests {
  @Test("Parses as XML: both maps, both markers, land, shores, labels and a caption for each end")
  func parsesWithBothMarkers() throws {
    // Where the Tunnel starts (TunnelApp's `TunnelViewController.defaultStart`).
    let start = coordinate(56.55, 8.316667)
    let placemarks = (
      try Shared.reverseGeocoder.placemark(for: start),
      try Shared.reverseGeocoder.placemark(for: start.antipode)
    )
    let document = try SVGMap(renderer: Shared.renderer, start: start, placemarks: placemarks).document()
    let parser = XMLParser(data: Data(document.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let elements = collector.elements
    #expect(elements.first?.name == "svg")
    #expect(elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    func classes(_ element: ElementCollector.Element) -> Set<Substring> {
      Set((element.attributes["class"] ?? "").split(separator: " "))
    }
    #expect(elements.filter { classes($0).isSuperset(of: ["marker", "digger"]) }.count == 1)
    #expect(elements.filter { classes($0).isSuperset(of: ["marker", "target"]) }.count == 1)
    #expect(elements.filter { classes($0).contains("map") }.count == 2)
    let land = elements.filter { classes($0).contains("land") }
    #expect(land.count == 2 && (land.first?.attributes["d"]?.count ?? 0) > 1_000)
    #expect(elements.contains { $0.name == "g" && classes($0).contains("place") && $0.text == "Copenhagen" })
    let captions = elements.filter { classes($0).contains("caption") }.map(\.text)
    #expect(captions.count == 2)
    #expect(captions.first?.contains("Where you dig: Lemvig, Midtjylland, Denmark") == true)
    #expect(captions.last?.contains("Where you come out: South Pacific Ocean") == true)
    #expect(elements.contains { $0.name == "title" && $0.text.hasPrefix("Tunnel: Lemvig") })
  }

  @Test("Names are escaped for XML")
  func escaping() {
    #expect(
      SVGMap.escaped("Bosnia & <Herz> \"x\" 'y'\u{1}")
        == "Bosnia &amp; &lt;Herz&gt; &quot;x&quot; &apos;y&apos;")
  }
}
