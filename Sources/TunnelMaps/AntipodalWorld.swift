import TunnelGeo
import TunnelReports

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole world with the land of the other side of the Earth turned through it onto this one, as one
/// SVG picture: where the two overlap, one can dig from land to land (Spain and New Zealand, China and
/// Argentina). The pairs of places at opposite ends are labelled, and a tunnel's two ends marked.
///
/// The world is drawn in the plate carrée (longitude and latitude as x and y), in which a point's antipode is
/// the picture moved half its width and mirrored top to bottom, so the overlay is the land drawn once more
/// under that transform. Land comes from GSHHG's low resolution, lakes left as water.
///
///     let svg = AntipodalWorld(data: mapData, pairs: pairs, tunnel: skjern).document()
public struct AntipodalWorld {
  /// The layers the land is drawn from.
  public let data: MapData
  /// The pairs to label where they fit, the most populous first.
  public let pairs: [AntipodalPair]
  /// Where a tunnel starts (marked with its antipode), or none.
  public let tunnel: Coordinate?
  /// The picture's width in SVG units; the world is half as high, with a caption below.
  public let width: Int

  /// Describes the picture; nothing is drawn until ``document()``.
  public init(data: MapData, pairs: [AntipodalPair], tunnel: Coordinate? = nil, width: Int = 1440) {
    self.data = data
    self.pairs = pairs
    self.tunnel = tunnel
    self.width = width
  }

  /// The most pairs labelled; each is named where its label clears those already placed.
  public static let maximumLabels = 36
  static let captionHeight = 58
  static let fontSize = 11.0

