import TunnelSystem

/// A point in a layer's fixed-point units (``PolygonLayer/unitsPerDegree`` per degree), latitude first.
public struct FixedPoint: Sendable, Hashable {
  public var latitude: Int32
  public var longitude: Int32

  public init(latitude: Int32, longitude: Int32) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// A latitude/longitude box in a layer's fixed-point units, bounds included.
public struct FixedBox: Sendable, Hashable {
  public var minLatitude: Int32
  public var minLongitude: Int32
  public var maxLatitude: Int32
  public var maxLongitude: Int32

  /// Whether `point` lies in the box or on its edge.
  @inlinable public func contains(_ point: FixedPoint) -> Bool {
    point.latitude >= minLatitude && point.latitude <= maxLatitude && point.longitude >= minLongitude
      && point.longitude <= maxLongitude
  }
}

/// One ring of a polygon layer: its box, size and the feature it belongs to.
public struct PolygonRing: Sendable, Hashable {
  /// The ring's index in the layer.
  public var index: Int
  /// The feature the ring belongs to.
  public var feature: Int
  /// The ring's bounding box.
  public var box: FixedBox
  /// Vertices as stored: the ring is closed, so the last repeats the first.
  public var vertexCount: Int
}

/// A polygon layer of Tunnel's data: features made of rings, read straight from a memory-mapped file.
///
/// A feature's interior follows the even-odd rule across all of its rings (holes are rings too). Each
/// ring is stored closed and split into chunks of at most 64 edges; every chunk has its own bounding box
/// and starts with an absolute point followed by zigzag-varint deltas, so a query decodes only the
/// chunks its point can touch. Coordinates are fixed-point integers, ``unitsPerDegree`` per degree.
///
/// Nothing is decoded when the layer opens; ``rings(of:)``, ``forEachVertex(ofRing:_:)`` and
/// ``contains(_:feature:)`` read the mapped bytes on demand. Damaged content never traps: decoding stops at
/// the end of the stream.
public final class PolygonLayer: Sendable {
  let file: DataFile
  private let features: DataFile.Section
  private let attributes: DataFile.Section
  private let ringTable: DataFile.Section
  private let chunks: DataFile.Section
  private let stream: DataFile.Section
  private let grid: RingGrid
  let strings: StringTable

  /// Fixed-point units per degree of this layer's coordinates.
  public let unitsPerDegree: Int
  /// How many features the layer holds.
  public let featureCount: Int
  /// How many rings the layer holds.
  public let ringCount: Int
  /// How many vertices the layer holds (closing vertices included).
  public let vertexCount: Int
  /// The names of the per-feature string attributes, in order (e.g. `iso_a2`, `iso_a3`, `name`).
  public let attributeNames: [String]

  /// Edges per chunk, at most.
  public static let chunkEdges = 64

  init(file: DataFile) throws(PlaceDataError) {
    self.file = file
    featureCount = file.counts.0
    ringCount = file.counts.1
    vertexCount = file.counts.2
    unitsPerDegree = file.unitsPerDegree
    features = try file.section("FEAT", itemSize: 12, count: featureCount)
    attributes = try file.section("FATR", itemSize: 4, count: featureCount * file.attributesPerFeature)
    ringTable = try file.section("RING", itemSize: 32, count: ringCount)
    chunks = try file.section("CHNK", itemSize: 24)
    stream = try file.section("VSTR", itemSize: 1)
    strings = try StringTable(file: file)
    guard unitsPerDegree > 0, unitsPerDegree <= 10_000_000 else {
      throw .malformed(path: file.path, detail: "\(unitsPerDegree) units per degree")
    }
    grid = try RingGrid(file: file, section: file.section("RGRD", itemSize: 4), units: unitsPerDegree)
    attributeNames =
      file.attributesPerFeature == 0
      ? [] : (file.metadata("attributes") ?? "").split(separator: ",").map(String.init)
    guard attributeNames.count == file.attributesPerFeature else {
      throw .malformed(path: file.path, detail: "attribute names do not match the header")
    }
  }

  /// Lets the system drop the resident pages of the vertex stream (see ``DataFile/releasePages(of:)``):
  /// for a layer whose vertices have been decoded into an index.
  func releaseVertexStream() { file.releasePages(of: stream) }

  /// The file the layer was read from.
  public var path: String { file.path }

