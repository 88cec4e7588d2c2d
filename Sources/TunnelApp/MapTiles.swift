import Foundation
import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator map tiles drawn from Tunnel's own data, as SVG: the sea, the land (lakes left as
/// water), shorelines, the borders between countries, and the places that fit at each zoom, largest first.
///
/// Tiles are 256 units square and numbered as every slippy map numbers them (`z/x/y`, `y` down from
/// the north edge at 85.05° N), so Leaflet or OpenLayers show them as they are. Land is filled by the
/// even-odd rule over the coastline rings clipped to the tile; shorelines leave out the seams where the
/// source data cut a land mass; borders are the edges two countries share, so none runs along a
/// coast. Coastlines come from GSHHG's low resolution up to zoom ``highResolutionZoom`` − 1 and from
/// its high resolution beyond.
///
/// Labels are chosen for the whole world at each zoom, most populous first, each clear of those
/// already placed, so a label across a tile's edge is drawn the same in both tiles.
///
/// A `MapTiles` is `Sendable`: one serves every thread. Opening it decodes the layers (about 0.4 s
/// and 60 MB); each zoom's labels are chosen the first time a tile of that zoom is asked for.
///
///     let tiles = try MapTiles(data: MapData(data: PlaceData()))
///     let svg = tiles.svg(zoom: 3, x: 4, y: 2)
public final class MapTiles: Sendable {
  /// Tile size, in SVG units (CSS pixels).
  public static let tileSize = 256
  /// The largest zoom drawn: 38 m a pixel at the equator, about where GSHHG's high resolution ends.
  public static let maximumZoom = 12
  /// From this zoom on, coastlines come from GSHHG's high resolution.
  public static let highResolutionZoom = 6
  /// The latitude of Web Mercator's north and south edges.
  public static let maximumLatitude = 85.051_128_779_806_59

  /// The layers the tiles are drawn from.
  public let data: MapData
  /// Coastlines and borders by zoom: thinned for zooms 0–1 and 2–3, whole beyond.
  let coasts: [TileLayer]
  let borders: [TileLayer]
  private let labelsByZoom: Locked<[Int: TileLabels]>
  private let preparing: Locked<Bool>

  /// Decodes the coastlines (both resolutions) and finds the borders.
  ///
  /// - Throws: `PlaceDataError` when a layer is missing or damaged.
  public init(data: MapData) throws(PlaceDataError) {
    self.data = data
    let lowCoast = TileLayer(data.coastline.polygons)
    let highCoast = TileLayer(try data.placeData.coastline(.high).polygons)
    let borders = Self.borderLayer(try data.placeData.countries().polygons).strokedRuns()
    let overviews = [lowCoast.thinned(forZoom: 1), lowCoast.thinned(forZoom: 3)]
    coasts = (0...Self.maximumZoom).map { zoom in
      zoom >= Self.highResolutionZoom ? highCoast : zoom <= 3 ? overviews[zoom / 2] : lowCoast
    }
    self.borders = [
      borders.thinned(forZoom: 1), borders.thinned(forZoom: 3), borders.thinned(forZoom: 5), borders,
    ]
    labelsByZoom = Locked([:])
    preparing = Locked(false)
    try data.placeData.checkIntact()
  }

  /// Whether `z/x/y` names a tile.
  public static func isTile(zoom: Int, x: Int, y: Int) -> Bool {
    guard (0...maximumZoom).contains(zoom) else { return false }
    let count = 1 << zoom
    return (0..<count).contains(x) && (0..<count).contains(y)
  }

