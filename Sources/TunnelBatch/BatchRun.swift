import Dispatch
import TunnelGeo
import TunnelReports
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A batch: rows read from a ``BatchInput``, their placemarks found on every core, and rows written in
/// input order, one chunk at a time, so that memory stays flat however long the input.
///
/// Every row read yields one row written, a bad one with its problem (or none with
/// ``Options/skipInvalid``). A stop asked for between chunks, or a reader that goes away, ends the
/// batch after whole rows; GeoJSON output is closed either way.
///
/// ```swift
/// let run = BatchRun(
///   input: try BatchInput(path: "points.csv"), geocoder: ReverseGeocoder(data: try PlaceData()),
///   options: BatchRun.Options(fields: [.country, .nearestPlace], format: .jsonl))
/// let summary = try run.run(output: STDOUT_FILENO)
/// print("\(summary.badRows) of \(summary.rows) rows were bad")
/// ```
public final class BatchRun {
  /// What to add to each row and how to write it.
  public struct Options: Sendable {
    public var fields: [PlacemarkField]
    public var antipode: Bool
    public var format: BatchOutputFormat
    public var precision: Precision
    public var skipInvalid: Bool
    /// Threads for the placemarks (default: one per core).
    public var threads: Int?
    /// Rows read before they are answered together: by default ``searchChunkSize`` when the boundaries'
    /// distances or the nearest land are asked for, else ``chunkSize``.
    public var chunkSize: Int
    /// Whether the output is a terminal: then the characters a terminal acts on (escape sequences,
    /// bidirectional overrides) are written escaped (`TerminalText`); files and pipes get every byte.
    public var toTerminal = false
    /// Whether input that cannot be read further still gets the document closed (GeoJSON's `]}`), so that a
    /// file written up to there stays valid JSON; false leaves it open, for a reader that must see that the
    /// rows ended short (`tunnel serve`, whose response is then cut off too).
    public var closesOnFailure = true
    /// Whether the rows are written as an Apache Parquet file rather than as text: the columns CSV output
    /// would have (``format`` must be `.csv`), every one optional, an empty value null. The input's
    /// columns are strings; degrees and kilometres doubles, a population a 64-bit integer, land and the
    /// lake flag booleans, the rest strings. A row group is written once about 131,072 rows are in hand,
    /// and the footer at the end (also after a stop or input that cannot be read further), so the file is
    /// whole once the batch has returned; a reader that went away gets no footer.
    public var writesParquet = false

    public init(
      fields: [PlacemarkField] = PlacemarkField.allCases, antipode: Bool = false,
      format: BatchOutputFormat = .csv,
      precision: Precision = .data, skipInvalid: Bool = false, threads: Int? = nil,
      chunkSize: Int? = nil
    ) {
      self.fields = fields
      self.antipode = antipode
      self.format = format
      self.precision = precision
      self.skipInvalid = skipInvalid
      self.threads = threads
      let searches = fields.contains { $0 == .boundaryKm || $0 == .nearestLand }
      self.chunkSize = chunkSize ?? (searches ? Self.searchChunkSize : Self.chunkSize)
    }

    /// Rows answered together, but for the fields of ``searchChunkSize``: reading and writing cost more
    /// than the lookups.
    public static let chunkSize = 16_384
    /// Rows answered together when the boundaries' distances or the nearest land are among the fields.
    /// Their searches read trees and vertices that points near each other share, and a chunk's points are
    /// answered in spatial order, so more of them lie near each other: over a million uniform points the
    /// nearest land alone took 0.88 s in chunks of 16,384 and 0.66 s in these, every field 1.93 s in chunks
    /// of 65,536 and 1.84 s in these. The memory a chunk holds grows with it (every field's peak 238 → 314
    /// MB; 262,144 rows gained little more).
    public static let searchChunkSize = 131_072

    /// Whether the rows are answered by key and the nearest place beside it: the nearest place and some
    /// of the key's fields are asked for, and nothing else.
    var keyedWithNearestPlace: Bool {
      answersByKey && fields.count > 1 && fields.contains(.nearestPlace)
        && fields.allSatisfy { PlacemarkField.keyed.contains($0) || $0 == .nearestPlace }
    }