  /// A coordinate in this layer's fixed-point units (rounded to the nearest unit, halves away from zero).
  ///
  /// Rounded without the C library's `round` (`roundedHalfAway`): every lookup of every layer starts here,
  /// and the two calls were a fiftieth of a country batch.
  @inlinable public func fixedPoint(_ coordinate: Coordinate) -> FixedPoint {
    let scale = Double(unitsPerDegree)
    return FixedPoint(
      latitude: Int32(roundedHalfAway(coordinate.latitude * scale)),
      longitude: Int32(roundedHalfAway(coordinate.longitude * scale)))
  }

  /// A fixed-point point back in degrees.
  public func coordinate(_ point: FixedPoint) -> Coordinate {
    let scale = Double(unitsPerDegree)
    return Coordinate(
      uncheckedLatitude: min(90, max(-90, Double(point.latitude) / scale)),
      longitude: Double(point.longitude) / scale)
  }

  // MARK: Features

  /// The rings of a feature, as a range of ring indices.
  public func rings(of feature: Int) -> Range<Int> {
    precondition(feature >= 0 && feature < featureCount, "feature \(feature) out of range")
    let record = features.offset + 12 * feature
    let first = Int(file.u32(record))
    let count = Int(file.u32(record + 4))
    guard first <= ringCount, count <= ringCount - first else { return 0..<0 }
    return first..<(first + count)
  }

  /// The feature's level (GSHHG: 1 land, 2 lake, 3 island in lake, 4 pond, 5 Antarctic ice front; 0 elsewhere).
  public func level(of feature: Int) -> Int {
    precondition(feature >= 0 && feature < featureCount, "feature \(feature) out of range")
    return Int(file.i32(features.offset + 12 * feature + 8))
  }

  /// A string attribute of a feature by its position in ``attributeNames``; nil when absent.
  public func attribute(_ position: Int, of feature: Int) -> String? {
    precondition(feature >= 0 && feature < featureCount, "feature \(feature) out of range")
    precondition(position >= 0 && position < attributeNames.count, "attribute \(position) out of range")
    let index = file.u32(attributes.offset + 4 * (feature * attributeNames.count + position))
    return index == UInt32.max ? nil : strings.string(Int(index))
  }

  /// Whether a feature has the attribute at `position` (as ``attribute(_:of:)`` would say), without
  /// reading it.
  public func hasAttribute(_ position: Int, of feature: Int) -> Bool {
    precondition(feature >= 0 && feature < featureCount, "feature \(feature) out of range")
    precondition(position >= 0 && position < attributeNames.count, "attribute \(position) out of range")
    return file.u32(attributes.offset + 4 * (feature * attributeNames.count + position)) != UInt32.max
  }

  // MARK: Rings

  /// A ring's box, size and feature.
  public func ring(_ index: Int) -> PolygonRing {
    precondition(index >= 0 && index < ringCount, "ring \(index) out of range")
    let record = ringTable.offset + 32 * index
    return PolygonRing(
      index: index, feature: Int(file.u32(record + 28)), box: box(at: record),
      vertexCount: Int(file.u32(record + 20)))
  }

  /// The bounding box of a ring, read without building a ``PolygonRing``.
  @inline(__always) public func ringBox(_ index: Int) -> FixedBox {
    box(at: ringTable.offset + 32 * index)
  }

  @inline(__always) private func box(at offset: Int) -> FixedBox {
    FixedBox(
      minLatitude: file.i32(offset), minLongitude: file.i32(offset + 4), maxLatitude: file.i32(offset + 8),
      maxLongitude: file.i32(offset + 12))
  }

