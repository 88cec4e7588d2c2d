#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A populated place from GeoNames (cities500).
public struct Place: Sendable, Hashable, Codable {
  /// The place's position in ``PlaceLayer`` (its slot in the implicit k-d tree).
  public var index: Int
  /// The GeoNames identifier.
  public var geonameID: Int
  /// The name in its usual local spelling ("København" is stored as GeoNames has it: "Copenhagen").
  public var name: String
  /// The name folded to ASCII ("Sankt Pölten" → "Sankt Polten").
  public var asciiName: String
  /// ISO 3166-1 alpha-2 country code.
  public var countryCode: String
  /// The first-level region, when GeoNames gives one.
  public var region: Region?
  /// Inhabitants; 0 when GeoNames does not know (often seats of administrations).
  public var population: Int
  /// The IANA time zone identifier.
  public var timeZone: String
  /// Where the place is.
  public var coordinate: Coordinate
}

/// A first-level administrative region (GeoNames admin-1), with its ISO 3166-2 code where one exists.
public struct Region: Sendable, Hashable, Codable {
  /// The region's position in ``PlaceLayer``'s region table.
  public var index: Int
  /// ISO 3166-1 alpha-2 code of the country.
  public var countryCode: String
  /// GeoNames' admin-1 code within the country (`"18"` for Midtjylland, DK).
  public var code: String
  /// The region's name (`"Midtjylland"`); empty when unknown.
  public var name: String
  /// ISO 3166-2 code (`"DK-82"`); nil when none is known.
  public var isoCode: String?
}

/// A place found through the name index.
public struct PlaceNameMatch: Sendable, Hashable {
  /// The place's index in ``PlaceLayer``.
  public var place: Int
  /// Whether the key matched one of the place's alternate names rather than its name or ASCII name.
  public var viaAlternateName: Bool
}

/// All GeoNames places with population, region, time zone and a name index, memory-mapped.
///
/// Places are stored in the order of an implicit balanced k-d tree over their unit vectors: the node
/// for index range `lo..<hi` is the place at `mid = lo + (hi - lo) / 2`, its split axis is
/// ``splitAxis(at:)`` (0 x, 1 y, 2 z of the unit vector `(cos φ cos λ, cos φ sin λ, sin φ)`), places in
/// `lo..<mid` are not above it on that axis and places in `mid+1..<hi` not below. A nearest-place search
/// can walk that tree directly, with no build step. Coordinates are fixed-point, 10⁷ units per degree
/// (GeoNames' values exactly).
///
/// The name index maps every search key (``PlaceNameKey/fold(_:)`` of a name, ASCII name or alternate
/// name) to its places, best first: name matches before alternate-name matches, then by population.
public final class PlaceLayer: Sendable {
  let file: DataFile
  private let coordinates: DataFile.Section
  private let axes: DataFile.Section
  private let records: DataFile.Section
  private let regionRecords: DataFile.Section
  private let zoneRecords: DataFile.Section
  private let blocks: DataFile.Section
  private let keyStream: DataFile.Section
  private let strings: StringTable

  /// How many places there are.
  public let count: Int
  /// How many regions the region table holds.
  public let regionCount: Int
  /// How many distinct search keys the name index holds.
  public let keyCount: Int
  /// Fixed-point units per degree of ``latitudeUnits(at:)`` and ``longitudeUnits(at:)`` (10⁷).
  public let unitsPerDegree: Int
  /// Keys per front-coded block of the name index.
  static let nameIndexBlock = 32

  init(file: DataFile) throws(PlaceDataError) {
    self.file = file
    count = file.counts.0
    regionCount = file.counts.1
    keyCount = file.counts.2
    unitsPerDegree = file.unitsPerDegree
    coordinates = try file.section("PLLD", itemSize: 8, count: count)
    axes = try file.section("KDAX", itemSize: 1, count: count)
    records = try file.section("PREC", itemSize: 24, count: count)
    regionRecords = try file.section("RGNS", itemSize: 16, count: regionCount)
    zoneRecords = try file.section("TZNS", itemSize: 4)
    blocks = try file.section(
      "NIXB", itemSize: 4, count: (keyCount + PlaceLayer.nameIndexBlock - 1) / PlaceLayer.nameIndexBlock + 1)
    keyStream = try file.section("NIXS", itemSize: 1)
    strings = try StringTable(file: file)
    guard unitsPerDegree == 10_000_000 else {
      throw .malformed(path: file.path, detail: "\(unitsPerDegree) units per degree, expected 10000000")
    }
  }