    /// Whether only the nearest place is asked for: answered from the nearest-place grid alone.
    var nearestPlaceOnly: Bool { fields == [.nearestPlace] }

    /// Whether the fields asked for are answered by key (``KeyedColumns``), which they are when every one
    /// is a key's; false answers them with whole placemarks (which tests compare the keys' rows with).
    var answersByKey = true

    /// Whether the rows are answered by key: some fields are asked for, and every one is a key's.
    var keyedOnly: Bool {
      answersByKey && !fields.isEmpty && fields.allSatisfy { PlacemarkField.keyed.contains($0) }
    }

    /// The placemark's fields the rows need: only these are computed.
    var placemarkFields: Placemark.Fields { PlacemarkField.placemarkFields(fields) }
  }

  /// How a batch ended.
  public struct Summary: Sendable, Equatable {
    /// Rows read.
    public var rows = 0
    /// Rows read that were bad.
    public var badRows = 0
    /// Rows written.
    public var rowsWritten = 0
    /// Whether the batch stopped because it was asked to, before the end of the input.
    public var stopped = false
    /// Whether the batch stopped because its output was closed.
    public var outputClosed = false
  }

  /// Rows of JSON input read, at most, before the first good one whose members name the CSV columns.
  static let columnSearchRows = 16_384
  /// Input read, at most, before the first good JSON row (rows are held meanwhile).
  static let columnSearchBytes = 4 * ChunkReader.maximumChunkBytes

  /// Rows per chunk above which the batch indexes are built before answering.
  static let indexThreshold = 600

  private let input: BatchInput
  private let geocoder: ReverseGeocoder
  private let options: Options
  /// On the nearest-place fast path, the columns or JSON member of each place met so far.
  private var placeColumns: PlaceColumns?
  /// For rows answered by key, the columns or JSON members of each value; made with the first chunk.
  private var keyedColumns: KeyedColumns?

  public init(input: BatchInput, geocoder: ReverseGeocoder, options: Options) {
    self.input = input
    self.geocoder = geocoder
    self.options = options
  }

  /// Runs the batch, writing to `output`.
  ///
  /// - Parameters:
  ///   - output: The file descriptor the rows are written to; the caller keeps and closes it. A reader
  ///     that goes away (EPIPE) ends the batch with ``Summary/outputClosed``.
  ///   - shouldStop: Asked between chunks; true ends the batch after the rows already read.
  ///   - badRow: Told of each bad row, in input order.
  ///   - progress: Told after each chunk's rows are written: rows read so far and bytes read so far.
  /// - Throws: ``BatchError`` for input that cannot be read or output that cannot be written (the rows
  ///   written before stay whole, and GeoJSON is closed unless ``Options/closesOnFailure`` is false),
  ///   `PlaceDataError` for place data that cannot be read.
  public func run(
    output: Int32, shouldStop: () -> Bool = { false }, badRow: (BatchRecord) -> Void = { _ in },
    progress: (_ rows: Int, _ bytes: Int) -> Void = { _, _ in }
  ) throws -> Summary {
    try run(
      to: DescriptorWriter(descriptor: output, escapesForTerminal: options.toTerminal),
      shouldStop: shouldStop,
      badRow: badRow, progress: progress)
  }

