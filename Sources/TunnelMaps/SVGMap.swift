import TunnelGeo
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Both ends of the tunnel as one SVG picture: the two maps one above the other, each with the sea,
/// the land, shorelines, borders, the largest places and its marker, and under each a caption that
/// names that end; a last line gives the tunnel's length.
///
/// The maps are the same as the terminal's (same projection, scale and data), drawn at one pixel
/// per SVG unit. The document is plain SVG 1.1 that browsers and vector editors open.
///
///     let svg = try SVGMap(renderer: renderer, start: skjern, placemarks: (here, there)).document()
public struct SVGMap {
  /// The renderer that draws both maps.
  public let renderer: MapRenderer
  /// Where the tunnel starts; it ends at the antipode.
  public let start: Coordinate
  /// Metres across the shorter side of each map.
  public let regionSpan: Double
  /// The placemarks of the start and of the end, for the captions.
  public let placemarks: (start: Placemark, end: Placemark)
  /// The picture's width, and each map's height, in SVG units.
  public let width: Int
  public let mapHeight: Int

  /// Describes the picture; nothing is drawn until ``document()``.
  public init(
    renderer: MapRenderer, start: Coordinate, regionSpan: Double = MapViewport.defaultRegionSpan,
    placemarks: (start: Placemark, end: Placemark), width: Int = 960, mapHeight: Int = 400
  ) {
    self.renderer = renderer
    self.start = start
    self.regionSpan = regionSpan
    self.placemarks = placemarks
    self.width = width
    self.mapHeight = mapHeight
  }

  static let captionHeight = 46
  static let footerHeight = 30

  /// The SVG document.
  ///
  /// - Throws: `ProjectionError` if PROJ refuses a projection.
  public func document() throws(ProjectionError) -> String {
    let band = mapHeight + Self.captionHeight
    let height = 2 * band + Self.footerHeight
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
      <title>\(Self.escaped(title))</title>
      <rect width="\(width)" height="\(height)" fill="#10202c"/>

      """
    let ends: [(MapAnnotation, Coordinate, Placemark)] = [
      (.digger, start, placemarks.start), (.target, start.antipode, placemarks.end),
    ]
    for (index, (annotation, coordinate, placemark)) in ends.enumerated() {
      let top = index * band
      let viewport = MapViewport(centre: coordinate, regionSpan: regionSpan, width: width, height: mapHeight)
      let picture = try renderer.picture(of: viewport)
      svg +=
        "<svg x=\"0\" y=\"\(top)\" width=\"\(width)\" height=\"\(mapHeight)\" class=\"map \(annotation.rawValue)\">\n"
      svg += map(picture, annotation: annotation, placemark: placemark)
      svg += "</svg>\n"
      let captionY = top + mapHeight
      svg += """
        <g class="caption \(annotation.rawValue)">
        <text x="14" y="\(captionY + 19)" font-size="14" fill="#f4f1e8"><tspan font-weight="bold">\
        \(Self.escaped(annotation.heading)):</tspan> \(Self.escaped(PlacemarkText.headline(placemark)))</text>
        <text x="14" y="\(captionY + 37)" font-size="12" fill="#aab8c2">\
        \(Self.escaped(coordinate.formatted(.dms(secondsPlaces: 0)))) · \(Self.escaped(PlaceText.timeZone(placemark.timeZone.identifier)))</text>
        </g>

        """
    }
    let through = Geodesic.chordLength(from: start, to: start.antipode) / 1000
    let around = try Geodesic.distance(from: start, to: start.antipode) / 1000
    svg += """
      <text x="14" y="\(2 * band + 20)" font-size="12" fill="#aab8c2">Straight through the Earth: \
      \(PlaceText.grouped(Int(through.rounded()))) km · along the surface: \
      \(PlaceText.grouped(Int(around.rounded()))) km</text>
      </svg>

      """
    return svg
  }

  /// One end's map alone, ``width`` × ``mapHeight``, with its marker at the middle and no caption: what a
  /// page shows in place of its tiles beyond Web Mercator's edge, where these maps still reach.
  ///
  /// - Throws: `ProjectionError` if PROJ refuses a projection.
  public func document(of end: MapAnnotation) throws(ProjectionError) -> String {
    let (coordinate, placemark) =
      end == .digger ? (start, placemarks.start) : (start.antipode, placemarks.end)
    let viewport = MapViewport(centre: coordinate, regionSpan: regionSpan, width: width, height: mapHeight)
    let picture = try renderer.picture(of: viewport)
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width)" height="\(mapHeight)" \
      viewBox="0 0 \(width) \(mapHeight)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" \
      class="map \(end.rawValue)">
      <title>\(Self.escaped(end.heading)): \(Self.escaped(PlacemarkText.headline(placemark)))</title>
      \(map(picture, annotation: end, placemark: placemark))</svg>

      """
  }

