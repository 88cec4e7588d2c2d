import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws maps: projects the coastlines, borders and places near a viewport's centre through PROJ's
/// azimuthal equidistant projection centred there, and fills the land.
///
/// The projection is re-made for every new centre (about 0.1 ms), so the map is right at the poles
/// and across the antimeridian: nothing is drawn in longitude and latitude. Only rings whose boxes
/// reach the spherical cap around the centre that holds the whole view are read, their vertices
/// thinned to half a pixel, and edges longer than a degree are split so that no edge crosses the
/// view unseen.
///
/// Land is filled scanline by scanline by the even-odd rule over the projected shorelines, which
/// counts lakes and islands in lakes right. The parity of one reference point is looked up in the
/// coastline polygons themselves (the centre, or a point near it at least a pixel from any shore),
/// and every other pixel's parity follows from the shorelines crossed on the way there, so a
/// shoreline outside the view never needs closing.
///
/// A renderer owns a PROJ context and belongs to one thread or task; it is not `Sendable`.
///
/// - Complexity: linear in the pixels plus the vertices near the view; one frame of two maps of
///   200×25 cells takes a few milliseconds (`Scripts/bench --map-frame`).
public final class MapRenderer {
  /// The layers maps are drawn from.
  public let data: MapData
  private let context: ProjectionContext
  private var projection: (centre: Coordinate, projection: Projection)?

  /// Creates a renderer with its own PROJ context.
  public init(data: MapData) throws(ProjectionError) {
    self.data = data
    context = try ProjectionContext()
  }

  /// The picture of a viewport.
  ///
  /// - Throws: `ProjectionError` if PROJ refuses the projection (it never has for a valid centre).
  public func picture(of viewport: MapViewport) throws(ProjectionError) -> MapPicture {
    let frame = try Frame(viewport: viewport, projection: projection(centredOn: viewport.centre))
    // The fill needs every edge of the rings; the strokes leave out the seams where the source cut a land
    // mass (along 0° and 180°) and closed Antarctica along the pole, which are no shore, and the countries'
    // edges that no other country shares, which are no border.
    let coastLayer = data.coast(metresPerPixel: viewport.metresPerPixel)
    let coastLines = polylines(of: coastLayer.drawing, in: frame)
    let shorelines = zip(coastLines.lines, coastLines.isSeam).filter { !$0.1 }.map(\.0)
    let borderParts = polylines(of: data.borders, in: frame)
    let borderLines = zip(borderParts.lines, borderParts.isSeam).filter { !$0.1 }.map(\.0)
    var coast = Bitmap(width: viewport.width, height: viewport.height)
    for line in shorelines { coast.drawPolyline(line) }
    var land = fill(coastLines.lines, in: frame, isLand: coastLayer.isLand)
    for (index, isCoast) in coast.bits.enumerated() where isCoast {
      land[index % land.width, index / land.width] = true
    }
    var rawBorders = Bitmap(width: viewport.width, height: viewport.height)
    for line in borderLines { rawBorders.drawPolyline(line) }
    let places = places(in: frame)
    let islets = Self.islets(of: places, land: land)
    for point in islets {
      land[Int(point.x), Int(point.y)] = true
      coast[Int(point.x), Int(point.y)] = true
    }
    let centreIsLand = coastLayer.isLand(viewport.centre)
    return MapPicture(
      viewport: viewport, land: land, coast: coast,
      borders: Self.inland(rawBorders, land: land, coast: coast), shorelines: shorelines,
      borderLines: borderLines, places: places, islets: islets,
      seaName: centreIsLand
        ? nil
        : data.lakes.names.name(at: viewport.centre, coast: data.lakes.coast)
          ?? data.lakes.names.seaName(containing: viewport.centre)
          ?? data.marine.names(containing: viewport.centre).first,
      nearestOutside: places.isEmpty ? nearestPlace(to: frame) : nil)
  }