  /// Runs the batch, writing to `sink`: ``run(output:shouldStop:badRow:progress:)`` for any byte sink.
  ///
  /// - Parameters:
  ///   - sink: Where the rows go, whole rows at a time; its refusal (a reader gone) ends the batch with
  ///     ``Summary/outputClosed``. ``Options/toTerminal`` is the sink's to honour.
  ///   - shouldStop: Asked between chunks; true ends the batch after the rows already read.
  ///   - badRow: Told of each bad row, in input order.
  ///   - progress: Told after each chunk's rows are written: rows read so far and bytes read so far.
  /// - Throws: As ``run(output:shouldStop:badRow:progress:)`` does.
  public func run(
    to sink: some BatchByteSink, shouldStop: () -> Bool = { false }, badRow: (BatchRecord) -> Void = { _ in },
    progress: (_ rows: Int, _ bytes: Int) -> Void = { _, _ in }
  ) throws -> Summary {
    guard options.writesParquet else {
      return try run(
        to: sink, parquet: nil as ParquetSink<DescriptorWriter>?, shouldStop: shouldStop, badRow: badRow,
        progress: progress)
    }
    precondition(
      options.format == .csv, "Parquet output is made of the CSV's columns: its format must be .csv")
    let parquet = ParquetSink(sink, createdBy: "tunnel version \(TunnelVersion.text)")
    return try run(to: parquet, parquet: parquet, shouldStop: shouldStop, badRow: badRow, progress: progress)
  }

  /// Runs the batch, writing to `sink`, which is `parquet` (to be given the columns' kinds and finished)
  /// when the output is Parquet.
  private func run<Sink: BatchByteSink, Parquet: BatchByteSink>(
    to sink: Sink, parquet: ParquetSink<Parquet>?, shouldStop: () -> Bool, badRow: (BatchRecord) -> Void,
    progress: (_ rows: Int, _ bytes: Int) -> Void
  ) throws -> Summary {
    var summary = Summary()
    let reader = ChunkReader(input: input, chunkSize: options.chunkSize, threads: options.threads)
    defer { reader.cancel() }
    var next = try reader.next(shouldStop: shouldStop)
    var chunk = next.records
    var lines = next.lines
    // JSON rows give CSV its columns from the first good row: wait for one (a slow pipe may hand over a
    // bad row alone first), up to ``columnSearchRows`` rows or ``columnSearchBytes`` of input. (JSON rows
    // keep no plain lines.)
    var inputEnded = false
    while input.valuesAreJSON, !chunk.isEmpty, chunk.count < Self.columnSearchRows,
      next.bytesRead < Self.columnSearchBytes, !chunk.contains(where: { $0.problem == nil })
    {
      next = try reader.next(shouldStop: shouldStop)
      if next.records.isEmpty {
        inputEnded = true
        break
      }
      // Read JSON rows refer to no line (JSON Lines rows were read from theirs already): the chunks join
      // without their lines.
      assert(next.records.allSatisfy { $0.plainLine == nil })
      chunk += next.records
    }
    // Good rows after the search would be measured against a bad row's members: say so instead.
    if input.valuesAreJSON, options.format == .csv || options.format == .tsv, !inputEnded, !chunk.isEmpty,
      !chunk.contains(where: { $0.problem == nil }), !shouldStop()
    {
      throw BatchError.noRowForColumns(rows: chunk.count)
    }
    var formatter = RowFormatter(
      format: options.format, fields: options.fields, antipode: options.antipode,
      precision: options.precision,
      skipInvalid: options.skipInvalid, inputColumns: input.columnNames, inputIsJSON: input.valuesAreJSON,
      inputIsGeoJSON: input.format == .geojson, inputSeparator: input.separator)
    if input.valuesAreJSON {
      formatter.inputColumns = chunk.first { $0.problem == nil }?.names ?? chunk.first?.names ?? []
    }
    parquet?.kinds = formatter.parquetKinds()
    // The collection's members after its features are known once the reading thread has ended. Parquet's
    // footer comes after the last row group.
    let close = { [formatter, input] (rowsWritten: Int) throws(BatchError) -> Bool in
      reader.cancel()
      guard
        try sink.write(
          formatter.footer(rowsWritten: rowsWritten, collection: input.collectionMembers(whole: true)))
      else { return false }
      return try parquet?.finish() ?? true
    }
    // Indexes pay for themselves past a few hundred placemarks, or tens of thousands of nearest places.
    if options.fields.isEmpty {
      // `--fields none`: nothing to look up.
    } else if options.nearestPlaceOnly {
      if chunk.count >= options.chunkSize { _ = try geocoder.nearestPlaceIndex() }
    } else if chunk.count > Self.indexThreshold {
      try geocoder.prepareForBatch(fields: options.placemarkFields)
    }
    // The collection's members before its features are known once its first row has been read, or
    // reading has ended.
    if chunk.isEmpty { reader.cancel() }
    guard try sink.write(formatter.header(collection: input.collectionMembers(whole: false))) else {
      summary.outputClosed = true
      return summary
    }
    // CSV and TSV from JSON rows have the columns of the first good row.
    let keepsColumns = input.valuesAreJSON && (options.format == .csv || options.format == .tsv)
    // Each chunk is written while the next is answered; the sink is the batch's again once `finish()`
    // has returned. Progress is told once the chunk's rows are out, and never while a chunk is being
    // written: on a terminal its line would fall among the rows.
    // Parquet: each part of a chunk is put in columns on the core that formatted it, with the header's
    // names and kinds (known now: the header went through the sink above).
    let columnar = parquet.flatMap { parquet in parquet.names.map { (names: $0, kinds: parquet.kinds ?? []) }
    }
    let writer = ChunkWriter(sink: sink, columns: parquet)
    defer { writer.close() }
    var untold: (rows: Int, bytes: Int)? = nil
    while !chunk.isEmpty {
      if keepsColumns {
        Self.markMembersBeyond(formatter.inputColumns, in: &chunk, options: input.columnChoice.options)
      }
      let (answers, slots) = try answer(chunk)
      let (bytes, columns) = try format(
        chunk, lines: lines, answers: answers, slots: slots, formatter: formatter,
        rowsBefore: summary.rowsWritten, columnar: columnar)
      // A damaged block of the data found while answering or formatting: no row of this chunk is written.
      try geocoder.data.checkIntact()
      // The chunk before is written before this one is counted: a reader gone by then ends the batch
      // without it, as if it had gone before this chunk was read.
      guard try writer.finish() else {
        summary.outputClosed = true
        return summary
      }
      if let untold { progress(untold.rows, untold.bytes) }
      summary.rows += chunk.count
      // By index: a loop over the records would copy each.
      for index in chunk.indices where chunk[index].problem != nil {
        summary.badRows += 1
        badRow(chunk[index])
      }
      summary.rowsWritten += options.skipInvalid ? chunk.count { $0.problem == nil } : chunk.count
      if let columns { writer.write(columns: columns) } else { writer.write(bytes) }
      untold = (summary.rows, next.bytesRead)
      if shouldStop() { break }
      do {
        next = try reader.next(shouldStop: shouldStop)
      } catch {
        // Input that cannot be read further: what was written stays whole, and a collection closed
        // unless the reader is to see the document unfinished.
        if options.closesOnFailure, (try? writer.finish()) == true {
          _ = try? close(summary.rowsWritten)
        }
        throw error
      }
      chunk = next.records
      lines = next.lines
    }
    guard try writer.finish() else {
      summary.outputClosed = true
      return summary
    }
    if let untold { progress(untold.rows, untold.bytes) }
    if shouldStop() { summary.stopped = true }
    if try !close(summary.rowsWritten) { summary.outputClosed = true }
    return summary
  }