  /// Calls `body` with each chunk of a ring: its box, and a decoder for its vertices.
  ///
  /// Chunks follow one another along the ring and share their boundary vertex, so every edge of the ring
  /// lies inside exactly one chunk.
  @inline(__always) func forEachChunk(ofRing index: Int, _ body: (FixedBox, Int, Int) -> Void) {
    let record = ringTable.offset + 32 * index
    let firstChunk = file.u32(record + 24)
    let vertexCount = Int(file.u32(record + 20))
    // A chunk holds at most `chunkEdges` edges (Data/FORMAT.md): a count beyond that, in a file that passed
    // its checksums but was not written right, is cut there, so that decoding a ring costs no more than its
    // declared vertices however the records point into the stream.
    let mostVertices = PolygonLayer.chunkEdges + 1
    if firstChunk == UInt32.max {
      body(box(at: record), Int(file.u32(record + 16)), min(vertexCount, mostVertices))
      return
    }
    let chunkCount = (max(vertexCount, 2) - 2) / PolygonLayer.chunkEdges + 1
    guard Int(firstChunk) <= chunks.count, chunkCount <= chunks.count - Int(firstChunk) else { return }
    // The ring's chunk records, their blocks checked once: a ring of Eurasia's coast has thousands.
    let records = file.bytes(at: chunks.offset + 24 * Int(firstChunk), count: 24 * chunkCount)
    func u32(_ offset: Int) -> UInt32 {
      UInt32(littleEndian: records.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    for chunk in 0..<chunkCount {
      let record = 24 * chunk
      let box = FixedBox(
        minLatitude: Int32(bitPattern: u32(record)), minLongitude: Int32(bitPattern: u32(record + 4)),
        maxLatitude: Int32(bitPattern: u32(record + 8)), maxLongitude: Int32(bitPattern: u32(record + 12)))
      body(box, Int(u32(record + 16)), min(Int(u32(record + 20)), mostVertices))
    }
  }

  /// Decodes `count` vertices starting at `streamOffset` (an absolute point, then deltas).
  @inline(__always) func decode(streamOffset: Int, count: Int, _ body: (FixedPoint) -> Void) {
    let start = stream.offset + streamOffset
    let end = stream.offset + stream.byteCount
    guard streamOffset >= 0, start <= end, count > 0 else { return }
    // Every byte the vertices can take, their blocks checked once: a coordinate's varint stops at ten
    // bytes (its shift reaches 64), two coordinates a vertex. Reading byte by byte through the file would
    // check a block for each.
    let bytes = file.bytes(at: start, count: count > (end - start) / 20 ? end - start : count * 20)
    // The two coordinates, latitude first; each vertex adds a zigzag varint to each.
    var coordinates: (Int64, Int64) = (0, 0)
    var position = 0
    for _ in 0..<count {
      guard let (latitude, longitude) = Self.varintPair(bytes, &position) else { return }
      coordinates.0 &+= Int64(bitPattern: (latitude >> 1) ^ (0 &- (latitude & 1)))
      coordinates.1 &+= Int64(bitPattern: (longitude >> 1) ^ (0 &- (longitude & 1)))
      body(
        FixedPoint(
          latitude: Int32(truncatingIfNeeded: coordinates.0),
          longitude: Int32(truncatingIfNeeded: coordinates.1)))
    }
  }

  /// The two varints at `position` in `bytes` (a vertex's latitude and longitude deltas), moving
  /// `position` past both; nil when the bytes end first or one runs past ten bytes: ``varint(_:_:)`` twice.
  @inline(__always) static func varintPair(
    _ bytes: UnsafeRawBufferPointer, _ position: inout Int
  ) -> (UInt64, UInt64)? {
    // Both from one load of eight bytes where both end in them (most vertices: a byte or two each), so
    // that the next vertex's load waits for one count of stops, not two loads and counts.
    if position &+ 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let stops = ~word & 0x8080_8080_8080_8080
      let secondStops = stops & (stops &- 1)
      if secondStops != 0 {
        let firstBits = stops.trailingZeroBitCount &+ 1
        let bits = secondStops.trailingZeroBitCount &+ 1
        position &+= bits &>> 3
        let first = word & ((1 &<< UInt64(firstBits)) &- 1)
        let second = (bits == 64 ? word : word & ((1 &<< UInt64(bits)) &- 1)) &>> UInt64(firstBits)
        return (packed(first), packed(second))
      }
    }
    guard let first = varint(bytes, &position), let second = varint(bytes, &position) else { return nil }
    return (first, second)
  }

  /// The seven-bit groups of a varint's bytes (its last below 0x80, at most eight) packed down, without a
  /// branch a byte.
  @inline(__always) private static func packed(_ value: UInt64) -> UInt64 {
    var result = value & 0x7F
    result |= (value &>> 1) & (0x7F &<< 7)
    result |= (value &>> 2) & (0x7F &<< 14)
    result |= (value &>> 3) & (0x7F &<< 21)
    result |= (value &>> 4) & (0x7F &<< 28)
    result |= (value &>> 5) & (0x7F &<< 35)
    result |= (value &>> 6) & (0x7F &<< 42)
    result |= (value &>> 7) & (0x7F &<< 49)
    return result
  }

  /// The varint at `position` in `bytes` (seven bits a byte, the lowest first, a byte below 0x80 the
  /// last), moving `position` past it; nil when the bytes end first or it runs past ten bytes.
  @inline(__always) static func varint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> UInt64? {
    // Eight bytes at once where there are as many: the first byte below 0x80 ends the varint, and its
    // seven-bit groups are packed down without a branch a byte (most vertices' varints are one or two
    // bytes, in no order a branch could learn).
    if position &+ 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
      let stops = ~word & 0x8080_8080_8080_8080
      if stops != 0 {
        let bits = stops.trailingZeroBitCount &+ 1
        let value = bits == 64 ? word : word & ((1 &<< UInt64(bits)) &- 1)
        position &+= bits &>> 3
        return packed(value)
      }
    }
    // Near the end, and for varints of nine or ten bytes: a byte at a time.
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < bytes.count, shift < 64 else { return nil }
      let byte = bytes.load(fromByteOffset: position, as: UInt8.self)
      position += 1
      result |= UInt64(byte & 0x7F) << shift
      shift += 7
      if byte < 0x80 { return result }
    }
  }