  /// The place nearest to the centre of a frame, and which way it lies: for a map zoomed in where no
  /// place is in view, so that it still says what is near.
  func nearestPlace(to frame: Frame) -> MapPicture.NearestOutside? {
    var best = (order: -1, dot: -Float.infinity)
    for (order, vector) in data.placeVectors.enumerated() {
      let dot = (vector * frame.up).sum()
      if dot > best.dot { best = (order, dot) }
    }
    guard best.order >= 0 else { return nil }
    let vector = data.placeVectors[best.order]
    let details = data.places.place(at: Int(data.placesByRank[best.order]))
    // On an azimuthal projection the direction on the map from its centre is the bearing.
    let bearing = atan2(Double((vector * frame.east).sum()), Double((vector * frame.north).sum())) * 180 / .pi
    return MapPicture.NearestOutside(
      name: details.name, asciiName: details.asciiName,
      distanceKm: acos(Double(min(1, best.dot))) * WGS84.meanRadius / 1000,
      bearing: (bearing + 360).truncatingRemainder(dividingBy: 360))
  }

  /// The points of the places with no land pixel within a pixel of them: their islands are smaller
  /// than the coastlines drawn keep (Fernando de Noronha, Nukuoro), or lie between two of their vertices.
  static func islets(of places: [MapPlace], land: Bitmap) -> [MapPoint] {
    places.map(\.point).filter { point in
      let x = Int(point.x)
      let y = Int(point.y)
      return !(-1...1).contains { dy in (-1...1).contains { dx in land[x + dx, y + dy] } }
    }
  }

  /// Where a coordinate is drawn on a viewport's picture, nil when it is on the far side of the Earth
  /// (it may lie outside the picture).
  public func point(of coordinate: Coordinate, in viewport: MapViewport) -> MapPoint? {
    guard let projection = try? projection(centredOn: viewport.centre) else { return nil }
    return Frame(viewport: viewport, projection: projection).point(
      latitude: coordinate.latitude, longitude: coordinate.longitude)
  }

  /// The coordinate drawn at a point of a viewport, if any.
  public func coordinate(at point: MapPoint, in viewport: MapViewport) -> Coordinate? {
    guard let projection = try? projection(centredOn: viewport.centre) else { return nil }
    return Frame(viewport: viewport, projection: projection).coordinate(at: point)
  }

  private func projection(centredOn centre: Coordinate) throws(ProjectionError) -> Projection {
    if let projection, projection.centre == centre { return projection.projection }
    let made = try Projection.azimuthalEquidistant(centredOn: centre, in: context, onSphere: true)
    projection = (centre, made)
    return made
  }

  /// A light graticule for `viewport`: parallels every `step` degrees (chosen so that a few cross the view:
  /// 1°, 2°, 5°, 10°, 15° or 30°) and meridians as far apart at the centre's latitude (up to 90° near a
  /// pole), each as runs of points inside the view, sampled every fifth of a step; and where each pole
  /// lies, when it is in view.
  func graticule(
    of viewport: MapViewport
  ) throws(ProjectionError) -> (step: Double, lines: [[MapPoint]], poles: [(north: Bool, point: MapPoint)]) {
    let frame = try Frame(viewport: viewport, projection: projection(centredOn: viewport.centre))
    let spanDegrees = viewport.regionSpan / 111_195
    let step = [1.0, 2, 5, 10, 15, 30].first { spanDegrees / $0 <= 6 } ?? 30
    let inside = { (point: MapPoint) in
      point.x >= -1 && point.y >= -1 && point.x <= Double(viewport.width) + 1
        && point.y <= Double(viewport.height) + 1
    }
    var lines: [[MapPoint]] = []
    func trace(_ points: [(latitude: Double, longitude: Double)]) {
      var run: [MapPoint] = []
      for (latitude, longitude) in points {
        if let point = frame.point(latitude: latitude, longitude: longitude), inside(point) {
          run.append(point)
        } else {
          if run.count > 1 { lines.append(run) }
          run = []
        }
      }
      if run.count > 1 { lines.append(run) }
    }
    let fine = step / 5
    let low = max(-90, (frame.minLatitude / step).rounded(.down) * step)
    let high = min(90, (frame.maxLatitude / step).rounded(.up) * step)
    // Meridians run between the parallels next to the poles, so that they do not crowd into the pole.
    let meridianEnds = (max(low, -90 + step), min(high, 90 - step))
    // Meridians close in towards the poles: near one, fewer of them (a step wide enough at the centre).
    let widening = 1 / max(0.05, cos(viewport.centre.latitude * .pi / 180))
    let meridianStep = [1.0, 2, 5, 10, 15, 30, 45, 90].first { $0 >= step * widening } ?? 90
    for longitude in stride(from: -180, to: 180, by: meridianStep) where meridianEnds.0 < meridianEnds.1 {
      trace(stride(from: meridianEnds.0, through: meridianEnds.1, by: fine).map { ($0, longitude) })
    }
    for latitude in stride(from: low, through: high, by: step) where abs(latitude) < 90 {
      trace(stride(from: -180, through: 180, by: fine).map { (latitude, $0) })
    }
    var poles: [(north: Bool, point: MapPoint)] = []
    for north in [true, false] {
      if let point = frame.point(latitude: north ? 90 : -90, longitude: 0), inside(point) {
        poles.append((north, point))
      }
    }
    return (step, lines, poles)
  }

