import TunnelGeo
import TunnelSystem

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

  /// The tile `z/x/y` of the antipodal overlay: the land of the other side of the Earth turned through it
  /// onto this one, on a transparent ground, so that laid over ``svg(zoom:x:y:)`` it shows where land lies
  /// opposite land (Spain over New Zealand, Argentina over China).
  ///
  /// A point's antipode is its latitude negated and its longitude turned half round, and Web Mercator is
  /// symmetric about the equator: the overlay tile is the land of tile `((x + 2^z/2) mod 2^z, 2^z − 1 − y)`
  /// mirrored top to bottom (at zoom 0, the one tile mirrored and shifted half its width).
  ///
  /// - Precondition: ``isTile(zoom:x:y:)``.
  public func antipodalSvg(zoom: Int, x: Int, y: Int) -> [UInt8] {
    precondition(Self.isTile(zoom: zoom, x: x, y: y), "no tile \(zoom)/\(x)/\(y)")
    let count = 1 << zoom
    let frame = TileFrame(zoom: zoom, x: (x + count / 2) % count, y: count - 1 - y)
    var out = SVGBytes()
    out.append(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" viewBox=\"0 0 256 256\">")
    let (land, shore) = draw(coasts[zoom], in: frame, filled: true)
    if !land.isEmpty {
      // x stays, y mirrors (256 − y); the one tile of zoom 0 also moves half round, drawn once on each side.
      for shiftX in zoom == 0 ? [128, -128] : [0] {
        out.append("<g transform=\"matrix(1 0 0 -1 \(shiftX) 256)\">")
        out.append(
          "<path fill=\"\(Self.antipodalLand)\" fill-opacity=\"0.45\" fill-rule=\"evenodd\" d=\"")
        out.append(land)
        out.append("\"/>")
        if !shore.isEmpty {
          out.append("<path fill=\"none\" stroke=\"\(Self.antipodalShore)\" stroke-width=\"0.8\" d=\"")
          out.append(shore)
          out.append("\"/>")
        }
        out.append("</g>")
      }
    }
    out.append("</svg>\n")
    return out.bytes
  }

  static let antipodalLand = "#d2691e"
  static let antipodalShore = "#9a3f0c"

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
    startThread { [self] in
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