  /// Makes each good JSON row with members that `columns` (CSV or TSV output's) do not name a bad row, so
  /// that no value is left out unsaid; its problem advises JSON Lines as `options` calls it.
  static func markMembersBeyond(
    _ columns: [String], in chunk: inout [BatchRecord], options: CoordinateColumns.OptionNames
  ) {
    var known: Set<String>? = nil
    for index in chunk.indices where chunk[index].problem == nil {
      let names = chunk[index].names
      if names == columns { continue }
      if known == nil { known = Set(columns) }
      let beyond = names.filter { !known!.contains($0) }
      guard !beyond.isEmpty else { continue }
      chunk[index].problem =
        "the output's columns are the first row's, and this row's \(beyond.count == 1 ? "member" : "members") \(BatchError.list(beyond)) \(beyond.count == 1 ? "is" : "are") not among them; write JSON Lines (\(options.jsonLines)) to keep every member"
      chunk[index].coordinate = nil
    }
  }

  /// The answers of a chunk's good rows (then, with antipodes, of their antipodes), and for each row
  /// the index of its answer, or -1.
  private func answer(_ chunk: [BatchRecord]) throws -> (answers: Answers, slots: [Int32]) {
    var points: [Coordinate] = []
    points.reserveCapacity(chunk.count * (options.antipode ? 2 : 1))
    var slots = [Int32](repeating: -1, count: chunk.count)
    for index in chunk.indices {
      guard let coordinate = chunk[index].coordinate else { continue }
      slots[index] = Int32(points.count)
      points.append(coordinate)
    }
    if options.antipode { points += points.map(\.antipode) }
    if options.fields.isEmpty { return (Answers(count: points.count), slots) }
    let format: PlaceColumns.Format =
      switch options.format {
      case .csv: .delimited(separator: UInt8(ascii: ","))
      case .tsv: .delimited(separator: 0x09)
      case .jsonl, .geojson: .json
      }
    if options.nearestPlaceOnly {
      let (places, found) = try nearestPlaces(of: points, format: format)
      return (Answers(places: places, nearestPlaces: found, placeColumns: placeColumns), slots)
    }
    if options.keyedOnly || options.keyedWithNearestPlace {
      let keyFields = options.fields.filter { $0 != .nearestPlace }
      let columns =
        try keyedColumns
        ?? KeyedColumns.shared(
          geocoder: geocoder, fields: keyFields, format: format, precision: options.precision)
      keyedColumns = columns
      // The searches' numbers beside the keys only when asked for: in every key they made a batch of
      // countries a tenth slower.
      let placemarkFields = PlacemarkField.placemarkFields(keyFields)
      let searches = !placemarkFields.isDisjoint(with: [.boundaries, .nearestLand])
      let keys =
        searches
        ? [] : try geocoder.placemarkKeys(for: points, fields: placemarkFields, threads: options.threads)
      let searchedKeys =
        searches
        ? try geocoder.searchedKeys(for: points, fields: placemarkFields, threads: options.threads) : []
      guard options.keyedWithNearestPlace else {
        return (Answers(keys: keys, searchedKeys: searchedKeys, keyedColumns: columns), slots)
      }
      let (places, found) = try nearestPlaces(of: points, format: format)
      return (
        Answers(
          keys: keys, searchedKeys: searchedKeys, keyedColumns: columns, places: places, nearestPlaces: found,
          placeColumns: placeColumns),
        slots
      )
    }
    return (
      Answers(
        placemarks: try geocoder.placemarks(
          for: points, fields: options.placemarkFields, threads: options.threads)),
      slots
    )
  }