  // MARK: - Geometry near the view

  /// The view's pixel mapping, and what may reach the view: a cap around the centre (as a box in
  /// latitude and longitude, for whole rings) and a trigonometry-free test for single points.
  struct Frame {
    let viewport: MapViewport
    let projection: Projection
    /// The cap's latitude range and its half-width in longitude, in degrees; nil half-width for
    /// every longitude (a pole in the cap).
    let minLatitude: Double
    let maxLatitude: Double
    let longitudeReach: Double?
    /// The centre's local axes as unit vectors.
    let east: SIMD3<Float>
    let north: SIMD3<Float>
    let up: SIMD3<Float>
    /// How far a point may lie towards each side (in Earth radii, margin included) and how low its
    /// `up` component may be, and still reach the view.
    let reachEast: Float
    let reachWest: Float
    let reachNorth: Float
    let reachSouth: Float
    let minimumUp: Float

    /// Edges longer than this (degrees, either axis) are split; the margins are larger.
    static let longestEdge = 1.0

    init(viewport: MapViewport, projection: Projection) {
      self.viewport = viewport
      self.projection = projection
      let radius = viewport.halfDiagonal / WGS84.meanRadius * 180 / .pi + 2 * Self.longestEdge + 0.5
      let latitude = viewport.centre.latitude
      minLatitude = latitude - radius
      maxLatitude = latitude + radius
      let sine = sin(radius * .pi / 180)
      let cosine = cos(latitude * .pi / 180)
      longitudeReach =
        maxLatitude >= 90 || minLatitude <= -90 || sine >= cosine
        ? nil : asin(sine / cosine) * 180 / .pi + 0.5
      let phi = latitude * .pi / 180
      let lambda = viewport.centre.longitude * .pi / 180
      up = SIMD3<Float>(unitVector(latitude: phi, longitude: lambda))
      east = SIMD3<Float>(SIMD3(-sin(lambda), cos(lambda), 0))
      north = SIMD3<Float>(SIMD3(-sin(phi) * cos(lambda), -sin(phi) * sin(lambda), cos(phi)))
      // A point's distance east of the centre on the map is at least its `east` component times the
      // Earth's radius (the azimuthal equidistant radius c·R is at least sin(c)·R), and likewise north.
      let margin = (Self.longestEdge + 0.5) * .pi / 180
      let metres = viewport.metresPerPixel / WGS84.meanRadius
      reachEast = Float((Double(viewport.width) - viewport.centreX + 2) * metres + margin)
      reachWest = Float((viewport.centreX + 2) * metres + margin)
      reachSouth = Float((Double(viewport.height) - viewport.centreY + 2) * metres + margin)
      reachNorth = Float((viewport.centreY + 2) * metres + margin)
      minimumUp = Float(cos(min(.pi, radius * .pi / 180)))
    }