  /// Calls `body` with every vertex of a ring in order; the ring is closed (the last vertex repeats the first).
  public func forEachVertex(ofRing index: Int, _ body: (FixedPoint) -> Void) {
    precondition(index >= 0 && index < ringCount, "ring \(index) out of range")
    var first = true
    forEachChunk(ofRing: index) { _, offset, count in
      var skip = !first  // a chunk's first vertex is the previous chunk's last
      first = false
      decode(streamOffset: offset, count: count) { point in
        if skip { skip = false } else { body(point) }
      }
    }
  }

  /// The vertices of a ring, closed.
  public func vertices(ofRing index: Int) -> [FixedPoint] {
    var result: [FixedPoint] = []
    // Each vertex takes at least two bytes of the stream, whatever the ring's record says.
    result.reserveCapacity(min(ring(index).vertexCount, stream.byteCount / 2 + 1))
    forEachVertex(ofRing: index) { result.append($0) }
    return result
  }

  // MARK: Containment

  /// Whether the point lies inside the feature by the even-odd rule over its rings.
  ///
  /// Casts a ray along the point's latitude and counts the edges it crosses; chunks whose boxes the ray
  /// cannot meet are skipped without decoding.
  public func contains(_ point: FixedPoint, feature: Int) -> Bool {
    var inside = false
    for ring in rings(of: feature) where ringCrossings(point, ring: ring) {
      inside.toggle()
    }
    return inside
  }

  /// Whether a ray from `point` along its latitude crosses the ring an odd number of times, that is,
  /// whether the ring holds the point.
  public func ringCrossings(_ point: FixedPoint, ring index: Int) -> Bool {
    let ringBox = ringBox(index)
    // Outside the box, a ray away from it meets no edge.
    guard point.latitude >= ringBox.minLatitude, point.latitude < ringBox.maxLatitude,
      point.longitude >= ringBox.minLongitude, point.longitude <= ringBox.maxLongitude
    else { return false }
    // The ray goes to the nearer side of the ring's box, so that fewer chunks lie across its way (from
    // Jutland, west across a few kilometres of coast rather than east across all of Eurasia). Every edge
    // the line through the point crosses is counted by exactly one of the two rays (an edge through the
    // point by the western one), and a closed ring has an even number of such edges, so both rays give
    // the same parity, on an edge too.
    let westward = Int64(point.longitude) - Int64(ringBox.minLongitude)
    let west = westward < Int64(ringBox.maxLongitude) - Int64(point.longitude)
    var odd = false
    let y = Int64(point.latitude)
    let x = Int64(point.longitude)
    forEachChunk(ofRing: index) { box, offset, count in
      guard point.latitude >= box.minLatitude, point.latitude < box.maxLatitude,
        west ? point.longitude >= box.minLongitude : point.longitude <= box.maxLongitude
      else { return }
      var previous: FixedPoint? = nil
      decode(streamOffset: offset, count: count) { current in
        defer { previous = current }
        guard let a = previous else { return }
        let ay = Int64(a.latitude)
        let by = Int64(current.latitude)
        guard (ay > y) != (by > y) else { return }
        // x-coordinate of the crossing compared with x, exactly in integers: 128 bits, since differences of
        // any two 32-bit coordinates (a damaged file's are any) multiply past 64.
        let ax = Int64(a.longitude)
        let bx = Int64(current.longitude)
        let lhs = Int128(x - ax) * Int128(by - ay)
        let rhs = Int128(bx - ax) * Int128(y - ay)
        // East of the point: the crossing's x is greater than x.
        let east = by > ay ? lhs < rhs : lhs > rhs
        if east != west { odd.toggle() }
      }
    }
    return odd
  }

