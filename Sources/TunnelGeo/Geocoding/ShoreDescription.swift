#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A shoreline point by the exact bits of its unit vector.
struct ShorePoint: Equatable {
  let x: UInt64
  let y: UInt64
  let z: UInt64

  init(_ vector: SIMD3<Double>) {
    (x, y, z) = (vector.x.bitPattern, vector.y.bitPattern, vector.z.bitPattern)
  }

  /// No unit vector: the key of an empty slot.
  static let none = ShorePoint(.zero)

  /// A well-mixed hash of the bits.
  var hash: UInt64 {
    var mixed = (x &* 0x9E37_79B9_7F4A_7C15) ^ (y &* 0xC2B2_AE3D_27D4_EB4F) ^ (z &* 0x1656_67B1_9E37_79F9)
    mixed ^= mixed >> 29
    return mixed &* 0xBF58_476D_1CE4_E5B9
  }
}

/// What describes a shoreline point: its country feature, named island feature and nearby place (an index
/// in the place layer), kept in 12 bytes.
package struct ShoreDescription: Sendable, Equatable {
  private let countryValue: Int32
  private let islandValue: Int32
  private let placeValue: Int32

  package init(country: Int?, island: Int?, place: Int?) {
    countryValue = country.map { Int32($0) } ?? -1
    islandValue = island.map { Int32($0) } ?? -1
    placeValue = place.map { Int32($0) } ?? -1
  }

  /// The country feature (in the country layer), the named island's feature (in the island layer) and
  /// the place's index (in the place layer).
  package var country: Int? { countryValue < 0 ? nil : Int(countryValue) }
  package var island: Int? { islandValue < 0 ? nil : Int(islandValue) }
  package var place: Int? { placeValue < 0 ? nil : Int(placeValue) }
}

/// A fixed number of described shoreline points, each in the slot its bits hash to: a point takes the
/// slot of the one before it, so the memory stays the same (1.2 MB) however many points a batch meets.
struct ShoreDescriptionCache {
  static let slotBits = 15
  static let slotCount = 1 << slotBits
  private var keys = [ShorePoint](repeating: .none, count: slotCount)
  private var values = [ShoreDescription](
    repeating: ShoreDescription(country: nil, island: nil, place: nil), count: slotCount)
  /// How many slots hold a point.
  private(set) var count = 0

  private func slot(_ point: ShorePoint) -> Int {
    Int(truncatingIfNeeded: point.hash >> (64 - Self.slotBits))
  }

  subscript(point: ShorePoint) -> ShoreDescription? {
    get {
      let slot = slot(point)
      return keys[slot] == point ? values[slot] : nil
    }
    set {
      guard let newValue, point != .none else { return }
      let slot = slot(point)
      if keys[slot] == .none { count += 1 }
      (keys[slot], values[slot]) = (point, newValue)
    }
  }
}