  /// Each point's nearest place by its index in the place layer, and the layer; the batch's columns of
  /// its places are kept up to date.
  private func nearestPlaces(
    of points: [Coordinate], format: PlaceColumns.Format
  ) throws -> (PlaceLayer, [(index: Int, distanceKm: Double)]) {
    let found = try geocoder.nearestPlaceIndices(to: points, threads: options.threads)
    let places = try geocoder.data.places()
    // Worth its table from the first chunk of some size on: a few rows do not repeat their places.
    if placeColumns == nil, points.count >= PlaceColumns.threshold {
      placeColumns = PlaceColumns(placeCount: places.count, format: format, precision: options.precision)
    }
    placeColumns?.add(found, of: places, threads: options.threads)
    return (places, found)
  }

  /// The chunk's rows as bytes, in parts formatted on every core.
  private func format(
    _ chunk: [BatchRecord], lines: [UInt8], answers: Answers, slots: [Int32], formatter: RowFormatter,
    rowsBefore: Int, columnar: (names: [String], kinds: [ParquetKind])? = nil
  ) throws(BatchError) -> (bytes: [OutputBytes], columns: [ParquetRows]?) {
    let workers = max(
      1, min(chunk.count / 256, options.threads ?? ProcessInfo.processInfo.activeProcessorCount))
    let parts = workers == 1 ? 1 : workers * 4
    let good = answers.count / (options.antipode ? 2 : 1)
    let hasAntipodes = answers.count > good
    let skipInvalid = options.skipInvalid
    // Whether any row before each part is written, for the GeoJSON commas.
    var writtenBefore = [Int](repeating: 0, count: parts + 1)
    for part in 0..<parts {
      let range = (chunk.count * part / parts)..<(chunk.count * (part + 1) / parts)
      let written = skipInvalid ? chunk[range].count { $0.problem == nil } : range.count
      writtenBefore[part + 1] = writtenBefore[part] + written
    }
    let offsets = writtenBefore
    let results = PartResults(count: parts)
    defer { results.free() }
    let columnResults = PartSlots<Result<ParquetRows, BatchError>>(
      count: columnar == nil ? 0 : parts, empty: .success(ParquetRows(kinds: [])))
    defer { columnResults.free() }
    // The rows and placemarks are read in place: copying each out of its array, or reaching it through
    // the array, counted references on every core.
    chunk.withUnsafeBufferPointer { rows in
      lines.withUnsafeBufferPointer { lines in
        answers.placemarks.withUnsafeBufferPointer { placemarks in
          answers.keys.withUnsafeBufferPointer { keys in
            answers.searchedKeys.withUnsafeBufferPointer { searchedKeys in
              let chunk = ReadOnlyRows(
                rows: rows, lines: lines,
                answers: AnswerStorage(
                  placemarks: placemarks,
                  keys: searchedKeys.isEmpty
                    ? keys.baseAddress.map { UnsafeRawPointer($0) }
                    : UnsafeRawPointer(SearchedKey.key(at: UnsafeRawPointer(searchedKeys.baseAddress!))),
                  keyStride: searchedKeys.isEmpty
                    ? MemoryLayout<PlacemarkKey>.stride : MemoryLayout<SearchedKey>.stride,
                  keyedColumns: answers.keyedColumns.map { Unmanaged.passUnretained($0) },
                  nearestPlaces: UnsafeBufferPointer(answers.nearestPlaces),
                  places: answers.places.map { Unmanaged.passUnretained($0) },
                  placeColumns: answers.placeColumns.map { Unmanaged.passUnretained($0) }))
              DispatchQueue.concurrentPerform(iterations: parts) { part in
                let (rows, lines, storage) = (chunk.rows, chunk.lines, chunk.answers)
                var out = OutputBytes(capacity: 256 * (rows.count / parts + 1))
                var written = rowsBefore + offsets[part]
                let range = (rows.count * part / parts)..<(rows.count * (part + 1) / parts)
                // The places' columns of the rows ahead asked for: their spans 16 rows ahead, the bytes
                // those point to 8 rows ahead.
                let placeColumns = storage.nearestPlaces.isEmpty ? nil : storage.placeColumns
                func prefetchPlace(ofRow row: Int, bytes: Bool) {
                  guard let placeColumns, row < range.upperBound, case let slot = Int(slots[row]), slot >= 0
                  else { return }
                  placeColumns._withUnsafeGuaranteedRef { columns in
                    columns.prefetch(storage.nearestPlaces[slot].index, bytes: bytes)
                    if hasAntipodes {
                      columns.prefetch(storage.nearestPlaces[good + slot].index, bytes: bytes)
                    }
                  }
                }
                for index in range {
                  prefetchPlace(ofRow: index + 16, bytes: false)
                  prefetchPlace(ofRow: index + 8, bytes: true)
                  if skipInvalid, rows[index].problem != nil { continue }
                  let slot = Int(slots[index])
                  formatter.write(
                    rows[index], lines: lines, slot >= 0 ? BatchAnswer(index: slot, storage: storage) : nil,
                    slot >= 0 && hasAntipodes ? BatchAnswer(index: good + slot, storage: storage) : nil,
                    first: written == 0, to: &out)
                  written += 1
                }
                guard let columnar else {
                  results.set(part, out)
                  return
                }
                // Parquet: the part's rows in columns, here rather than on the writing thread.
                var columns = ParquetRows(kinds: columnar.kinds, rows: range.count)
                var names: [String]? = columnar.names
                let parsed = out.withBytes { bytes in
                  Result { () throws(BatchError) in
                    _ = try columns.parse(
                      bytes, final: true, names: &names, kinds: nil, rowsBefore: rowsBefore + offsets[part])
                  }
                }
                columnResults.set(part, parsed.map { columns })
              }
            }
          }
        }
      }
    }
    guard columnar != nil else { return (results.all(), nil) }
    var columns: [ParquetRows] = []
    for parsed in columnResults.all() { columns.append(try parsed.get()) }
    return (results.all(), columns)
  }
}