    /// Whether a point (its unit vector) may be drawn in the view or next to it; false only for
    /// points that certainly are not.
    @inline(__always) func isNear(_ vector: SIMD3<Float>) -> Bool {
      guard (vector * up).sum() >= minimumUp else { return false }
      let e = (vector * east).sum()
      let n = (vector * north).sum()
      return e <= reachEast && -e <= reachWest && n <= reachNorth && -n <= reachSouth
    }

    /// Whether a box (degrees) may reach the cap's box.
    func mayReach(_ box: FixedBox, unitsPerDegree: Double) -> Bool {
      let south = Double(box.minLatitude) / unitsPerDegree
      let north = Double(box.maxLatitude) / unitsPerDegree
      guard north >= minLatitude, south <= maxLatitude else { return false }
      guard let reach = longitudeReach else { return true }
      let west = Double(box.minLongitude) / unitsPerDegree
      let east = Double(box.maxLongitude) / unitsPerDegree
      let low = viewport.centre.longitude - reach
      let high = viewport.centre.longitude + reach
      return [-360.0, 0, 360].contains { shift in west + shift <= high && east + shift >= low }
    }

    /// A coordinate's place on the map, in pixels.
    func point(latitude: Double, longitude: Double) -> MapPoint? {
      guard let coordinate = try? Coordinate(latitude: latitude, longitude: longitude),
        case .visible(let x, let y) = projection.project(coordinate)
      else { return nil }
      return MapPoint(
        x: viewport.centreX + x / viewport.metresPerPixel, y: viewport.centreY - y / viewport.metresPerPixel)
    }

    /// The coordinate at a map point, if any.
    func coordinate(at point: MapPoint) -> Coordinate? {
      projection.unproject(
        x: (point.x - viewport.centreX) * viewport.metresPerPixel,
        y: (viewport.centreY - point.y) * viewport.metresPerPixel)
    }
  }

  /// The parts of a layer's rings that come near the view, projected: one polyline per unbroken run.
  ///
  /// Vertices closer than half a pixel to the last one kept are skipped (a ring's last vertex never
  /// is), edges longer than ``Frame/longestEdge`` are split, and edges with neither end near the
  /// view are left out, breaking the polyline there.
  func polylines(of layer: DrawingLayer, in frame: Frame) -> (lines: [[MapPoint]], isSeam: [Bool]) {
    let units = Double(layer.unitsPerDegree)
    var isSeam: [Bool] = []
    let thinning = Int32(
      min(Double(Int32.max / 4), 0.5 * frame.viewport.metresPerPixel / 111_320 * units))
    let longest = Int32(Frame.longestEdge * units)
    let radians = Double.pi / 180 / units
    var result: [[MapPoint]] = []
    var line: [MapPoint] = []
    func flush(seam: Bool = false) {
      if line.count >= 2 {
        result.append(line)
        isSeam.append(seam)
      }
      line.removeAll(keepingCapacity: true)
    }
    for ring in layer.rings where frame.mayReach(ring.box, unitsPerDegree: units) {
      var previous: (point: FixedPoint, near: Bool)?
      let end = ring.start + ring.count
      for index in ring.start..<end {
        let fixed = layer.points[index]
        if let last = previous?.point, index != end - 1, abs(fixed.latitude - last.latitude) <= thinning,
          abs(fixed.longitude - last.longitude) <= thinning
        {
          continue
        }
        let near = frame.isNear(layer.vectors[index])
        defer { previous = (fixed, near) }
        guard let from = previous else { continue }
        // An edge that is not drawn (a seam, a country's coast) is a line of its own, so that strokes can
        // leave it out.
        let seam = !layer.stroked[index]
        if seam { flush() }
        defer { if seam { flush(seam: true) } }
        // Follow the shorter way round, as the data's edges do.
        var dLongitude = Int64(fixed.longitude) - Int64(from.point.longitude)
        let turn = Int64(360 * units)
        while dLongitude > turn / 2 { dLongitude -= turn }
        while dLongitude < -turn / 2 { dLongitude += turn }
        let dLatitude = Int64(fixed.latitude) - Int64(from.point.latitude)
        let steps = Int(max(1, (max(abs(dLatitude), abs(dLongitude)) + Int64(longest) - 1) / Int64(longest)))
        var last = (
          latitude: Double(from.point.latitude), longitude: Double(from.point.longitude), near: from.near
        )
        for step in 1...steps {
          let t = Double(step) / Double(steps)
          let next = (
            latitude: Double(from.point.latitude) + Double(dLatitude) * t,
            longitude: Double(from.point.longitude) + Double(dLongitude) * t
          )
          let nextNear =
            step == steps
            ? near
            : frame.isNear(
              SIMD3<Float>(unitVector(latitude: next.latitude * radians, longitude: next.longitude * radians))
            )
          if nextNear || last.near {
            if line.isEmpty,
              let start = frame.point(latitude: last.latitude / units, longitude: last.longitude / units)
            {
              line.append(start)
            }
            if let point = frame.point(latitude: next.latitude / units, longitude: next.longitude / units) {
              line.append(point)
            }
          } else {
            flush(seam: seam)
          }
          last = (next.latitude, next.longitude, nextNear)
        }
      }
      flush()
    }
    return (result, isSeam)
  }

