import TunnelGeo

/// The nearest-place CSV columns that depend on the place alone (name, country, latitude, longitude,
/// population, each after a separator), written once per place and batch and copied into every row
/// that has the place.
///
/// The places of a batch repeat: a million points uniform on the sphere have some 60,000 nearest places.
/// The columns of a chunk's new places are written between answering the chunk and formatting it
/// (``add(_:of:)``), on one thread; the workers that format the chunk only read them.
final class PlaceColumns: @unchecked Sendable {
  // @unchecked, and exclusivity unchecked: written only by `add`, never while the columns are read (a
  // dynamic check of each read was a tenth of the formatting).
  /// Points in a chunk from which the columns are kept.
  static let threshold = 1_024

  private let separator: UInt8
  private let precision: NumberPrecision
  /// For each place, where its columns are in `bytes`; empty before they are written (they never are
  /// empty: each begins with a separator).
  @exclusivity(unchecked) private var spans: [Range<Int>]
  @exclusivity(unchecked) private var bytes = OutputBytes(capacity: 1 << 16)

  init(placeCount: Int, separator: UInt8, precision: NumberPrecision) {
    self.separator = separator
    self.precision = precision
    spans = [Range<Int>](repeating: 0..<0, count: placeCount)
  }

  /// Writes the columns of the places among `found` that have none yet.
  func add(_ found: [(index: Int, distanceKm: Double)], of places: PlaceLayer) {
    for (index, _) in found where spans[index].isEmpty {
      let start = bytes.count
      PlacemarkField.writePlaceColumnsCSV(
        places, index, to: &bytes, separator: separator, precision: precision)
      spans[index] = start..<bytes.count
    }
  }

  /// Appends the columns of place `index`, which ``add(_:of:)`` has written.
  func write(_ index: Int, to out: inout OutputBytes) {
    let span = spans[index]
    precondition(!span.isEmpty, "the columns of place \(index) were not written")
    bytes.withBytes { all in out.append(contentsOf: UnsafeBufferPointer(rebasing: all[span])) }
  }
}