  /// The side of a ring grid cell in fixed-point units.
  var ringGridCellUnits: Int64 { grid.cellUnits }

  /// The rings whose boxes meet a range of latitudes and longitudes in fixed-point units (`west` may be
  /// above `east` across the antimeridian), in ring order, by the ring grid: at least every such ring, and
  /// the rings whose boxes span many cells (Data/FORMAT.md).

  func rings(meetingLatitudes south: Int64, _ north: Int64, longitudes west: Int64, _ east: Int64) -> [Int] {
    var found: [Int] = []
    func collect(_ west: Int64, _ east: Int64) {
      grid.forEachRing(
        meetingLatitudes: south, north, longitudes: west, east, in: file, ringCount: ringCount
      ) { found.append($0) }
    }
    if west <= east {
      collect(west, east)
    } else {
      collect(west, 180 * Int64(unitsPerDegree))
      collect(-180 * Int64(unitsPerDegree), east)
    }
    found.sort()
    var unique: [Int] = []
    unique.reserveCapacity(found.count)
    for ring in found where unique.last != ring { unique.append(ring) }
    return unique
  }

  /// The features containing a coordinate, in feature order.
  public func features(containing coordinate: Coordinate) -> [Int] {
    features(containing: fixedPoint(coordinate))
  }

  /// The features containing a point in fixed-point units, in feature order.
  ///
  /// Only the rings that the layer's ring grid lists for the point's cell are tested, so a query reads a
  /// few blocks of the file, not the whole ring table.
  public func features(containing point: FixedPoint) -> [Int] {
    // The features crossed an odd number of times so far: a few at most.
    var odd: [Int] = []
    grid.forEachRing(mayContaining: point, in: file, ringCount: ringCount) { index in
      if ringCrossings(point, ring: index) {
        let feature = Int(file.u32(ringTable.offset + 32 * index + 28))
        guard feature < featureCount else { return }
        if let found = odd.firstIndex(of: feature) { odd.remove(at: found) } else { odd.append(feature) }
      }
    }
    return odd.sorted()
  }
}

/// A polygon layer's ring grid (Data/FORMAT.md, `RGRD`): for each cell of a latitude/longitude grid, the rings
/// whose boxes meet the cell, each with its box in steps of a 256th of the cell; and, once each, the rings
/// whose boxes cover too many cells to list in every one ("wide" rings), with their boxes.
///
/// The steps are rounded down from the box's edges, so a ring whose box holds a point always passes the
/// test of its steps; a ring that passes is then tested exactly. Every count and offset read from the file is
/// bounded: a section that lies about them makes answers wrong, never a read outside the section.
struct RingGrid: Sendable {
  private let cell: Int64
  private let rows: Int
  private let columns: Int
  private let south: Int64
  private let west: Int64
  private let offsets: Int
  private let wide: Int
  private let wideCount: Int
  private let entries: Int
  private let entryCount: Int

  static let steps: Int64 = 256
  static let wideRecordSize = 20

  /// The side of a cell in fixed-point units.
  var cellUnits: Int64 { cell }
  static let entrySize = 8

  init(file: DataFile, section: DataFile.Section, units: Int) throws(PlaceDataError) {
    guard section.count >= 5 else { throw .malformed(path: file.path, detail: "the ring grid is too short") }
    cell = Int64(file.u32(section.offset))
    rows = Int(file.u32(section.offset + 4))
    columns = Int(file.u32(section.offset + 8))
    wideCount = Int(file.u32(section.offset + 12))
    // Each side is bounded before the product is taken: two counts near 2³² would overflow it.
    guard cell > 0, rows > 0, columns > 0, rows <= 1 << 16, columns <= 1 << 16 else {
      throw .malformed(path: file.path, detail: "the ring grid's counts do not fit its section")
    }
    let cells = rows * columns
    guard 4 + cells + 1 <= section.count,
      wideCount <= (section.count - 4 - cells - 1) * 4 / Self.wideRecordSize
    else { throw .malformed(path: file.path, detail: "the ring grid's counts do not fit its section") }
    south = -90 * Int64(units)
    west = -180 * Int64(units)
    offsets = section.offset + 16
    wide = offsets + 4 * (cells + 1)
    entries = wide + Self.wideRecordSize * wideCount
    entryCount = (section.offset + section.byteCount - entries) / Self.entrySize
  }