  // MARK: - Land

  /// Land by the even-odd rule over the shorelines, anchored at a reference point whose answer comes
  /// from the coastline polygons.
  func fill(
    _ shorelines: [[MapPoint]], in frame: Frame, isLand: (Coordinate) -> Bool
  ) -> Bitmap {
    let viewport = frame.viewport
    var land = Bitmap(width: viewport.width, height: viewport.height)
    let (reference, referenceIsLand) = anchor(shorelines, in: frame, isLand: isLand)
    let left = -0.5
    // Parity at (left, reference.y): the reference's, plus the shorelines crossed going left.
    var parity = referenceIsLand
    // Crossings of the vertical line x = left, and of each row's scanline, right of it.
    var columnCrossings: [Double] = []
    var rows = [[Double]](repeating: [], count: viewport.height)
    for line in shorelines {
      for index in 1..<line.count {
        let a = line[index - 1]
        let b = line[index]
        if (a.y <= reference.y) != (b.y <= reference.y) {
          let x = a.x + (reference.y - a.y) * (b.x - a.x) / (b.y - a.y)
          if x > min(left, reference.x) && x < max(left, reference.x) { parity.toggle() }
        }
        if (a.x <= left) != (b.x <= left) {
          columnCrossings.append(a.y + (left - a.x) * (b.y - a.y) / (b.x - a.x))
        }
        let low = min(a.y, b.y)
        let high = max(a.y, b.y)
        guard a.y != b.y, high > 0, low < Double(viewport.height) else { continue }
        let first = max(0, Int((low - 0.5).rounded(.up)))
        let last = min(viewport.height - 1, Int((high - 0.5).rounded(.up)) - 1)
        guard first <= last else { continue }
        for row in first...last {
          let y = Double(row) + 0.5
          let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
          if x > left && x < Double(viewport.width) { rows[row].append(x) }
        }
      }
    }
    columnCrossings.sort()
    for row in 0..<viewport.height {
      let y = Double(row) + 0.5
      // Parity at (left, y): crossings of the column between the reference's row and this one.
      var inside = parity
      for crossing in columnCrossings
      where (crossing >= min(y, reference.y) && crossing < max(y, reference.y)) {
        inside.toggle()
      }
      var crossings = rows[row]
      crossings.sort()
      var next = 0
      for column in 0..<viewport.width {
        let x = Double(column) + 0.5
        while next < crossings.count, crossings[next] < x {
          inside.toggle()
          next += 1
        }
        if inside { land[column, row] = true }
      }
    }
    return land
  }