  private var title: String {
    "Tunnel: \(PlacemarkText.headline(placemarks.start)) to \(PlacemarkText.headline(placemarks.end))"
  }

  /// One map's elements, in the map's own units.
  private func map(_ picture: MapPicture, annotation: MapAnnotation, placemark: Placemark) -> String {
    var out = "<rect width=\"\(width)\" height=\"\(mapHeight)\" fill=\"#1d4e6b\"/>\n"
    // Land, one run of pixels at a time.
    var land = ""
    for y in 0..<picture.land.height {
      var x = 0
      while x < picture.land.width {
        guard picture.land[x, y] else {
          x += 1
          continue
        }
        let start = x
        while x < picture.land.width, picture.land[x, y] { x += 1 }
        land += "M\(start) \(y)h\(x - start)v1h-\(x - start)z"
      }
    }
    out += "<path class=\"land\" d=\"\(land)\" fill=\"#4f7d3a\" shape-rendering=\"crispEdges\"/>\n"
    // Shores of lakes and islets too small or too thin for their fill to show would only draw scratches.
    let shores = picture.shorelines.filter(Self.isReadableShore)
    out += polylines(shores, stroke: "#c8d9a8", width: 0.8, keep: { _ in true })
    out += polylines(picture.borderLines, stroke: "#2d3b22", width: 1, dashes: "4 3") { point in
      // Only the stretches of border drawn inland on the terminal map too.
      let x = Int(point.x)
      let y = Int(point.y)
      return (-1...1).contains { dy in (-1...1).contains { dx in picture.borders[x + dx, y + dy] } }
    }
    // Places on islands too small for the coastlines: a dot of land under the place's own.
    for point in picture.islets {
      out += """
        <circle class="islet" cx="\(Self.number(point.x))" cy="\(Self.number(point.y))" r="4" fill="#4f7d3a" \
        stroke="#c8d9a8" stroke-width="0.8"/>

        """
    }
    out += overlay(picture.viewport)
    if let seaName = picture.seaName {
      out += """
        <text class="sea" x="\(Self.number(picture.viewport.centreX))" \
        y="\(Self.number(picture.viewport.centreY + 48))" font-size="13" font-style="italic" \
        letter-spacing="2" fill="#9cc3dc" text-anchor="middle">\(Self.escaped(seaName))</text>

        """
    }
    out += labels(picture, featuring: featuredPlace(placemark, in: picture))
    out += marker(annotation, at: MapPoint(x: picture.viewport.centreX, y: picture.viewport.centreY))
    return out
  }

  /// Whether a shoreline is worth a stroke: a dozen pixels across at least and, when it is a whole ring
  /// (a lake or an island in view), on average at least two pixels wide, so that the water or land it
  /// bounds shows in the fill beside it. A ring's mean width is twice its area over its perimeter (a
  /// strip w wide has w, a disc of radius r has r); a long thin lake's shore is a scratch on the land.
  static func isReadableShore(_ line: [MapPoint]) -> Bool {
    let xs = line.map(\.x)
    let ys = line.map(\.y)
    guard max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) >= 12 else { return false }
    let first = line[0]
    let last = line[line.count - 1]
    guard abs(first.x - last.x) <= 1, abs(first.y - last.y) <= 1 else { return true }
    var twiceArea = 0.0
    var perimeter = 0.0
    for index in line.indices {
      let a = line[index]
      let b = line[(index + 1) % line.count]
      twiceArea += a.x * b.y - b.x * a.y
      perimeter += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
    return perimeter > 0 && abs(twiceArea) / perimeter >= 2
  }

  /// The polylines' segments that are in view and pass `keep` at their middle, as one path.
  private func polylines(
    _ lines: [[MapPoint]], stroke: String, width lineWidth: Double, dashes: String? = nil,
    keep: (MapPoint) -> Bool
  ) -> String {
    var path = ""
    let w = Double(width)
    let h = Double(mapHeight)
    for line in lines {
      var open = false
      for index in 1..<line.count {
        let a = line[index - 1]
        let b = line[index]
        let middle = MapPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        let inView =
          max(a.x, b.x) >= -2 && min(a.x, b.x) <= w + 2 && max(a.y, b.y) >= -2 && min(a.y, b.y) <= h + 2
        guard inView, keep(middle) else {
          open = false
          continue
        }
        if !open { path += "M\(Self.number(a.x)) \(Self.number(a.y))" }
        path += "L\(Self.number(b.x)) \(Self.number(b.y))"
        open = true
      }
    }
    guard !path.isEmpty else { return "" }
    let dash = dashes.map { " stroke-dasharray=\"\($0)\"" } ?? ""
    return
      "<path d=\"\(path)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(lineWidth)\"\(dash) stroke-linejoin=\"round\"/>\n"
  }

