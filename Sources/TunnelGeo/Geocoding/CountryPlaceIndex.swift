/// The places of each country in a k-d tree of their own, for the nearest place of one country (a
/// point's region, a shoreline point's name) without walking past the places of its neighbours.
///
/// The answers are those of ``NearestPlaceSearch`` with a filter on the country: the place of that
/// country with the smallest squared chord below the limit, ties to the lower index. The trees split on
/// the exact vectors of ``PlaceVectorArray``, so a query measures the same numbers as the full search.
/// A country's tree is implicit: its places are stored in tree order (the middle of every range splits
/// it), with the split axis of each.
struct CountryPlaceIndex: Sendable {
  let vectors: PlaceVectorArray
  /// Place indices, country after country, each country's in tree order.
  private let members: [Int32]
  /// Per entry of ``members``: the axis its range splits on (0 x, 1 y, 2 z).
  private let axes: [UInt8]
  /// Per country slot (see ``slot(_:)``): its range of ``members``.
  private let starts: [Int32]

  /// Ranges this small are scanned rather than split.
  private static let leafSize = 6

  init(places: PlaceLayer, vectors: PlaceVectorArray) {
    self.vectors = vectors
    // Counting sort by country slot; places without a two-letter code go nowhere.
    var counts = [Int32](repeating: 0, count: Self.slotCount + 1)
    for index in 0..<places.count {
      if let slot = Self.slot(places.countryCodeValue(at: index)) { counts[slot + 1] += 1 }
    }
    for slot in 0..<Self.slotCount { counts[slot + 1] += counts[slot] }
    starts = counts
    var members = [Int32](repeating: 0, count: Int(counts[Self.slotCount]))
    var fill = counts
    for index in 0..<places.count {
      guard let slot = Self.slot(places.countryCodeValue(at: index)) else { continue }
      members[Int(fill[slot])] = Int32(index)
      fill[slot] += 1
    }
    var axes = [UInt8](repeating: 0, count: members.count)
    for slot in 0..<Self.slotCount {
      Self.arrange(&members, &axes, Int(counts[slot])..<Int(counts[slot + 1]), vectors)
    }
    self.members = members
    self.axes = axes
  }

  private init(vectors: PlaceVectorArray, members: [Int32], axes: [UInt8], starts: [Int32]) {
    self.vectors = vectors
    self.members = members
    self.axes = axes
    self.starts = starts
  }

  /// The index of `places` kept in `cache` (an ``IndexCacheFile``, magic `TUNLCPLC`, named and keyed after the
  /// place file's checksum and size), or a new one built and saved there: building it sorts every place, which
  /// takes a moment optimised and seconds in a debug build. A file that fails a check (the signature, a range,
  /// an index past the places) is ignored, and replaced by the new one.
  static func cached(places: PlaceLayer, vectors: PlaceVectorArray, cache: IndexCache?) -> CountryPlaceIndex {
    guard let cache else { return CountryPlaceIndex(places: places, vectors: vectors) }
    let (magic, version): (String, UInt32) = ("TUNLCPLC", 1)
    let checksum = String(places.file.payloadChecksum, radix: 16)
    let name = "country-places-v\(version)-\(checksum)-\(places.file.size)-\(leafSize).bin"
    let keys =
      [version, UInt32(leafSize), UInt32(places.count), places.file.payloadChecksum]
      + IndexCacheFile.keys(places.file.size)
    if var file = IndexCacheFile.Reader(name, in: cache, magic: magic, keys: keys, arrays: 3),
      let members = file.read(Int32.self), let axes = file.read(UInt8.self),
      let starts = file.read(Int32.self),
      file.finish(), Self.valid(members: members, axes: axes, starts: starts, placeCount: places.count)
    {
      return CountryPlaceIndex(vectors: vectors, members: members, axes: axes, starts: starts)
    }
    let built = CountryPlaceIndex(places: places, vectors: vectors)
    IndexCacheFile.save(
      name, in: cache, magic: magic, keys: keys,
      arrays: [CacheArray(built.members), CacheArray(built.axes), CacheArray(built.starts)])
    return built
  }

  /// Whether arrays read back can be walked: a range per slot, in order, covering every member; every member a
  /// place; every axis one of three.
  private static func valid(members: [Int32], axes: [UInt8], starts: [Int32], placeCount: Int) -> Bool {
    guard starts.count == slotCount + 1, axes.count == members.count, starts.first == 0,
      starts.last.map(Int.init) == members.count
    else { return false }
    for slot in 0..<slotCount where starts[slot] > starts[slot + 1] { return false }
    return members.allSatisfy { $0 >= 0 && Int($0) < placeCount } && axes.allSatisfy { $0 <= 2 }
  }

  /// How many places the trees hold (those with a two-letter country code).
  var count: Int { members.count }
  /// Bytes held (the vectors belong to the nearest-place grid).
  var byteCount: Int { members.count * 5 + starts.count * 4 }

