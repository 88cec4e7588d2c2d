import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A polygon layer decoded for drawing Web Mercator tiles: each ring's vertices in degrees with their
/// longitudes unwrapped (every edge goes the shorter way round, so a ring across ±180° stays in one
/// piece, and Antarctica runs on from -180° to 180°), split into runs of at most ``chunkEdges`` edges
/// with boxes, so that a tile reads only the runs near it.
///
/// Each edge also knows whether it is a shoreline: the seams where the source cut a land mass (along
/// 0° and ±180°) and the closing edges down to a pole are filled but never stroked.
struct TileLayer: Sendable {
  /// A box in degrees (longitudes unwrapped).
  struct Box: Sendable {
    var west: Double
    var east: Double
    var south: Double
    var north: Double
  }

  struct Ring: Sendable {
    /// The ring's vertices are `start..<start + count` (closed: the last repeats the first).
    var start: Int
    var count: Int
    var box: Box
    /// Its runs: `chunks[firstChunk..<firstChunk + chunkCount]`.
    var firstChunk: Int
    var chunkCount: Int
  }

  /// A run of edges: vertices `first...last` (the next run starts at `last`).
  struct Chunk: Sendable {
    var first: Int
    var last: Int
    var box: Box
  }

  static let chunkEdges = 32

  let rings: [Ring]
  let chunks: [Chunk]
  let longitudes: [Double]
  let latitudes: [Double]
  /// Whether the edge ending at a vertex is drawn as a line (false for a ring's first vertex).
  let stroked: [Bool]

  /// A path's vertex: where it is, and whether the edge that ends there is drawn as a line.
  struct Vertex {
    var longitude: Double
    var latitude: Double
    var stroked: Bool
  }

  /// Decodes every ring of `layer`; `isStroked` tells, for an edge's two ends in the layer's units,
  /// whether it is drawn as a line.
  init(_ layer: PolygonLayer, isStroked: ((FixedPoint, FixedPoint) -> Bool)? = nil) {
    let isStroked = isStroked ?? Self.shorelines(unitsPerDegree: layer.unitsPerDegree)
    let units = Double(layer.unitsPerDegree)
    let turn = Int64(360 * layer.unitsPerDegree)
    var paths: [[Vertex]] = []
    paths.reserveCapacity(layer.ringCount)
    for index in 0..<layer.ringCount {
      var path: [Vertex] = []
      var previous: FixedPoint?
      var unwrapped: Int64 = 0
      layer.forEachVertex(ofRing: index) { point in
        var stroked = false
        if let last = previous {
          var step = Int64(point.longitude) - Int64(last.longitude)
          while step > turn / 2 { step -= turn }
          while step < -turn / 2 { step += turn }
          unwrapped += step
          stroked = isStroked(last, point)
        } else {
          unwrapped = Int64(point.longitude)
        }
        previous = point
        path.append(
          Vertex(
            longitude: Double(unwrapped) / units, latitude: Double(point.latitude) / units, stroked: stroked))
      }
      paths.append(path)
    }
    self.init(paths: paths)
  }

  /// A layer of the given paths (a ring's last vertex repeats its first).
  init(paths: [[Vertex]]) {
    var rings: [Ring] = []
    var chunks: [Chunk] = []
    var longitudes: [Double] = []
    var latitudes: [Double] = []
    var stroked: [Bool] = []
    let total = paths.reduce(0) { $0 + $1.count }
    longitudes.reserveCapacity(total)
    latitudes.reserveCapacity(total)
    stroked.reserveCapacity(total)
    for path in paths where path.count >= 2 {
      let start = longitudes.count
      for (index, vertex) in path.enumerated() {
        longitudes.append(vertex.longitude)
        latitudes.append(vertex.latitude)
        stroked.append(index > 0 && vertex.stroked)
      }
      let count = path.count
      let firstChunk = chunks.count
      var first = start
      while first < start + count - 1 {
        let last = min(first + Self.chunkEdges, start + count - 1)
        chunks.append(Chunk(first: first, last: last, box: Self.box(longitudes, latitudes, first...last)))
        first = last
      }
      rings.append(
        Ring(
          start: start, count: count, box: Self.box(longitudes, latitudes, start...(start + count - 1)),
          firstChunk: firstChunk, chunkCount: chunks.count - firstChunk))
    }
    self.rings = rings
    self.chunks = chunks
    self.longitudes = longitudes
    self.latitudes = latitudes
    self.stroked = stroked
  }