  /// The light graticule, a mark at a pole in view, and a scale bar in the lower left corner: the map is
  /// azimuthal equidistant, so the bar holds for distances from the centre.
  private func overlay(_ viewport: MapViewport) -> String {
    var out = ""
    if let graticule = try? renderer.graticule(of: viewport) {
      let path = graticule.lines.map { line in
        "M" + line.map { "\(Self.number($0.x)) \(Self.number($0.y))" }.joined(separator: "L")
      }.joined()
      if !path.isEmpty {
        out +=
          "<path class=\"graticule\" d=\"\(path)\" fill=\"none\" stroke=\"#ffffff\" stroke-opacity=\"0.18\" "
          + "stroke-width=\"0.6\"/>\n"
      }
      for (north, point) in graticule.poles {
        let (x, y) = (Self.number(point.x), Self.number(point.y))
        out += """
          <g class="pole"><circle cx="\(x)" cy="\(y)" r="3" fill="none" stroke="#f4f1e8" stroke-width="1.2"/>\
          <text x="\(x)" y="\(Self.number(point.y - 7))" font-size="11" fill="#f4f1e8" text-anchor="middle" \
          stroke="#10202c" stroke-width="3" paint-order="stroke">\(north ? "North Pole" : "South Pole")</text></g>

          """
      }
    }
    // The longest round distance (1, 2 or 5 times a power of ten) that fits in a fifth of the width.
    let room = Double(width) / 5 * viewport.metresPerPixel / 1000
    var kilometres = pow(10, (log10(room)).rounded(.down))
    for factor in [5.0, 2] where kilometres * factor <= room {
      kilometres *= factor
      break
    }
    let length = kilometres * 1000 / viewport.metresPerPixel
    let (x, y) = (14.0, Double(mapHeight) - 14)
    out += """
      <g class="scale"><path d="M\(Self.number(x)) \(Self.number(y - 4))v4h\(Self.number(length))v-4" fill="none" \
      stroke="#f4f1e8" stroke-width="1.5"/><text x="\(Self.number(x + length + 6))" y="\(Self.number(y))" \
      font-size="11" fill="#f4f1e8" stroke="#10202c" stroke-width="3" paint-order="stroke">\
      \(kilometres >= 1 ? "\(PlaceText.grouped(Int(kilometres))) km" : "\(Int(kilometres * 1000)) m")</text></g>

      """
    return out
  }

