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

  @Test(
    "The antipodal world: land, the other side's land turned onto it twice, pairs labelled apart, both ends")
  func antipodalWorld() throws {
    let pairs = try Shared.reverseGeocoder.antipodalPairs(withinKm: 100, minimumPopulation: 100_000)
    let madrid = coordinate(40.4168, -3.7038)
    let document = AntipodalWorld(data: Shared.mapData, pairs: pairs, tunnel: madrid, width: 1440).document()
    let parser = XMLParser(data: Data(document.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let elements = collector.elements
    #expect(elements.first?.attributes["viewBox"] == "0 0 1440 778")
    // Moved half round (720 units either way) and mirrored about the world's height (720).
    let turned = elements.filter { $0.attributes["class"] == "antipodal-land" }.compactMap {
      $0.attributes["transform"]
    }
    #expect(turned.sorted() == ["matrix(1 0 0 -1 -720 720)", "matrix(1 0 0 -1 720 720)"])
    #expect(
      elements.contains { $0.attributes["class"] == "land" && ($0.attributes["d"]?.count ?? 0) > 100_000 })
    // Labels: some, at most the limit, each naming a pair and none over another.
    let labels = elements.filter { $0.name == "text" && $0.text.contains(" ↔ ") }
    #expect(labels.count > 10 && labels.count <= AntipodalWorld.maximumLabels)
    let named = Set(pairs.map { "\($0.first.name) ↔ \($0.second.name)" })
    #expect(labels.allSatisfy { named.contains($0.text) })
    // The most populous pair by its smaller place is labelled first, so always.
    let top = pairs.max {
      min($0.first.population, $0.second.population) < min($1.first.population, $1.second.population)
    }!
    #expect(labels.contains { $0.text == "\(top.first.name) ↔ \(top.second.name)" })
    let boxes = labels.map { label -> (Double, Double, Double, Double) in
      let x = Double(label.attributes["x"] ?? "") ?? 0
      let y = Double(label.attributes["y"] ?? "") ?? 0
      let width = Double(label.text.count) * 11 * 0.6
      let left = label.attributes["text-anchor"] == "end" ? x - width : x
      return (left, y - 11, left + width, y)
    }
    for (i, a) in boxes.enumerated() {
      for b in boxes[(i + 1)...] {
        #expect(!(a.0 < b.2 && a.2 > b.0 && a.1 < b.3 && a.3 > b.1), "labels overlap: \(a), \(b)")
      }
    }
    // Madrid at ((−3.70 + 180) × 4, (90 − 40.42) × 4); the X at its antipode in New Zealand.
    #expect(
      elements.contains {
        $0.name == "circle" && $0.attributes["cx"] == "705.2" && $0.attributes["cy"] == "198.3"
      })
    #expect(elements.contains { $0.name == "path" && $0.attributes["stroke"] == "#d62828" })
  }

  @Test("Names are escaped for XML")
  func escaping() {
    #expect(
      SVGMap.escaped("Bosnia & <Herz> \"x\" 'y'\u{1}")
        == "Bosnia &amp; &lt;Herz&gt; &quot;x&quot; &apos;y&apos;")
  }
}