  /// The SVG document.
  public func document() -> String {
    let scale = Double(width) / 360
    let worldHeight = width / 2
    let height = worldHeight + Self.captionHeight
    let layer = TileLayer(data.coastline.polygons).thinned(forZoom: max(0, Int(log2(Double(width) / 256))))
    // The land filled, and its shores stroked apart: the seams where the source cut a land mass (along 0°
    // and ±180°, and down to the South Pole) are filled but not drawn.
    var land = SVGBytes()
    var shore = SVGBytes()
    for ring in layer.rings {
      for shift in [-360.0, 0, 360] where ring.box.west + shift < 180 && ring.box.east + shift > -180 {
        var previous = (x: 0.0, y: 0.0)
        for index in ring.start..<(ring.start + ring.count) {
          let x = (layer.longitudes[index] + shift + 180) * scale
          let y = (90 - layer.latitudes[index]) * scale
          if index == ring.start {
            land.move(to: x, y)
          } else {
            land.line(to: x, y)
            if layer.stroked[index] {
              if !shore.isAt(previous.x, previous.y) { shore.move(to: previous.x, previous.y) }
              shore.line(to: x, y)
            }
          }
          previous = (x, y)
        }
        land.append("z")
      }
    }
    let landPath = String(decoding: land.bytes, as: UTF8.self)
    let shorePath = String(decoding: shore.bytes, as: UTF8.self)
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
      <title>Tunnel: the land of the other side of the Earth, turned through it onto this one</title>
      <rect width="\(width)" height="\(height)" fill="#10202c"/>
      <svg x="0" y="0" width="\(width)" height="\(worldHeight)" class="world">
      <rect width="\(width)" height="\(worldHeight)" fill="\(MapTiles.sea)"/>
      <path class="land" fill="\(MapTiles.land)" fill-rule="evenodd" d="\(landPath)"/>
      <path class="shore" fill="none" stroke="\(MapTiles.shoreColour)" stroke-width="0.5" d="\(shorePath)"/>

      """
    // The antipode of (x, y) is (x ± width/2, worldHeight − y): the land once more, moved and mirrored, twice
    // so that both halves of the world are covered.
    for shift in [width / 2, -width / 2] {
      svg += """
        <g class="antipodal-land" transform="matrix(1 0 0 -1 \(shift) \(worldHeight))">
        <path fill="\(MapTiles.antipodalLand)" fill-opacity="0.45" fill-rule="evenodd" d="\(landPath)"/>
        <path fill="none" stroke="\(MapTiles.antipodalShore)" stroke-width="0.5" d="\(shorePath)"/>
        </g>

        """
    }
    svg += """
      <path fill="none" stroke="#ffffff" stroke-opacity="0.5" stroke-width="0.6" stroke-dasharray="4 4" \
      d="M0 \(worldHeight / 2)H\(width)"/>

      """
    svg += labels(scale: scale)
    if let tunnel {
      svg += marks(tunnel, scale: scale)
    }
    svg += "</svg>\n"
    svg += """
      <g class="caption" font-size="13">
      <rect x="14" y="\(worldHeight + 14)" width="14" height="10" fill="\(MapTiles.land)"/>
      <text x="34" y="\(worldHeight + 24)" fill="#f4f1e8">Land</text>
      <rect x="84" y="\(worldHeight + 14)" width="14" height="10" fill="\(MapTiles.antipodalLand)" fill-opacity="0.8"/>
      <text x="104" y="\(worldHeight + 24)" fill="#f4f1e8">The land of the other side, turned through the Earth: \
      where the colours overlap, a tunnel runs from land to land.</text>
      <text x="14" y="\(worldHeight + 44)" font-size="12" fill="#aab8c2">Labels: places at opposite ends \
      (tunnel pairs), each beside the first of its pair. Land: GSHHG; places: GeoNames.</text>
      </g>
      </svg>

      """
    return svg
  }

  /// A point's place in the picture.
  private func point(_ coordinate: Coordinate, scale: Double) -> (x: Double, y: Double) {
    ((coordinate.longitude + 180) * scale, (90 - coordinate.latitude) * scale)
  }

  /// The pairs, the most populous (by the smaller of the two) first, each labelled "A ↔ B" beside its first
  /// place where the label clears every label and mark already placed; both places of a labelled pair marked.
  private func labels(scale: Double) -> String {
    let ranked = pairs.sorted {
      let a = min($0.first.population, $0.second.population)
      let b = min($1.first.population, $1.second.population)
      return a != b ? a > b : $0.distanceKm < $1.distanceKm
    }
    var taken: [Box] = []
    var out = "<g class=\"pairs\" font-size=\"\(Int(Self.fontSize))\" fill=\"#26323a\" stroke=\"#ffffff\" "
    out += "stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">\n"
    var placed = 0
    for pair in ranked where placed < Self.maximumLabels {
      let a = point(pair.first.coordinate, scale: scale)
      let b = point(pair.second.coordinate, scale: scale)
      let text = "\(pair.first.name) ↔ \(pair.second.name)"
      let textWidth = Double(text.count) * Self.fontSize * 0.6
      // Right of the place, or left of it when that runs off the picture.
      let leftward = a.x + 5 + textWidth > Double(width)
      let x0 = leftward ? a.x - 5 - textWidth : a.x + 5
      let box = Box(x0: x0 - 2, y0: a.y - Self.fontSize, x1: x0 + textWidth + 2, y1: a.y + 4)
      let boxes = [box, Box(around: a, by: 3), Box(around: b, by: 3)]
      guard box.x0 >= 0, !boxes.contains(where: { mine in taken.contains { $0.meets(mine) } }) else {
        continue
      }
      taken += boxes
      placed += 1
      out += "<g class=\"pair\">"
      for end in [a, b] {
        out +=
          "<circle cx=\"\(SVGMap.number(end.x))\" cy=\"\(SVGMap.number(end.y))\" r=\"2.5\" stroke-width=\"1\"/>"
      }
      out += "<text x=\"\(SVGMap.number(leftward ? a.x - 5 : a.x + 5))\" y=\"\(SVGMap.number(a.y + 4))\""
      out += leftward ? " text-anchor=\"end\">" : ">"
      out += SVGMap.escaped(text) + "</text></g>\n"
    }
    return out + "</g>\n"
  }

  /// The digger's end (a dark ring) and the red X at its antipode.
  private func marks(_ start: Coordinate, scale: Double) -> String {
    let here = point(start, scale: scale)
    let there = point(start.antipode, scale: scale)
    return """
      <g class="tunnel-ends">
      <circle cx="\(SVGMap.number(here.x))" cy="\(SVGMap.number(here.y))" r="6" fill="none" stroke="#10202c" stroke-width="2.5"/>
      <path d="M\(SVGMap.number(there.x - 6)) \(SVGMap.number(there.y - 6))l12 12m0 -12l-12 12" stroke="#d62828" \
      stroke-width="3" stroke-linecap="round"/>
      </g>

      """
  }

  /// A box in picture units, to keep labels apart.
  struct Box {
    var x0, y0, x1, y1: Double

    init(x0: Double, y0: Double, x1: Double, y1: Double) {
      (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    init(around point: (x: Double, y: Double), by margin: Double) {
      self.init(x0: point.x - margin, y0: point.y - margin, x1: point.x + margin, y1: point.y + margin)
    }

    func meets(_ other: Box) -> Bool { x0 < other.x1 && x1 > other.x0 && y0 < other.y1 && y1 > other.y0 }
  }
}