  /// The lower left corner the scale bar and its text may take (the bar is at most a fifth of the width):
  /// labels keep out of it.
  static func scaleBarBox(width: Int, mapHeight: Int) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
    (0, Double(mapHeight) - 28, Double(width) / 5 + 80, Double(mapHeight))
  }

  /// The place a caption names, where the map shows it: on land the town the end is in, at sea the land
  /// its distance is measured to. Nil when the caption names neither or it lies outside the map.
  private func featuredPlace(_ placemark: Placemark, in picture: MapPicture) -> MapPlace? {
    let named: (name: String, latitude: Double, longitude: Double)
    if let locality = placemark.locality {
      named = (locality, placemark.nearestPlace.latitude, placemark.nearestPlace.longitude)
    } else if !placemark.land, let land = placemark.nearestLand, let name = land.name {
      named = (name, land.latitude, land.longitude)
    } else {
      return nil
    }
    guard let coordinate = try? Coordinate(latitude: named.latitude, longitude: named.longitude),
      let point = renderer.point(of: coordinate, in: picture.viewport),
      point.x >= 0, point.y >= 0, point.x < Double(width), point.y < Double(mapHeight)
    else { return nil }
    return MapPlace(name: named.name, asciiName: named.name, population: 0, point: point)
  }

  /// The largest places in view, each label clear of the others and of the marker; the place the caption
  /// names (`featured`) first, even when it is not among the largest, its name beside the marker when it
  /// lies under it.
  private func labels(_ picture: MapPicture, featuring featured: MapPlace?) -> String {
    let fontSize = 13.0
    let (centreX, centreY) = (picture.viewport.centreX, picture.viewport.centreY)
    var taken: [(x0: Double, y0: Double, x1: Double, y1: Double)] = [
      (centreX - 18, centreY - 22, centreX + 18, centreY + 22),
      Self.scaleBarBox(width: width, mapHeight: mapHeight),
    ]
    if let seaName = picture.seaName {
      let half = Double(seaName.count) * (fontSize * 0.6 + 2) / 2
      taken.append((centreX - half, centreY + 48 - fontSize, centreX + half, centreY + 52))
    }
    var out = ""
    var placed = 0
    // The featured place once: the picture's own entry for it gives way.
    var places = picture.places.filter { place in
      guard let featured else { return true }
      return place.name != featured.name
        || abs(place.point.x - featured.point.x) + abs(place.point.y - featured.point.y) > 4
    }
    if let place = featured {
      if abs(place.point.x - centreX) < 18 && abs(place.point.y - centreY) < 22 {
        // Under the marker: the name goes to its right, without a dot of its own.
        let x = centreX + 20
        out += """
          <g class="place featured"><text x="\(Self.number(x))" y="\(Self.number(centreY + 4))" \
          font-size="\(Int(fontSize))" font-weight="bold" fill="#f4f1e8" text-anchor="start" stroke="#10202c" \
          stroke-width="3" paint-order="stroke">\(Self.escaped(place.name))</text></g>

          """
        taken.append((x - 2, centreY - fontSize, x + Double(place.name.count) * fontSize * 0.6, centreY + 4))
        placed += 1
      } else {
        places.insert(place, at: 0)
      }
    }
    for place in places where placed < 14 {
      let textWidth = Double(place.name.count) * fontSize * 0.6
      let x = place.point.x
      let y = place.point.y
      let rightward = x + 6 + textWidth < Double(width)
      let box =
        rightward
        ? (x0: x - 3, y0: y - fontSize, x1: x + 6 + textWidth, y1: y + 4)
        : (x0: x - 6 - textWidth, y0: y - fontSize, x1: x + 3, y1: y + 4)
      guard box.x0 >= 0, box.y0 >= 0, box.y1 <= Double(mapHeight),
        !taken.contains(where: {
          $0.x0 < box.x1 + 4 && box.x0 < $0.x1 + 4 && $0.y0 < box.y1 && box.y0 < $0.y1
        })
      else { continue }
      taken.append(box)
      placed += 1
      let anchor = rightward ? "start" : "end"
      let textX = rightward ? x + 6 : x - 6
      out += """
        <g class="place"><circle cx="\(Self.number(x))" cy="\(Self.number(y))" r="2.5" fill="#f4f1e8"/>\
        <text x="\(Self.number(textX))" y="\(Self.number(y + 4))" font-size="\(Int(fontSize))" fill="#f4f1e8" \
        text-anchor="\(anchor)" stroke="#10202c" stroke-width="3" paint-order="stroke">\(Self.escaped(place.name))</text></g>

        """
    }
    return out
  }

  /// The digger (a figure with a shovel) or the red X, centred on `point`.
  private func marker(_ annotation: MapAnnotation, at point: MapPoint) -> String {
    let x = Self.number(point.x)
    let y = Self.number(point.y)
    switch annotation {
    case .digger:
      return """
        <g class="marker digger" transform="translate(\(x) \(y))" stroke="#1b1b1b" stroke-width="1.2">\
        <circle cx="0" cy="-13" r="4.5" fill="#ffd23f"/>\
        <path d="M0 -8 L0 4 M0 4 L-5 14 M0 4 L5 14 M0 -5 L-7 1 M0 -5 L8 -2" fill="none" stroke="#ffd23f" stroke-width="2.6" stroke-linecap="round"/>\
        <path d="M8 -2 L12 12" stroke="#8a6d3b" stroke-width="2"/><path d="M9.5 11 L14.5 9.5 L15.5 15 L11 16.5 Z" fill="#c0c0c0"/>\
        </g>

        """
    case .target:
      return """
        <g class="marker target" transform="translate(\(x) \(y))">\
        <path d="M-9 -9 L9 9 M9 -9 L-9 9" stroke="#ffffff" stroke-width="7" stroke-linecap="round"/>\
        <path d="M-9 -9 L9 9 M9 -9 L-9 9" stroke="#e0202a" stroke-width="4.5" stroke-linecap="round"/>\
        </g>

        """
    }
  }

  /// A number with at most one decimal.
  static func number(_ value: Double) -> String {
    let tenths = Int((min(1e9, max(-1e9, value)) * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  /// Text made safe for XML character data and attribute values.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default:
        // Control characters are not allowed in XML 1.0.
        if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\t" || $0 == "\n" }) {
          out.append(character)
        }
      }
    }
    return out
  }
}