/// The answers of a chunk: whole placemarks, keys (``KeyedColumns``), or nearest places only (the fast
/// path).
///
/// On the fast path the places are found in spatial order and held by index: their names and numbers
/// are copied from the place layer straight into the output while formatting.
final class Answers: @unchecked Sendable {
  // @unchecked: nothing changes after init. The place layer and the columns are held unowned: the
  // geocoder and the batch keep them for the whole batch, and counting references to them from every
  // row on every core was a tenth of the formatting.
  /// The placemarks; empty on the fast path and for rows answered by key.
  let placemarks: [Placemark]
  /// For rows answered by key, the keys (or, with the nearest land or the boundaries, the keys and their
  /// searches), and the columns of their values.
  let keys: [PlacemarkKey]
  let searchedKeys: [SearchedKey]
  let keyedColumns: KeyedColumns?
  /// On the fast path, the place layer, and each point's nearest place in it with its distance.
  unowned(unsafe) let places: PlaceLayer?
  let nearestPlaces: UnsafeMutableBufferPointer<(index: Int, distanceKm: Double)>
  /// On the fast path, the columns or JSON member of each place, written once per batch.
  unowned(unsafe) let placeColumns: PlaceColumns?

  init(placemarks: [Placemark]) {
    self.placemarks = placemarks
    keys = []
    searchedKeys = []
    keyedColumns = nil
    places = nil
    nearestPlaces = .allocate(capacity: 0)
    placeColumns = nil
    noFieldCount = 0
  }