  /// A row or column of the grid: the cell holding `value` from `start`, the edge cells taking whatever
  /// lies beyond them.
  @inline(__always) private func cellIndex(_ value: Int64, from start: Int64, count: Int) -> Int {
    let offset = value - start
    return offset < 0 ? 0 : Int(min(offset / cell, Int64(count - 1)))
  }

  /// The step (0…255) of `value` across the cell starting at `start`, clamped as the writer clamps.
  @inline(__always) private func step(_ value: Int64, from start: Int64) -> UInt32 {
    let offset = value - start
    return offset < 0 ? 0 : UInt32(min(offset * Self.steps / cell, Self.steps - 1))
  }

  /// Rings listed in more than this many cells are the grid's wide rings (Data/FORMAT.md).
  static let mostCellsOfARing = 16

  /// Calls `body` with every wide ring and every ring listed in a cell that meets the rows holding
  /// latitudes `south...north` and the columns holding longitudes `west...east` (fixed-point units,
  /// `west <= east`, within the grid's longitudes): at least every ring whose box meets that range. A ring
  /// listed in several of those cells comes once for each.
  func forEachRing(
    meetingLatitudes south: Int64, _ north: Int64, longitudes west: Int64, _ east: Int64, in file: DataFile,
    ringCount: Int, _ body: (Int) -> Void
  ) {
    for record in stride(from: wide, to: wide + Self.wideRecordSize * wideCount, by: Self.wideRecordSize) {
      let ring = Int(file.u32(record))
      if ring < ringCount { body(ring) }
    }
    let rowRange =
      cellIndex(south, from: self.south, count: rows)...cellIndex(north, from: self.south, count: rows)
    let columnRange =
      cellIndex(west, from: self.west, count: columns)...cellIndex(east, from: self.west, count: columns)
    for row in rowRange {
      for column in columnRange {
        let slot = offsets + 4 * (row * columns + column)
        let first = Int(file.u32(slot))
        let last = Int(file.u32(slot + 4))
        guard first <= last, last <= entryCount else { continue }
        for record in stride(
          from: entries + Self.entrySize * first, to: entries + Self.entrySize * last, by: Self.entrySize)
        {
          let ring = Int(file.u32(record))
          if ring < ringCount { body(ring) }
        }
      }
    }
  }

  /// Calls `body` with every ring whose box may hold `point`: at least every ring whose box does.
  @inline(__always) func forEachRing(
    mayContaining point: FixedPoint, in file: DataFile, ringCount: Int, _ body: (Int) -> Void
  ) {
    let latitude = Int64(point.latitude)
    let longitude = Int64(point.longitude)
    for record in stride(from: wide, to: wide + Self.wideRecordSize * wideCount, by: Self.wideRecordSize) {
      guard point.latitude >= file.i32(record + 4), point.longitude >= file.i32(record + 8),
        point.latitude <= file.i32(record + 12), point.longitude <= file.i32(record + 16)
      else { continue }
      let ring = Int(file.u32(record))
      if ring < ringCount { body(ring) }
    }
    let row = cellIndex(latitude, from: south, count: rows)
    let column = cellIndex(longitude, from: west, count: columns)
    let slot = offsets + 4 * (row * columns + column)
    let first = Int(file.u32(slot))
    let last = Int(file.u32(slot + 4))
    guard first <= last, last <= entryCount else { return }
    let latitudeStep = step(latitude, from: south + Int64(row) * cell)
    let longitudeStep = step(longitude, from: west + Int64(column) * cell)
    for record in stride(
      from: entries + Self.entrySize * first, to: entries + Self.entrySize * last, by: Self.entrySize)
    {
      let steps = file.u32(record + 4)
      guard latitudeStep >= steps & 0xFF, longitudeStep >= steps >> 8 & 0xFF,
        latitudeStep <= steps >> 16 & 0xFF, longitudeStep <= steps >> 24
      else { continue }
      let ring = Int(file.u32(record))
      if ring < ringCount { body(ring) }
    }
  }
}
