import TunnelGeo
import TunnelReports

/// The nearest place's CSV columns or JSON member as far as they depend on the place alone, written
/// once per place and batch and copied into every row that has the place, around the row's distance.
///
/// The places of a batch repeat: a million points uniform on the sphere have some 60,000 nearest places.
/// The bytes of a chunk's new places are written between answering the chunk and formatting it
/// (``add(_:of:)``), on one thread; the workers that format the chunk only read them.
final class PlaceColumns: @unchecked Sendable {
  // @unchecked, and exclusivity unchecked: written only by `add`, never while the columns are read (a
  // dynamic check of each read was a tenth of the formatting).
  /// Points in a chunk from which the columns are kept.
  static let threshold = 1_024

  /// How the nearest place is written: as CSV or TSV columns, or as a JSON member.
  enum Format: Equatable {
    case delimited(separator: UInt8)
    case json
  }

  private let format: Format
  private let precision: Precision
  /// For each place, where its bytes are in `bytes` and where among them its distance goes; empty before
  /// they are written (they never are empty).
  @exclusivity(unchecked) private var spans: [(bytes: Range<Int>, distanceAt: Int)]
  @exclusivity(unchecked) private var bytes = OutputBytes(capacity: 1 << 16)

  init(placeCount: Int, format: Format, precision: Precision) {
    self.format = format
    self.precision = precision
    spans = Array(repeating: (0..<0, 0), count: placeCount)
  }

  /// Writes the bytes of the places among `found` that have none yet.
  func add(_ found: [(index: Int, distanceKm: Double)], of places: PlaceLayer) {
    for (index, _) in found where spans[index].bytes.isEmpty {
      let start = bytes.count
      PlacemarkField.writeNearestPlace(
        places, index, .beforeDistance, format: format, to: &bytes, precision: precision)
      let distanceAt = bytes.count
      PlacemarkField.writeNearestPlace(
        places, index, .afterDistance, format: format, to: &bytes, precision: precision)
      spans[index] = (start..<bytes.count, distanceAt)
    }
  }

  /// Appends the columns or member of place `index`, which ``add(_:of:)`` has written, with
  /// `distanceKm`.
  func write(_ index: Int, distanceKm: Double, to out: inout OutputBytes) {
    let span = spans[index]
    precondition(!span.bytes.isEmpty, "the columns of place \(index) were not written")
    bytes.withBytes { all in
      out.append(contentsOf: UnsafeBufferPointer(rebasing: all[span.bytes.lowerBound..<span.distanceAt]))
      out.number(distanceKm, places: precision.kilometres)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: all[span.distanceAt..<span.bytes.upperBound]))
    }
  }
}