  /// The file the layer was read from.
  public var path: String { file.path }

  // MARK: Coordinates and the k-d tree

  /// Latitude of a place in 10⁻⁷ degrees.
  @inline(__always) public func latitudeUnits(at index: Int) -> Int32 {
    file.i32(coordinates.offset + 8 * index)
  }

  /// Longitude of a place in 10⁻⁷ degrees.
  @inline(__always) public func longitudeUnits(at index: Int) -> Int32 {
    file.i32(coordinates.offset + 8 * index + 4)
  }

  /// Where a place is.
  public func coordinate(at index: Int) -> Coordinate {
    precondition(index >= 0 && index < count, "place \(index) out of range")
    let scale = Double(unitsPerDegree)
    return Coordinate(
      uncheckedLatitude: min(90, max(-90, Double(latitudeUnits(at: index)) / scale)),
      longitude: Double(longitudeUnits(at: index)) / scale)
  }

  /// The unit vector `(cos φ cos λ, cos φ sin λ, sin φ)` of a place.
  public func unitVector(at index: Int) -> SIMD3<Double> {
    let scale = Double.pi / 180 / Double(unitsPerDegree)
    let latitude = SphereGeometry.sineCosine(Double(latitudeUnits(at: index)) * scale)
    let longitude = SphereGeometry.sineCosine(Double(longitudeUnits(at: index)) * scale)
    return SIMD3(latitude.cosine * longitude.cosine, latitude.cosine * longitude.sine, latitude.sine)
  }

  /// The split axis (0 x, 1 y, 2 z) of the k-d tree node stored at `index`.
  @inline(__always) public func splitAxis(at index: Int) -> Int {
    Int(file.u8(axes.offset + index)) % 3
  }

  // MARK: Attributes

  @inline(__always) private func record(_ index: Int) -> Int {
    precondition(index >= 0 && index < count, "place \(index) out of range")
    return records.offset + 24 * index
  }

  /// Inhabitants of a place (0 when unknown).
  @inline(__always) public func population(at index: Int) -> Int { Int(file.u32(record(index))) }

  /// Whether a place is its country's capital (by GeoNames' country information).
  @inline(__always) public func isCapital(at index: Int) -> Bool { file.u16(record(index) + 22) & 1 != 0 }

  /// ISO 3166-1 alpha-2 country code of a place.
  public func countryCode(at index: Int) -> String {
    Self.countryCode(countryCodeValue(at: index))
  }