  /// No field asked for (`--fields none`): nothing to read, only how many points were answered.
  init(count: Int) {
    placemarks = []
    keys = []
    searchedKeys = []
    keyedColumns = nil
    places = nil
    nearestPlaces = .allocate(capacity: 0)
    placeColumns = nil
    noFieldCount = count
  }

  /// Keys, or keys and their searches (one of the two empty).
  init(keys: [PlacemarkKey], searchedKeys: [SearchedKey], keyedColumns: KeyedColumns) {
    placemarks = []
    self.keys = keys
    self.searchedKeys = searchedKeys
    self.keyedColumns = keyedColumns
    places = nil
    nearestPlaces = .allocate(capacity: 0)
    placeColumns = nil
    noFieldCount = 0
  }

  /// Keys, and the nearest places beside them.
  init(
    keys: [PlacemarkKey], searchedKeys: [SearchedKey], keyedColumns: KeyedColumns, places: PlaceLayer,
    nearestPlaces: [(index: Int, distanceKm: Double)], placeColumns: PlaceColumns?
  ) {
    placemarks = []
    self.keys = keys
    self.searchedKeys = searchedKeys
    self.keyedColumns = keyedColumns
    self.places = places
    self.nearestPlaces = .allocate(capacity: nearestPlaces.count)
    _ = self.nearestPlaces.initialize(from: nearestPlaces)
    self.placeColumns = placeColumns
    noFieldCount = 0
  }

  init(places: PlaceLayer, nearestPlaces: [(index: Int, distanceKm: Double)], placeColumns: PlaceColumns?) {
    placemarks = []
    keys = []
    searchedKeys = []
    keyedColumns = nil
    self.places = places
    self.nearestPlaces = .allocate(capacity: nearestPlaces.count)
    _ = self.nearestPlaces.initialize(from: nearestPlaces)
    self.placeColumns = placeColumns
    noFieldCount = 0
  }

