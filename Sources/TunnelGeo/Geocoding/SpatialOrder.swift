/// An order of coordinates along a Z-order (Morton) curve over latitude and longitude.
///
/// Points answered one after another in this order lie near each other, so they share the cells, tree
/// nodes and vertices every index reads: the cache holds what the next point needs. A large batch of
/// points spread over the whole sphere answers 1.4–2 times as fast in this order as in a random one
/// (`Scripts/bench --placemarks` measures both). The order changes only the speed, never an answer.
///
/// The land, the country and the time zone read indexes small enough to stay in the cache in any order:
/// sorted first, a million uniform points took 1–3 % longer for each of them alone, so they are answered
/// in their own order (``pays(for:)``). The nearest place alone gains 5 %; the searches of shores, borders
/// and regions gain the most.
enum SpatialOrder {
  /// Batches shorter than this are answered in their own order: sorting them gains nothing.
  static let threshold = 1_024

  /// Whether points answered with `fields` are worth sorting: some field asked for is not the land, the
  /// country or the time zone.
  static func pays(for fields: Placemark.Fields) -> Bool {
    !fields.subtracting([.land, .country, .timeZone]).isEmpty
  }

  /// Bits of latitude, and of longitude, in a key: cells of 180 / 2¹¹ degrees of latitude (10 km) by
  /// 360 / 2¹¹ of longitude. A finer grid orders a chunk's points no better for the cache: points that
  /// close read the same cells and nodes of every index.
  static let bitsPerAxis = 11

  /// The positions of `coordinates`, sorted by their cell on a 2¹¹ × 2¹¹ grid of latitude and longitude
  /// in Z-order (ties keep their input order).
  ///
  /// - Complexity: O(n): a pass that makes the keys and counts both halves of them, then two passes of a
  /// radix sort, 11 bits at a time (the counts of a pass fit in the first-level cache).
  static func positions(of coordinates: UnsafeBufferPointer<Coordinate>) -> [UInt32] {
    precondition(coordinates.count <= Int(UInt32.max), "too many coordinates")
    let count = coordinates.count
    let bits = bitsPerAxis
    let mask = UInt64(1 << bits - 1)
    // Each item is its key (high 32 bits) and its position (low 32 bits). Counts of the low digit first,
    // then of the high one, each shifted by one for the prefix sums.
    var counts = [Int](repeating: 0, count: 2 << bits + 2)
    var items = [UInt64](unsafeUninitializedCapacity: count) { items, initialized in
      counts.withUnsafeMutableBufferPointer { counts in
        for position in 0..<count {
          let key = UInt64(key(coordinates[position]))
          items[position] = key << 32 | UInt64(position)
          counts[Int(key & mask) + 1] += 1
          counts[(1 << bits + 1) + Int(key >> UInt64(bits)) + 1] += 1
        }
      }
      initialized = count
    }
    return counts.withUnsafeMutableBufferPointer { counts in
      let low = UnsafeMutableBufferPointer(rebasing: counts[0..<(1 << bits + 1)])
      let high = UnsafeMutableBufferPointer(rebasing: counts[(1 << bits + 1)...])
      for digit in 0..<(1 << bits) {
        low[digit + 1] += low[digit]
        high[digit + 1] += high[digit]
      }
      let scratch = [UInt64](unsafeUninitializedCapacity: count) { scratch, initialized in
        for item in items {
          let digit = Int((item >> 32) & mask)
          scratch[low[digit]] = item
          low[digit] += 1
        }
        initialized = count
      }
      items = []
      return [UInt32](unsafeUninitializedCapacity: count) { positions, initialized in
        for item in scratch {
          let digit = Int(item >> UInt64(32 + bits))
          positions[high[digit]] = UInt32(truncatingIfNeeded: item)
          high[digit] += 1
        }
        initialized = count
      }
    }
  }

  /// The coordinate's cell with the bits of its latitude and longitude interleaved (longitude on the
  /// even bits).
  static func key(_ coordinate: Coordinate) -> UInt32 {
    let scale = Double(1 << bitsPerAxis - 1)
    let row = UInt32(max(0, min(scale, (coordinate.latitude + 90) * (scale / 180))))
    let column = UInt32(max(0, min(scale, (coordinate.longitude + 180) * (scale / 360))))
    return spread(column) | spread(row) << 1
  }

  /// The low 16 bits of `value` moved to the even bits.
  private static func spread(_ value: UInt32) -> UInt32 {
    var bits = value & 0xFFFF
    bits = (bits | bits << 8) & 0x00FF_00FF
    bits = (bits | bits << 4) & 0x0F0F_0F0F
    bits = (bits | bits << 2) & 0x3333_3333
    bits = (bits | bits << 1) & 0x5555_5555
    return bits
  }
}