  /// The country slots: one per pair of capital letters.
  private static let slotCount = 26 * 26

  /// The slot of a country code as ``PlaceLayer`` stores it (first letter low), nil for one that is not
  /// two capital letters.
  private static func slot(_ value: UInt16) -> Int? {
    let (first, second) = (Int(value & 0xFF) - 65, Int(value >> 8) - 65)
    guard (0..<26).contains(first), (0..<26).contains(second) else { return nil }
    return first * 26 + second
  }

  /// Puts `range` of `members` in tree order: the middle entry splits the rest on the axis along which
  /// they spread most, the nearer half before it.
  private static func arrange(
    _ members: inout [Int32], _ axes: inout [UInt8], _ range: Range<Int>, _ vectors: PlaceVectorArray
  ) {
    guard range.count > leafSize else { return }
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for position in range {
      let vector = vectors.vector(Int(members[position]))
      low = pointwiseMin(low, vector)
      high = pointwiseMax(high, vector)
    }
    let spread = high - low
    let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
    let middle = range.lowerBound + range.count / 2
    select(&members, range, middle) { vectors.vector(Int($0))[axis] }
    axes[middle] = UInt8(axis)
    arrange(&members, &axes, range.lowerBound..<middle, vectors)
    arrange(&members, &axes, (middle + 1)..<range.upperBound, vectors)
  }

  /// Reorders `range` so that the entry at `target` is the one a sort by `value` would put there, with
  /// no larger value before it and no smaller one after it (quickselect).
  private static func select(
    _ members: inout [Int32], _ range: Range<Int>, _ target: Int, _ value: (Int32) -> Double
  ) {
    var (low, high) = (range.lowerBound, range.upperBound - 1)
    while low < high {
      let pivot = value(members[(low + high) / 2])
      var (i, j) = (low, high)
      while i <= j {
        while value(members[i]) < pivot { i += 1 }
        while value(members[j]) > pivot { j -= 1 }
        if i <= j {
          members.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if target <= j {
        high = j
      } else if target >= i {
        low = i
      } else {
        return
      }
    }
  }

  /// The place of the country whose code is `countryCode` (as ``PlaceLayer`` stores it) nearest to
  /// `query` with a squared chord below `limit`, and that squared chord; nil when there is none.
  func nearest(
    to query: SIMD3<Double>, countryCode: UInt16, within limit: Double
  ) -> (index: Int, chordSquared: Double)? {
    guard let slot = Self.slot(countryCode) else { return nil }
    var walk = Walk(query: query, bestSquared: limit)
    members.withUnsafeBufferPointer { members in
      axes.withUnsafeBufferPointer { axes in
        walk.visit(Int(starts[slot])..<Int(starts[slot + 1]), boundSquared: 0, members, axes, vectors)
      }
    }
    return walk.best >= 0 ? (walk.best, walk.bestSquared) : nil
  }

  private struct Walk {
    let query: SIMD3<Double>
    var best = -1
    var bestSquared: Double
    /// Per axis: how far the query lies outside the current range's box along it.
    var offsets = SIMD3<Double>(repeating: 0)

    init(query: SIMD3<Double>, bestSquared: Double) {
      self.query = query
      self.bestSquared = bestSquared
    }

    @inline(__always) mutating func consider(_ index: Int, _ point: SIMD3<Double>) {
      let squared = SphereGeometry.chordSquared(query, point)
      if squared < bestSquared || (squared == bestSquared && index < best) {
        (best, bestSquared) = (index, squared)
      }
    }

    mutating func visit(
      _ range: Range<Int>, boundSquared: Double, _ members: UnsafeBufferPointer<Int32>,
      _ axes: UnsafeBufferPointer<UInt8>, _ vectors: PlaceVectorArray
    ) {
      if range.count <= CountryPlaceIndex.leafSize {
        for position in range {
          let index = Int(members[position])
          consider(index, vectors.vector(index))
        }
        return
      }
      let middle = range.lowerBound + range.count / 2
      let index = Int(members[middle])
      let point = vectors.vector(index)
      consider(index, point)
      let axis = Int(axes[middle])
      let difference = query[axis] - point[axis]
      let (near, far) =
        difference <= 0
        ? (range.lowerBound..<middle, (middle + 1)..<range.upperBound)
        : ((middle + 1)..<range.upperBound, range.lowerBound..<middle)
      visit(near, boundSquared: boundSquared, members, axes, vectors)
      let old = offsets[axis]
      let offset = max(old, abs(difference))
      let farBound = boundSquared - old * old + offset * offset
      if farBound <= bestSquared {
        offsets[axis] = offset
        visit(far, boundSquared: farBound, members, axes, vectors)
        offsets[axis] = old
      }
    }
  }
}