  /// The same layer for zooms up to `zoom`: each vertex closer than half a pixel there to the last one kept
  /// left out (a ring's last is always kept), and rings smaller than that left out whole. An edge is
  /// stroked when any edge it replaces was.
  func thinned(forZoom zoom: Int) -> TileLayer {
    let degreesPerPixel = 360 / Double(MapTiles.tileSize << zoom)
    let tolerance = 0.5 * degreesPerPixel
    var paths: [[Vertex]] = []
    for ring in rings {
      let mercatorScale = 1 / max(0.01, cos(max(abs(ring.box.south), abs(ring.box.north)) * .pi / 180))
      guard
        ring.box.east - ring.box.west >= tolerance
          || (ring.box.north - ring.box.south) * mercatorScale >= tolerance
      else { continue }
      var path: [Vertex] = []
      var pending = false
      for index in ring.start..<(ring.start + ring.count) {
        let vertex = Vertex(longitude: longitudes[index], latitude: latitudes[index], stroked: stroked[index])
        if let last = path.last, index != ring.start + ring.count - 1,
          abs(vertex.longitude - last.longitude) < tolerance,
          abs(vertex.latitude - last.latitude) < tolerance * cos(vertex.latitude * .pi / 180)
        {
          pending = pending || vertex.stroked
          continue
        }
        path.append(
          Vertex(longitude: vertex.longitude, latitude: vertex.latitude, stroked: vertex.stroked || pending))
        pending = false
      }
      paths.append(path)
    }
    return TileLayer(paths: paths)
  }

  /// The runs of stroked edges alone, as open paths: the lines of a layer that is only stroked.
  func strokedRuns() -> TileLayer {
    var paths: [[Vertex]] = []
    for ring in rings {
      var run: [Vertex] = []
      for index in ring.start..<(ring.start + ring.count) {
        let vertex = Vertex(longitude: longitudes[index], latitude: latitudes[index], stroked: true)
        if stroked[index] {
          if run.isEmpty {
            run.append(
              Vertex(longitude: longitudes[index - 1], latitude: latitudes[index - 1], stroked: false))
          }
          run.append(vertex)
        } else if !run.isEmpty {
          paths.append(run)
          run.removeAll()
        }
      }
      if !run.isEmpty { paths.append(run) }
    }
    return TileLayer(paths: paths)
  }

  static func box(_ longitudes: [Double], _ latitudes: [Double], _ range: ClosedRange<Int>) -> Box {
    var box = Box(west: .infinity, east: -.infinity, south: .infinity, north: -.infinity)
    for index in range {
      box.west = min(box.west, longitudes[index])
      box.east = max(box.east, longitudes[index])
      box.south = min(box.south, latitudes[index])
      box.north = max(box.north, latitudes[index])
    }
    return box
  }

  /// Whether a coastline edge is a real shore: not along 0° or ±180° (where the source cut Eurasia and
  /// closed Antarctica), and not along a pole.
  static func shorelines(unitsPerDegree: Int) -> (FixedPoint, FixedPoint) -> Bool {
    let antimeridian = Int32(180 * unitsPerDegree)
    let polar = Int32(Double(unitsPerDegree) * 89.99)
    return { a, b in
      if a.longitude == b.longitude, a.longitude == 0 || abs(a.longitude) == antimeridian { return false }
      return abs(a.latitude) < polar || abs(b.latitude) < polar
    }
  }
}