  /// A point whose land or water is known for certain, and that answer: the centre, or the nearest
  /// of a few points around it inside the view that lies at least a pixel from every shoreline drawn.
  ///
  /// Only shorelines near the view are drawn, so the point must be inside it: the paths from it to
  /// every pixel then cross only shorelines that are drawn.
  private func anchor(
    _ shorelines: [[MapPoint]], in frame: Frame, isLand: (Coordinate) -> Bool
  ) -> (MapPoint, Bool) {
    let viewport = frame.viewport
    let centre = MapPoint(x: viewport.centreX, y: viewport.centreY)
    var candidates = [centre]
    for radius in [2.0, 4, 8, 16, 32, 64] {
      for (dx, dy) in [(1.0, 0.0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
        let candidate = MapPoint(x: centre.x + dx * radius + 0.25, y: centre.y + dy * radius + 0.25)
        if candidate.x >= 0, candidate.y >= 0, candidate.x < Double(viewport.width),
          candidate.y < Double(viewport.height)
        {
          candidates.append(candidate)
        }
      }
    }
    // The first clear of every shore by a pixel; failing that, the clearest one.
    var best = (point: centre, clearance: -1.0)
    for candidate in candidates {
      let clearance = Self.clearance(of: candidate, from: shorelines)
      if clearance > best.clearance { best = (candidate, clearance) }
      if clearance >= 1 { break }
    }
    if let coordinate = frame.coordinate(at: best.point) {
      return (best.point, isLand(coordinate))
    }
    return (centre, isLand(viewport.centre))
  }

  /// The distance in pixels from a point to the nearest shoreline segment.
  static func clearance(of point: MapPoint, from lines: [[MapPoint]]) -> Double {
    var best = Double.infinity
    for line in lines {
      for index in 1..<line.count {
        let a = line[index - 1]
        let b = line[index]
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length)) : 0
        let ex = a.x + t * dx - point.x
        let ey = a.y + t * dy - point.y
        best = min(best, (ex * ex + ey * ey).squareRoot())
      }
    }
    return best
  }

  /// Border pixels on land with no sea within two pixels: borders drawn along a coast would only
  /// double the shoreline.
  static func inland(_ borders: Bitmap, land: Bitmap, coast: Bitmap) -> Bitmap {
    let width = land.width
    let height = land.height
    let reach = 2
    // Sea within `reach` along rows, then along columns.
    var across = Bitmap(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width where !land[x, y] {
        for dx in -reach...reach { across[x + dx, y] = true }
      }
    }
    var result = Bitmap(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width where borders[x, y] && land[x, y] && !coast[x, y] {
        var nearSea = false
        for dy in -reach...reach where across[x, y + dy] {
          nearSea = true
          break
        }
        if !nearSea { result[x, y] = true }
      }
    }
    return result
  }

  // MARK: - Places

  /// The places inside the view, at most `limit`, in ``MapData``'s label order (a capital's population
  /// counted four times).
  func places(in frame: Frame, limit: Int = 120) -> [MapPlace] {
    let layer = data.places
    let units = Double(layer.unitsPerDegree)
    let width = Double(frame.viewport.width)
    let height = Double(frame.viewport.height)
    var result: [MapPlace] = []
    for (order, vector) in data.placeVectors.enumerated() where frame.isNear(vector) {
      let place = Int(data.placesByRank[order])
      let latitude = Double(layer.latitudeUnits(at: place)) / units
      let longitude = Double(layer.longitudeUnits(at: place)) / units
      guard let point = frame.point(latitude: latitude, longitude: longitude),
        point.x >= 0, point.y >= 0, point.x < width, point.y < height
      else { continue }
      let details = layer.place(at: place)
      result.append(
        MapPlace(
          name: details.name, asciiName: details.asciiName, population: details.population,
          isCapital: layer.isCapital(at: place), point: point))
      if result.count == limit { break }
    }
    return result
  }
}

extension Bitmap {
  /// Draws every segment of a polyline.
  mutating func drawPolyline(_ line: [MapPoint]) {
    for index in 1..<line.count { drawLine(from: line[index - 1], to: line[index]) }
  }
}
