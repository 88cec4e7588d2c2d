import CMath
import Dispatch
import TunnelGeo
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The nearest place's CSV columns or JSON member as far as they depend on the place alone, written
/// once per place and batch and copied into every row that has the place, around the row's distance.
///
/// The places of a batch repeat: a million points uniform on the sphere have some 60,000 nearest places.
/// The bytes of a chunk's new places are written between answering the chunk and formatting it
/// (``add(_:of:threads:)``), in parts on every core; the workers that format the chunk only read them.
final class PlaceColumns: @unchecked Sendable {
  // @unchecked, and exclusivity unchecked: written only by `add` (the span of each place by one of its
  // workers), never while the columns are read (a dynamic check of each read was a tenth of the
  // formatting). The workers read the spans and the bytes at their addresses: reading them through their
  // array and their storage counted a reference to each for every row, on every core.
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
  /// Where `bytes` are, as of the last ``add(_:of:threads:)``.
  @exclusivity(unchecked) private var written: UnsafePointer<UInt8>?

  init(placeCount: Int, format: Format, precision: Precision) {
    self.format = format
    self.precision = precision
    spans = .allocate(capacity: placeCount)
    spans.initialize(repeating: (0..<0, 0))
  }

  deinit { spans.deallocate() }

  /// Writes the bytes of the places among `found` that have none yet, in parts on every core (or on
  /// `threads` threads) when there are many.
  func add(_ found: [(index: Int, distanceKm: Double)], of places: PlaceLayer, threads: Int? = nil) {
    // The chunk's new places, each once: a span still empty that ends at -1 is taken.
    var new: [Int] = []
    for (index, _) in found where spans[index].bytes.isEmpty && spans[index].distanceAt == 0 {
      spans[index].distanceAt = -1
      new.append(index)
    }
    let workers = max(
      1, min(new.count / Self.partPlaces, threads ?? ProcessInfo.processInfo.activeProcessorCount))
    let parts = workers == 1 ? 1 : workers * 4
    let results = PartResults(count: parts)
    defer { results.free() }
    // Each part writes its places' bytes from 0 and their spans from there.
    new.withUnsafeBufferPointer { new in
      let new = SendablePlaces(indices: new)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let range = (new.indices.count * part / parts)..<(new.indices.count * (part + 1) / parts)
        var out = OutputBytes(capacity: 96 * range.count)
        // Each place's record asked for 12 places ahead, its name's offsets 8 ahead, its name 4 ahead.
        func prefetch(_ position: Int, step: Int) {
          if position < range.upperBound { places.prefetchName(at: new.indices[position], step: step) }
        }
        for position in range {
          prefetch(position + 12, step: 0)
          prefetch(position + 8, step: 1)
          prefetch(position + 4, step: 2)
          self.write(place: new.indices[position], of: places, to: &out)
        }
        results.set(part, out)
      }
    }
    // The parts end to end, their spans moved by where each starts.
    for (part, out) in results.all().enumerated() {
      let base = bytes.count
      out.withBytes { bytes.append(contentsOf: $0) }
      guard base > 0 else { continue }
      for index in new[(new.count * part / parts)..<(new.count * (part + 1) / parts)] {
        let span = spans[index]
        spans[index] = (
          (span.bytes.lowerBound + base)..<(span.bytes.upperBound + base), span.distanceAt + base
        )
      }
    }
    // The bytes stay there until the next chunk's places are added, after its rows are written.
    written = bytes.withBytes { $0.baseAddress }
  }

  /// Places a part of ``add(_:of:threads:)`` writes, at least: fewer are written on one thread.
  static let partPlaces = 512

  /// Writes the bytes of place `index` to `out`, and their span in `out`.
  private func write(place index: Int, of places: PlaceLayer, to out: inout OutputBytes) {
    let start = out.count
    PlacemarkField.writeNearestPlace(
      places, index, .beforeDistance, format: format, to: &out, precision: precision)
    let distanceAt = out.count
    PlacemarkField.writeNearestPlace(
      places, index, .afterDistance, format: format, to: &out, precision: precision)
    spans[index] = (start..<out.count, distanceAt)
  }

  /// Asks the processor for what ``write(_:distanceKm:to:)`` reads of place `index`: its span, or with
  /// `bytes`, the bytes the span points to (the span read, so best asked for some rows after the span).
  /// Rows in input order read places all over the table, each a wait for memory unless asked for ahead.
  @inline(__always) func prefetch(_ index: Int, bytes: Bool) {
    guard index >= 0 && index < spans.count else { return }
    guard bytes else { return tunnel_prefetch(spans.baseAddress! + index) }
    let span = spans[index]
    guard let written, !span.bytes.isEmpty else { return }
    tunnel_prefetch(written + span.bytes.lowerBound)
    tunnel_prefetch(written + span.bytes.upperBound - 1)
  }

  /// Appends the columns or member of place `index`, which ``add(_:of:threads:)`` has written, with
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

/// The places a chunk adds, read by every worker of ``PlaceColumns/add(_:of:threads:)``.
private struct SendablePlaces: @unchecked Sendable {
  // @unchecked: the buffer is read only, and outlives the workers.
  let indices: UnsafeBufferPointer<Int>
}
