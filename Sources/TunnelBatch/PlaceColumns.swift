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
  // dynamic check of each read was a tenth of the formatting). The workers read the spans and the bytes
  // at their addresses: reading them through their array and their storage counted a reference to each
  // for every row, on every core.
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
  private let spans: UnsafeMutableBufferPointer<(bytes: Range<Int>, distanceAt: Int)>
  @exclusivity(unchecked) private var bytes = OutputBytes(capacity: 1 << 16)
  /// Where `bytes` are, as of the last ``add(_:of:)``.
  @exclusivity(unchecked) private var written: UnsafePointer<UInt8>?

  init(placeCount: Int, format: Format, precision: Precision) {
    self.format = format
    self.precision = precision
    spans = .allocate(capacity: placeCount)
    spans.initialize(repeating: (0..<0, 0))
  }

  deinit { spans.deallocate() }

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
    // The bytes stay there until the next chunk's places are added, after its rows are written.
    written = bytes.withBytes { $0.baseAddress }
  }

  /// Appends the columns or member of place `index`, which ``add(_:of:)`` has written, with
  /// `distanceKm`.
  func write(_ index: Int, distanceKm: Double, to out: inout OutputBytes) {
    precondition(index >= 0 && index < spans.count, "place \(index) out of range")
    let span = spans[index]
    precondition(!span.bytes.isEmpty, "the columns of place \(index) were not written")
    let all = written!
    out.append(
      contentsOf: UnsafeBufferPointer(
        start: all + span.bytes.lowerBound, count: span.distanceAt - span.bytes.lowerBound))
    out.number(distanceKm, places: precision.kilometres)
    out.append(
      contentsOf: UnsafeBufferPointer(
        start: all + span.distanceAt, count: span.bytes.upperBound - span.distanceAt))
  }
}