  /// The country code whose two ASCII bytes are `value` (first byte low), without its NUL padding.
  static func countryCode(_ value: UInt16) -> String {
    withCountryCode(value) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the UTF-8 of a place's country code (``countryCode(at:)`` without a `String`).
  public func withCountryCode(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    Self.withCountryCode(countryCodeValue(at: index), body)
  }

  private static func withCountryCode<Result>(
    _ value: UInt16, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    withUnsafeBytes(of: value.littleEndian) { bytes in
      let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
      let length = utf8[0] == 0 ? 0 : utf8[1] == 0 ? 1 : 2
      return body(UnsafeBufferPointer(rebasing: utf8[..<length]))
    }
  }

  /// The two ASCII bytes of a place's country code as one number (first byte low), for quick comparison.
  @inline(__always) func countryCodeValue(at index: Int) -> UInt16 { file.u16(record(index) + 20) }

  /// The place's name.
  public func name(at index: Int) -> String { strings.string(Int(file.u32(record(index) + 8))) }

  /// Calls `body` with the UTF-8 of a place's name (``name(at:)`` without a `String`).
  public func withName(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    strings.withUTF8(Int(file.u32(record(index) + 8)), body)
  }

  /// Asks the processor for what ``withName(at:_:)`` and the place's numbers read, one step of three:
  /// `step` 0 the place's record, 1 its name's offsets (the record read), 2 its name's bytes (the offsets
  /// read). Places come in no order, each step a wait for memory: a loop over many asks for each step some
  /// places ahead of the next, so that the waits overlap.
  package func prefetchName(at index: Int, step: Int) {
    guard index >= 0 && index < count else { return }
    switch step {
    case 0: file.prefetch(at: record(index))
    default: strings.prefetch(Int(file.u32(record(index) + 8)), bytes: step > 1)
    }
  }

  /// The region index of a place, or nil.
  public func regionIndex(at index: Int) -> Int? {
    let region = Int(file.u16(record(index) + 16))
    return region < regionCount ? region : nil
  }

  /// The IANA time zone of a place.
  public func timeZone(at index: Int) -> String {
    let zone = Int(file.u16(record(index) + 18))
    guard zone < zoneRecords.count else { return "" }
    return strings.string(Int(file.u32(zoneRecords.offset + 4 * zone)))
  }

  /// Everything known about a place.
  public func place(at index: Int) -> Place {
    let offset = record(index)
    return Place(
      index: index, geonameID: Int(file.u32(offset + 4)), name: strings.string(Int(file.u32(offset + 8))),
      asciiName: strings.string(Int(file.u32(offset + 12))), countryCode: countryCode(at: index),
      region: regionIndex(at: index).map(region), population: Int(file.u32(offset)),
      timeZone: timeZone(at: index), coordinate: coordinate(at: index))
  }

  /// A region of the region table.
  public func region(_ index: Int) -> Region {
    precondition(index >= 0 && index < regionCount, "region \(index) out of range")
    let offset = regionRecords.offset + 16 * index
    let country = Self.countryCode(file.u16(offset))
    let iso = strings.string(Int(file.u32(offset + 12)))
    return Region(
      index: index, countryCode: country, code: strings.string(Int(file.u32(offset + 4))),
      name: strings.string(Int(file.u32(offset + 8))), isoCode: iso.isEmpty ? nil : iso)
  }

  /// The country code of a region as the layer stores a place's (two ASCII letters in 16 bits), without the
  /// rest of ``region(_:)``.
  public func regionCountryCodeValue(_ index: Int) -> UInt16 {
    precondition(index >= 0 && index < regionCount, "region \(index) out of range")
    return file.u16(regionRecords.offset + 16 * index)
  }

  /// The name of a region ("Midtjylland"), without the rest of ``region(_:)``.
  public func regionName(_ index: Int) -> String {
    precondition(index >= 0 && index < regionCount, "region \(index) out of range")
    return strings.string(Int(file.u32(regionRecords.offset + 16 * index + 8)))
  }

  /// The index of the region with a country code and GeoNames admin-1 code ("DK", "82"), if any.
  public func regionIndex(country: String, code: String) -> Int? {
    guard let value = PlacemarkNames.countryCodeValue(country) else { return nil }
    for index in 0..<regionCount {
      let offset = regionRecords.offset + 16 * index
      if file.u16(offset) == value, strings.string(Int(file.u32(offset + 4))) == code { return index }
    }
    return nil
  }

  /// Every IANA time zone that some place uses, sorted.
  public var timeZones: [String] {
    (0..<zoneRecords.count).map { strings.string(Int(file.u32(zoneRecords.offset + 4 * $0))) }
  }

  // MARK: Name index

  /// The places whose name, ASCII name or alternate name folds to the same key as `name`, best first.
  ///
  /// ```swift
  /// places.matches(forName: "København").first  // Copenhagen, DK (via an alternate name)
  /// ```
  public func matches(forName name: String) -> [PlaceNameMatch] {
    matches(forKey: PlaceNameKey.fold(name))
  }

  /// The places listed under an already folded key, best first.
  public func matches(forKey key: String) -> [PlaceNameMatch] {
    var result: [PlaceNameMatch] = []
    let target = Array(key.utf8)
    guard !target.isEmpty else { return result }
    var cursor = NameIndexCursor(layer: self, block: blockContaining(target))
    while let entry = cursor.next() {
      if entry == target {
        cursor.postings { result.append($0) }
        return result
      }
      if entry.lexicographicallyPrecedes(target) {
        cursor.skipPostings()
      } else {
        return result
      }
    }
    return result
  }

  /// Up to `limit` keys that start with `prefix` (already folded), in byte order, with their best place.
  public func keys(withPrefix prefix: String, limit: Int = 20) -> [(key: String, best: PlaceNameMatch)] {
    var result: [(key: String, best: PlaceNameMatch)] = []
    let target = Array(prefix.utf8)
    var cursor = NameIndexCursor(layer: self, block: blockContaining(target))
    while result.count < limit, let entry = cursor.next() {
      if entry.starts(with: target) {
        var first: PlaceNameMatch? = nil
        cursor.postings { if first == nil { first = $0 } }
        if let first { result.append((String(decoding: entry, as: UTF8.self), first)) }
      } else if entry.lexicographicallyPrecedes(target) {
        cursor.skipPostings()
      } else {
        break
      }
    }
    return result
  }

  /// Calls `body` with every key of the name index in byte order (for fuzzy matching).
  public func forEachKey(_ body: (_ key: [UInt8], _ best: PlaceNameMatch) -> Void) {
    var cursor = NameIndexCursor(layer: self, block: 0)
    while let entry = cursor.next() {
      var first: PlaceNameMatch? = nil
      cursor.postings { if first == nil { first = $0 } }
      if let first { body(entry, first) }
    }
  }

  /// The last block whose first key is not after `target` (binary search over block heads).
  private func blockContaining(_ target: [UInt8]) -> Int {
    var low = 0
    var high = blocks.count - 2  // the last entry is the end offset
    guard high >= 0 else { return 0 }
    while low < high {
      let middle = (low + high + 1) / 2
      var cursor = NameIndexCursor(layer: self, block: middle)
      guard let head = cursor.next() else { return low }
      if head.lexicographicallyPrecedes(target) || head == target {
        low = middle
      } else {
        high = middle - 1
      }
    }
    return low
  }

  fileprivate var streamBase: Int { keyStream.offset }
  fileprivate var streamEnd: Int { keyStream.offset + keyStream.byteCount }
  fileprivate func blockOffset(_ block: Int) -> Int {
    guard block >= 0, block < blocks.count else { return keyStream.byteCount }
    return min(Int(file.u32(blocks.offset + 4 * block)), keyStream.byteCount)
  }
}

/// Reads the front-coded name index sequentially from the start of a block.
private struct NameIndexCursor {
  let layer: PlaceLayer
  var position: Int
  var end: Int
  var key: [UInt8] = []

  init(layer: PlaceLayer, block: Int) {
    self.layer = layer
    position = layer.streamBase + layer.blockOffset(block)
    end = layer.streamEnd
  }

  private mutating func varint() -> Int? {
    var result = 0
    var shift = 0
    while position < end, shift < 63 {
      let byte = layer.file.u8(position)
      position += 1
      result |= Int(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
    return nil
  }

  /// The next key (its postings must then be read or skipped).
  mutating func next() -> [UInt8]? {
    guard position < end, let shared = varint(), let suffix = varint(), shared <= key.count,
      suffix <= end - position
    else { return nil }
    key.removeSubrange(shared...)
    for offset in 0..<suffix { key.append(layer.file.u8(position + offset)) }
    position += suffix
    return key
  }

  mutating func postings(_ body: (PlaceNameMatch) -> Void) {
    while let value = varint() {
      let place = value >> 2
      if place < layer.count { body(PlaceNameMatch(place: place, viaAlternateName: value & 2 != 0)) }
      if value & 1 == 0 { return }
    }
  }

  mutating func skipPostings() { postings { _ in } }
}