  /// The tile `z/x/y` as an SVG document.
  ///
  /// - Precondition: ``isTile(zoom:x:y:)``.
  public func svg(zoom: Int, x: Int, y: Int) -> [UInt8] {
    precondition(Self.isTile(zoom: zoom, x: x, y: y), "no tile \(zoom)/\(x)/\(y)")
    let frame = TileFrame(zoom: zoom, x: x, y: y)
    var out = SVGBytes()
    out.append(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">\
      <rect width="256" height="256" fill="\(Self.sea)"/>
      """)
    let (land, shore) = draw(coasts[zoom], in: frame, filled: true)
    let border = draw(borders[min(zoom / 2, borders.count - 1)], in: frame, filled: false).stroke
    if !land.isEmpty {
      out.append("<path fill=\"\(Self.land)\" fill-rule=\"evenodd\" d=\"")
      out.append(land)
      out.append("\"/>")
    }
    if !border.isEmpty {
      out.append(
        "<path fill=\"none\" stroke=\"\(Self.borderColour)\" stroke-width=\"\(zoom < 4 ? "0.6" : "0.9")\" "
          + "stroke-dasharray=\"3 2\" d=\"")
      out.append(border)
      out.append("\"/>")
    }
    if !shore.isEmpty {
      out.append("<path fill=\"none\" stroke=\"\(Self.shoreColour)\" stroke-width=\"0.7\" d=\"")
      out.append(shore)
      out.append("\"/>")
    }
    drawLabels(in: frame, to: &out)
    out.append("</svg>\n")
    return out.bytes
  }

  static let sea = "#aacbe3"
  static let land = "#f3efe3"
  static let shoreColour = "#4f7696"
  static let borderColour = "#8e6f9a"

  // MARK: Drawing

  /// The path data that strokes the layer's rings reaching the tile, and (when `filled`) fills them.
  func draw(_ layer: TileLayer, in frame: TileFrame, filled: Bool) -> (fill: SVGBytes, stroke: SVGBytes) {
    var fill = SVGBytes()
    var stroke = SVGBytes()
    var points: [TilePoint] = []
    for ring in layer.rings {
      for shift in frame.shifts(west: ring.box.west, east: ring.box.east) {
        guard frame.mayReach(ring.box, shift: shift),
          frame.isVisible(ring.box, shift: shift)
        else { continue }
        points.removeAll(keepingCapacity: true)
        collect(ring, of: layer, shift: shift, in: frame, into: &points)
        guard points.count >= 2 else { continue }
        if filled {
          let clipped = frame.clip(points)
          if clipped.count >= 3 { fill.appendPolygon(clipped) }
        }
        frame.strokeVisible(points, to: &stroke)
      }
    }
    return (fill, stroke)
  }

  /// A ring's vertices near the tile in tile units, thinned to half a unit; runs of vertices that
  /// lie all beyond one side of the tile are cut to their ends, which clips to the same polygon.
  func collect(
    _ ring: TileLayer.Ring, of layer: TileLayer, shift: Double, in frame: TileFrame,
    into points: inout [TilePoint]
  ) {
    let thinning = 0.5
    var pendingStroke = false
    func add(_ index: Int, stroked: Bool) {
      let point = frame.point(longitude: layer.longitudes[index] + shift, latitude: layer.latitudes[index])
      let lineStroked = pendingStroke || stroked
      if let last = points.last, abs(point.x - last.x) < thinning, abs(point.y - last.y) < thinning,
        index != ring.start + ring.count - 1
      {
        pendingStroke = lineStroked
        return
      }
      points.append(TilePoint(x: point.x, y: point.y, stroked: lineStroked))
      pendingStroke = false
    }
    add(ring.start, stroked: false)
    for chunk in layer.chunks[ring.firstChunk..<(ring.firstChunk + ring.chunkCount)] {
      if frame.mayReach(chunk.box, shift: shift) {
        for index in (chunk.first + 1)...chunk.last { add(index, stroked: layer.stroked[index]) }
      } else {
        add(chunk.last, stroked: false)
      }
    }
  }

  // MARK: Borders

  /// The country rings, with only the edges two different countries share stroked.
  static func borderLayer(_ countries: PolygonLayer) -> TileLayer {
    TileLayer(countries, isStroked: SharedBorders.predicate(countries))
  }

  // MARK: Labels

  func drawLabels(in frame: TileFrame, to out: inout SVGBytes) {
    let labels = labels(zoom: frame.zoom)
    let placesLayer = data.places
    var drawn = false
    for label in labels.near(frame) {
      let x = label.x - frame.originX
      let y = label.y - frame.originY
      guard x + label.width + 8 > -2, x - label.width - 8 < 258, y + 18 > -2, y - 18 < 258 else { continue }
      if !drawn {
        out.append(
          "<g font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(Int(TileLabels.fontSize))\" "
            + "fill=\"#26323a\" stroke=\"#ffffff\" stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">"
        )
        drawn = true
      }
      out.append("<circle cx=\"")
      out.append(number: x)
      out.append("\" cy=\"")
      out.append(number: y)
      out.append("\" r=\"2.2\" stroke-width=\"1\"/><text x=\"")
      switch label.side {
      case .right: out.append(number: x + 4.5)
      case .left: out.append(number: x - 4.5)
      case .above, .below: out.append(number: x)
      }
      switch label.side {
      case .right: out.append("\" y=\"")
      case .left: out.append("\" text-anchor=\"end\" y=\"")
      case .above, .below: out.append("\" text-anchor=\"middle\" y=\"")
      }
      out.append(number: y + (label.side == .above ? -6 : label.side == .below ? 14 : 4))
      out.append("\">")
      out.append(escaped: placesLayer.name(at: Int(label.place)))
      out.append("</text>")
    }
    if drawn { out.append("</g>") }
  }

  /// Chooses every zoom's labels on a thread of its own, once (later calls return at once), so that the
  /// first tile of each zoom need not wait for them: a server calls this at its first tile.
  public func prepareLabelsInBackground() {
    let start = preparing.withLock { started in
      defer { started = true }
      return !started
    }
    guard start else { return }
    Thread.detachNewThread { [self] in
      for zoom in 0...Self.maximumZoom { _ = labels(zoom: zoom) }
    }
  }

  /// The labels of a zoom, chosen the first time.
  func labels(zoom: Int) -> TileLabels {
    if let labels = labelsByZoom.withLock({ $0[zoom] }) { return labels }
    let labels = TileLabels(zoom: zoom, data: data)
    return labelsByZoom.withLock { cache in
      if let existing = cache[zoom] { return existing }
      cache[zoom] = labels
      return labels
    }
  }
}

/// A vertex in tile units, and whether the edge that ends at it is stroked.
struct TilePoint {
  var x: Double
  var y: Double
  var stroked: Bool
}

/// One tile's place in the world: Web Mercator pixel arithmetic, the box (in degrees) of what can
/// reach it, and clipping to it.
struct TileFrame {
  let zoom: Int
  /// The world's width in tile units at this zoom.
  let worldSize: Double
  /// The tile's top-left corner in world units.
  let originX: Double
  let originY: Double
  /// Lines may run this far outside the tile, so that their width never shows a cut end.
  static let margin = 3.0
  /// The clip box in tile units.
  let low = -margin
  let high = 256 + margin
  /// What can reach the clip box, in degrees (north and south beyond the map's edge included).
  let west: Double
  let east: Double
  let south: Double
  let north: Double

  init(zoom: Int, x: Int, y: Int) {
    self.zoom = zoom
    worldSize = Double(MapTiles.tileSize << zoom)
    originX = Double(x * MapTiles.tileSize)
    originY = Double(y * MapTiles.tileSize)
    let degreesPerUnit = 360 / worldSize
    west = (originX + low) * degreesPerUnit - 180
    east = (originX + high) * degreesPerUnit - 180
    north = y == 0 ? 90 : Self.latitude(worldY: originY + low, worldSize: worldSize)
    south = y == (1 << zoom) - 1 ? -90 : Self.latitude(worldY: originY + high, worldSize: worldSize)
  }

  static func latitude(worldY: Double, worldSize: Double) -> Double {
    atan(sinh(.pi * (1 - 2 * worldY / worldSize))) * 180 / .pi
  }

  /// A point's place in tile units. Latitudes are held short of the poles, which Web Mercator puts at
  /// infinity; anything beyond 85.05° lies outside every tile anyway.
  @inline(__always) func point(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
    let phi = min(89.9, max(-89.9, latitude)) * .pi / 180
    let x = (longitude + 180) / 360 * worldSize - originX
    let y = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * worldSize - originY
    return (x, y)
  }

  /// The copies of a span of (unwrapped) longitudes, 360° apart, that may reach the tile.
  func shifts(west boxWest: Double, east boxEast: Double) -> [Double] {
    var result: [Double] = []
    for shift in [-720.0, -360, 0, 360, 720] where boxWest + shift <= east && boxEast + shift >= west {
      result.append(shift)
    }
    return result
  }

  /// Whether a box, moved by `shift` degrees of longitude, overlaps what can reach the tile; a box that
  /// does not lies wholly beyond one side of it.
  @inline(__always) func mayReach(_ box: TileLayer.Box, shift: Double) -> Bool {
    box.west + shift <= east && box.east + shift >= west && box.south <= north && box.north >= south
  }

  /// Whether a box is at least half a unit across at this zoom (smaller rings are not drawn).
  func isVisible(_ box: TileLayer.Box, shift: Double) -> Bool {
    let a = point(longitude: box.west + shift, latitude: box.south)
    let b = point(longitude: box.east + shift, latitude: box.north)
    return abs(b.x - a.x) >= 0.5 || abs(b.y - a.y) >= 0.5
  }

  /// A closed polygon clipped to the clip box (Sutherland–Hodgman, one side at a time); what it keeps
  /// fills the same as the polygon, by the even-odd rule, inside the box.
  func clip(_ polygon: [TilePoint]) -> [TilePoint] {
    var current = polygon
    var next: [TilePoint] = []
    next.reserveCapacity(polygon.count + 8)
    for side in 0..<4 {
      next.removeAll(keepingCapacity: true)
      guard let tail = current.last else { return [] }
      var previous = tail
      var previousInside = inside(previous, side)
      for point in current {
        let isInside = inside(point, side)
        if isInside != previousInside { next.append(crossing(previous, point, side)) }
        if isInside { next.append(point) }
        previous = point
        previousInside = isInside
      }
      swap(&current, &next)
    }
    return current
  }

  @inline(__always) private func inside(_ point: TilePoint, _ side: Int) -> Bool {
    switch side {
    case 0: point.x >= low
    case 1: point.x <= high
    case 2: point.y >= low
    default: point.y <= high
    }
  }

  @inline(__always) private func crossing(_ a: TilePoint, _ b: TilePoint, _ side: Int) -> TilePoint {
    let edge = side == 0 || side == 2 ? low : high
    if side < 2 {
      let t = (edge - a.x) / (b.x - a.x)
      return TilePoint(x: edge, y: a.y + t * (b.y - a.y), stroked: false)
    }
    let t = (edge - a.y) / (b.y - a.y)
    return TilePoint(x: a.x + t * (b.x - a.x), y: edge, stroked: false)
  }

  /// The stroked edges of a polyline, each clipped to the clip box (Liang–Barsky), as path data.
  func strokeVisible(_ points: [TilePoint], to out: inout SVGBytes) {
    var drawing = false
    for index in 1..<points.count {
      guard points[index].stroked, let (from, to) = clipSegment(points[index - 1], points[index]) else {
        drawing = false
        continue
      }
      if !drawing || !out.isAt(from.x, from.y) { out.move(to: from.x, from.y) }
      out.line(to: to.x, to.y)
      drawing = true
    }
  }

  func clipSegment(_ a: TilePoint, _ b: TilePoint) -> ((x: Double, y: Double), (x: Double, y: Double))? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.x - a.x
    let dy = b.y - a.y
    for (p, q) in [(-dx, a.x - low), (dx, high - a.x), (-dy, a.y - low), (dy, high - a.y)] {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let r = q / p
      if p < 0 {
        if r > t1 { return nil }
        t0 = max(t0, r)
      } else {
        if r < t0 { return nil }
        t1 = min(t1, r)
      }
    }
    return ((a.x + t0 * dx, a.y + t0 * dy), (a.x + t1 * dx, a.y + t1 * dy))
  }
}

/// The places labelled at one zoom, in world units, found through a grid of tile-sized cells.
struct TileLabels: Sendable {
  struct Label: Sendable {
    var place: Int32
    var x: Double
    var y: Double
    var width: Double
    /// Where the name is written, to keep clear of the labels placed before it.
    var side: Side

    enum Side: CaseIterable, Sendable {
      case right, left, above, below
    }
  }

  static let fontSize = 11.0
  /// The most labels a tile-sized area gets.
  static let perTile = 14

  let zoom: Int
  let labels: [Label]
  /// Label indices by the cell (tile) their place lies in.
  let cells: [Int: [Int32]]

  init(zoom: Int, data: MapData) {
    self.zoom = zoom
    let worldSize = Double(MapTiles.tileSize << zoom)
    let tilesAcross = 1 << zoom
    let layer = data.places
    let units = Double(layer.unitsPerDegree)
    var labels: [Label] = []
    var cells: [Int: [Int32]] = [:]
    // Boxes taken, chained by the 64-unit grid cells they cover, to test overlaps.
    var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    var heads: [Int: Int32] = [:]
    var links: [(box: Int32, next: Int32)] = []
    var perTile: [Int: Int8] = [:]
    let grid = 64.0
    func isClear(_ box: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
      for row in Int((box.y0 / grid).rounded(.down))...Int((box.y1 / grid).rounded(.down)) {
        for column in Int((box.x0 / grid).rounded(.down))...Int((box.x1 / grid).rounded(.down)) {
          var link = heads[row &* 1_000_003 &+ column] ?? -1
          while link >= 0 {
            let other = boxes[Int(links[Int(link)].box)]
            if other.x0 < box.x1 && box.x0 < other.x1 && other.y0 < box.y1 && box.y0 < other.y1 {
              return false
            }
            link = links[Int(link)].next
          }
        }
      }
      return true
    }
    for place in data.placesByRank {
      let index = Int(place)
      let latitude = Double(layer.latitudeUnits(at: index)) / units
      guard abs(latitude) < MapTiles.maximumLatitude else { continue }
      let longitude = Double(layer.longitudeUnits(at: index)) / units
      let phi = latitude * .pi / 180
      let x = (longitude + 180) / 360 * worldSize
      let y = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * worldSize
      let tile = min(tilesAcross - 1, Int(y / 256)) * tilesAcross + min(tilesAcross - 1, Int(x / 256))
      guard perTile[tile, default: 0] < Self.perTile else { continue }
      var characters = 0
      layer.withName(at: index) { bytes in
        for byte in bytes where byte & 0xC0 != 0x80 { characters += 1 }
      }
      let width = Double(characters) * Self.fontSize * 0.58
      // Right of the place if that is clear, else left of it, else centred above or below it. The box
      // holds the dot and the text, whose baseline is 4 units below the place (capitals reach 8 above
      // the baseline, descenders 2.5 below, and the halo 1.25 round both).
      var placed: (box: (x0: Double, y0: Double, x1: Double, y1: Double), side: Label.Side)?
      for side in Label.Side.allCases {
        let box =
          switch side {
          case .right: (x0: x - 3, y0: y - 6, x1: x + 6 + width, y1: y + 8)
          case .left: (x0: x - 6 - width, y0: y - 6, x1: x + 3, y1: y + 8)
          case .above: (x0: x - width / 2 - 3, y0: y - 17, x1: x + width / 2 + 3, y1: y + 3)
          case .below: (x0: x - width / 2 - 3, y0: y - 3, x1: x + width / 2 + 3, y1: y + 17)
          }
        if isClear(box) {
          placed = (box, side)
          break
        }
      }
      guard let (box, side) = placed else { continue }
      let columns = Int((box.x0 / grid).rounded(.down))...Int((box.x1 / grid).rounded(.down))
      let rows = Int((box.y0 / grid).rounded(.down))...Int((box.y1 / grid).rounded(.down))
      boxes.append(box)
      for row in rows {
        for column in columns {
          let key = row &* 1_000_003 &+ column
          links.append((Int32(boxes.count - 1), heads[key] ?? -1))
          heads[key] = Int32(links.count - 1)
        }
      }
      perTile[tile, default: 0] += 1
      cells[tile, default: []].append(Int32(labels.count))
      labels.append(Label(place: place, x: x, y: y, width: width, side: side))
    }
    self.labels = labels
    self.cells = cells
  }

  /// The labels whose place lies in the tile or a tile next to it (across the antimeridian too), in the
  /// frame's world units.
  func near(_ frame: TileFrame) -> [Label] {
    let tilesAcross = 1 << zoom
    let tileX = Int(frame.originX) / MapTiles.tileSize
    let tileY = Int(frame.originY) / MapTiles.tileSize
    var result: [Label] = []
    for row in (tileY - 1)...(tileY + 1) where (0..<tilesAcross).contains(row) {
      for column in (tileX - 1)...(tileX + 1) {
        let wrapped = (column + tilesAcross) % tilesAcross
        let shift = Double(column - wrapped) * Double(MapTiles.tileSize)
        for index in cells[row * tilesAcross + wrapped, default: []] {
          var label = labels[Int(index)]
          label.x += shift
          result.append(label)
        }
        if tilesAcross == 1 { break }
      }
    }
    return result
  }
}

/// SVG text built as bytes, with path data in tenths of a unit: each subpath starts with an absolute
/// `M` and goes on with relative `l`, which keeps a tile's paths about half as long.
struct SVGBytes {
  var bytes: [UInt8] = []
  /// The pen, in tenths, and whether the last command written was `l`.
  private var penX = 0
  private var penY = 0
  private var inLine = false

  var isEmpty: Bool { bytes.isEmpty }

  mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func append(_ other: SVGBytes) { bytes.append(contentsOf: other.bytes) }

  static func tenths(_ value: Double) -> Int { Int((min(1e9, max(-1e9, value)) * 10).rounded()) }

  /// A number with at most one decimal.
  mutating func append(number value: Double) { append(tenths: Self.tenths(value), separated: false) }

  /// A number given in tenths; after another number, a space first unless it is negative.
  private mutating func append(tenths value: Int, separated: Bool) {
    var magnitude = value
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      magnitude = -value
    } else if separated {
      bytes.append(UInt8(ascii: " "))
    }
    if magnitude >= 10 { appendDigits(magnitude / 10) }
    if magnitude % 10 != 0 {
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
    } else if magnitude < 10 {
      bytes.append(UInt8(ascii: "0"))
    }
  }

  private mutating func appendDigits(_ value: Int) {
    if value >= 10 { appendDigits(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Starts a subpath at a point.
  mutating func move(to x: Double, _ y: Double) {
    penX = Self.tenths(x)
    penY = Self.tenths(y)
    bytes.append(UInt8(ascii: "M"))
    append(tenths: penX, separated: false)
    append(tenths: penY, separated: true)
    inLine = false
  }

  /// A line from the pen to a point (nothing when it rounds to the pen).
  mutating func line(to x: Double, _ y: Double) {
    let nextX = Self.tenths(x)
    let nextY = Self.tenths(y)
    guard nextX != penX || nextY != penY else { return }
    let separated: Bool
    if inLine {
      separated = true
    } else {
      bytes.append(UInt8(ascii: "l"))
      separated = false
      inLine = true
    }
    append(tenths: nextX - penX, separated: separated)
    append(tenths: nextY - penY, separated: true)
    penX = nextX
    penY = nextY
  }

  /// Whether the pen is at a point (to the tenth).
  func isAt(_ x: Double, _ y: Double) -> Bool { Self.tenths(x) == penX && Self.tenths(y) == penY }

  mutating func appendPolygon(_ points: [TilePoint]) {
    guard let first = points.first else { return }
    move(to: first.x, first.y)
    for point in points.dropFirst() { line(to: point.x, point.y) }
    bytes.append(UInt8(ascii: "z"))
    inLine = false
  }

  mutating func append(escaped text: String) { append(SVGMap.escaped(text)) }
}