  deinit { nearestPlaces.deallocate() }

  /// With no field, how many points there were.
  private let noFieldCount: Int

  var count: Int {
    !placemarks.isEmpty
      ? placemarks.count
      : !keys.isEmpty
        ? keys.count
        : !searchedKeys.isEmpty ? searchedKeys.count : places != nil ? nearestPlaces.count : noFieldCount
  }
}

/// A chunk's rows, plain lines and answers, read by every worker while the chunk is formatted.
private struct ReadOnlyRows: @unchecked Sendable {
  // @unchecked: nothing writes the rows or answers while the workers read them.
  let rows: UnsafeBufferPointer<BatchRecord>
  let lines: UnsafeBufferPointer<UInt8>
  let answers: AnswerStorage
}

/// Where a chunk's answers are read while its rows are formatted: the placemarks and keys in place, and
/// the columns of the keys' values without counting references to them from every row on every core.
struct AnswerStorage: @unchecked Sendable {
  // @unchecked: nothing writes the answers while the workers read them.
  let placemarks: UnsafeBufferPointer<Placemark>
  /// The first key (of the keys, or of the searched keys: `SearchedKey.key(at:)`), and how far apart the
  /// keys are; nil for rows not answered by key.
  let keys: UnsafeRawPointer?
  let keyStride: Int
  /// Held by the batch, read without counting a reference (`_withUnsafeGuaranteedRef`).
  let keyedColumns: Unmanaged<KeyedColumns>?
  /// On the fast path, as ``Answers`` holds them; the layer held by the geocoder, the columns by the
  /// batch.
  let nearestPlaces: UnsafeBufferPointer<(index: Int, distanceKm: Double)>
  let places: Unmanaged<PlaceLayer>?
  let placeColumns: Unmanaged<PlaceColumns>?
}

/// One slot per part, each written by one worker.
final class PartResults: @unchecked Sendable {
  // @unchecked: each worker writes only its own slot, and the slots are read after all have finished.
  private let slots: UnsafeMutablePointer<OutputBytes>
  private let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: count)
    slots.initialize(repeating: OutputBytes(capacity: 0), count: count)
  }

  func set(_ part: Int, _ bytes: OutputBytes) { slots[part] = bytes }

  func all() -> [OutputBytes] { Array(UnsafeBufferPointer(start: slots, count: count)) }

  func free() {
    slots.deinitialize(count: count)
    slots.deallocate()
  }
}

/// One value a part of a chunk, each set by the worker of its part.
final class PartSlots<Value>: @unchecked Sendable {
  // @unchecked: each worker writes only its own slot, and the slots are read after all have finished.
  private let slots: UnsafeMutablePointer<Value>
  private let count: Int

  init(count: Int, empty: Value) {
    self.count = count
    slots = .allocate(capacity: count)
    slots.initialize(repeating: empty, count: count)
  }

  func set(_ part: Int, _ value: Value) { slots[part] = value }

  func all() -> [Value] { Array(UnsafeBufferPointer(start: slots, count: count)) }

  func free() {
    slots.deinitialize(count: count)
    slots.deallocate()
  }
}

/// Writes whole buffers to a file descriptor, retrying short writes; a closed reader is reported, not
/// thrown.
struct DescriptorWriter: BatchByteSink {
  var descriptor: Int32
  /// Whether the bytes are escaped for a terminal first (``TerminalText``).
  var escapesForTerminal = false

  /// Writes all of `buffer`; false when the reader has gone away (EPIPE).
  func write(_ buffer: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    if escapesForTerminal {
      return try TerminalText.escaped(buffer).withUnsafeBufferPointer { escaped throws(BatchError) in
        try DescriptorWriter(descriptor: descriptor).write(escaped)
      }
    }
    switch writeAll(UnsafeRawBufferPointer(buffer), to: descriptor) {
    case 0: return true
    case EPIPE: return false
    case let code: throw .writeFailed(String(cString: strerror(code)))
    }
  }
}
