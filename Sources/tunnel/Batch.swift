import ArgumentParser
import TunnelBatch
import TunnelCommandLine
import TunnelGeo
import TunnelMaps
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

extension Tunnel {
  /// `tunnel batch [FILE|-]`: placemarks for every row of a file, streamed.
  struct Batch: CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "batch",
      abstract: "Add placemarks (and antipodes) to every row of a CSV, TSV, JSON Lines or GeoJSON file.",
      discussion: """
        Rows stream through in input order, answered on every core, whatever the input's size; each \
        input row gives exactly one output row, its own columns first and unchanged.

        Columns are never guessed. --lat-column and --lon-column, or --coordinate-column, name the \
        coordinate's columns; otherwise their names do, in any case and without a trailing full stop, \
        a unit in brackets or a degrees suffix (Lat., latitude (deg), LATITUDE_DD): lat, latitude, \
        latitud, Breite, широта or 緯度 for the latitude, lon, lng, long, longitude, longitud, Länge, \
        долгота or 経度 for the longitude, y and x only as a pair; without them, one column named \
        coordinates, coord or location holding a whole coordinate in any notation 'tunnel where' \
        reads. When more than one column could be the latitude or the longitude (latitude and lat, \
        lon and lng), the batch stops with status 65 naming them, and the options choose. JSON Lines \
        members, and the properties of GeoJSON features without a geometry, are found the same way. \
        A file without a header has the latitude and longitude first. CSV separated by semicolons \
        (a first line with semicolons and no comma), Excel's sep= first line and # comment lines \
        before the header are read.

        A bad row (an unreadable coordinate, a latitude outside -90…90, a broken quote, a wrong number \
        of fields, bytes that are not UTF-8, a JSON name given twice, a line over 1 MiB, a GeoJSON \
        feature over 16 MiB) is written with its problem in an "error" column and named on standard \
        error with its line number, before the rows of its chunk; the exit status is then 65, unless \
        --skip-invalid leaves such rows out. A progress line is shown while standard error is a \
        terminal. Ctrl-C, SIGTERM or SIGHUP stops after whole rows, whatever is being read; a line cut \
        short by the signal is not a row.

        No output has a name twice: a header naming two columns alike is refused (a column without a \
        name is called by its number, column3), and a column or \
        member Tunnel adds that the input already has (land, error, …) is written as tunnel_land, \
        tunnel_error. CSV or TSV from JSON rows has the first good row's members as columns; a row with \
        other members is a bad row (use --format jsonl to keep them), and a bad JSON row keeps its text \
        as it came in an "input" column. TSV is never quoted: a tab, line feed, carriage return, NUL or \
        backslash in a value is written \\t, \\n, \\r, \\0, \\\\, and read back so; CSV writes a NUL \
        as U+2400 (␀). GeoJSON written as CSV, TSV or JSON Lines starts each row with the feature's id \
        and its point's latitude and longitude (tunnel_id, tunnel_latitude, … where a property has the \
        name); GeoJSON output keeps a GeoJSON input's geometry as it came, each feature's id and bbox, \
        and the collection's name, crs and bbox. Output to a terminal has control and bidirectional \
        characters escaped; files and pipes get every byte.

        Lines end in LF or CRLF, and outside quotes a CR alone ends a row too; a file whose first line \
        ends in a CR alone, or a JSON array, is refused with what to do.

        --format parquet writes an Apache Parquet file (to a file or a pipe, not a terminal) with the \
        columns CSV would have, each optional (an empty value is null): the input's as strings, the \
        fields' typed (degrees and kilometres doubles, populations 64-bit integers, land and in_lake \
        booleans); it is whole once the batch ends, also after Ctrl-C.

        Fields (--fields, comma-separated; all of them by default): land, country, region, \
        subregion (a US county, a French département), sea (with lake and inLake), nearestPlace, \
        nearestLand, timeZone, boundaryKm (how far each of those layers' nearest boundary is). \
        nearestLand and boundaryKm search for the nearest shoreline and borders, and cost several times \
        what each other field does. \
        '--fields none' adds no field: the rows are read, checked \
        and written back (with --antipode, with their antipodes), which is what reading and writing alone \
        cost.

        Examples:
          tunnel batch points.csv > placemarks.csv
          tunnel batch --fields nearestPlace --antipode points.csv
          tunnel batch --format jsonl < points.csv | head
          tunnel batch tracks.geojson --format geojson > named.geojson
          printf '56 8.5\\n-33.9 18.4\\n' | tunnel batch --format jsonl
        """
    )

    @Argument(
      help: ArgumentHelp(
        "The file to read; '-' or nothing for standard input.", valueName: "file"),
      completion: .file(extensions: ["csv", "tsv", "jsonl", "ndjson", "geojson", "json"]))
    var file: String?

    @Option(
      help: ArgumentHelp(
        "The input's format (default: from the file's extension, else from its first line).",
        valueName: "csv|tsv|jsonl|geojson"))
    var inputFormat: BatchInputFormat?

    @Option(
      help: ArgumentHelp(
        "The output's format (default: the input's; CSV for CSV).", valueName: "csv|tsv|jsonl|geojson|parquet"
      ))
    var format: Format?

    /// What `--format` chooses: a text format, or Parquet (the CSV's columns, typed).
    enum Format: String, ExpressibleByArgument, CaseIterable {
      case csv, tsv, jsonl, geojson, parquet
    }

    @Option(
      help: ArgumentHelp(
        "The placemark's parts to add, comma-separated (default: all).", valueName: "fields"))
    var fields: String?

    @Flag(help: "Add each point's antipode and the same fields for it.")
    var antipode = false

    @Option(
      help: ArgumentHelp("The column holding the latitude (a name or a number from 1).", valueName: "column"))
    var latColumn: String?

    @Option(
      help: ArgumentHelp("The column holding the longitude (a name or a number from 1).", valueName: "column")
    )
    var lonColumn: String?

    @Option(
      help: ArgumentHelp(
        "The column holding a whole coordinate, as '56.55 8.32' or '56°33′N 8°19′E'.", valueName: "column"))
    var coordinateColumn: String?

    @Option(
      help: ArgumentHelp(
        "Decimals for degrees (kilometres get three fewer); the default, 9, is 0.1 mm.", valueName: "n"))
    var precision: Int = 9

    @Flag(help: "Leave bad rows out of the output (they are still counted and named on standard error).")
    var skipInvalid = false

    @Option(help: ArgumentHelp("Threads to answer on (default: one per core).", valueName: "n"))
    var threads: Int?

    @OptionGroup var data: DataOptions

    /// What the options that choose columns, and JSON Lines output, are called here, for the library's
    /// messages.
    static let columnOptions = CoordinateColumns.OptionNames(
      latitude: "--lat-column", longitude: "--lon-column", coordinate: "--coordinate-column",
      jsonLines: "--format jsonl")

    func check() throws {
      _ = try PrecisionOptions.precision(precision, otherwise: .data)
      if let threads, !(1...1024).contains(threads) {
        throw ValidationError("--threads must be between 1 and 1,024")
      }
      if coordinateColumn != nil, latColumn != nil || lonColumn != nil {
        throw ValidationError("give either --coordinate-column or --lat-column and --lon-column, not both")
      }
      if let latColumn, latColumn == lonColumn {
        throw ValidationError(BatchError.sameColumn(name: latColumn).description(naming: Self.columnOptions))
      }
      _ = try chosenFields()
    }

    func chosenFields() throws -> [PlacemarkField] {
      guard let fields else { return PlacemarkField.allCases }
      do {
        return try PlacemarkField.list(fields)
      } catch {
        throw ValidationError("--fields: \(error.message)")
      }
    }

    func run() throws {
      // Each chunk's rows, answers and output are arrays of megabytes, allocated and freed again.
      FreedMemory.keepForReuse()
      let placeData = try data.placeData()
      let catcher = SignalCatcher([SIGINT, SIGTERM, SIGHUP])
      defer { catcher.restore() }
      signal(SIGPIPE, SIG_IGN)
      let name = file.flatMap { $0 == "-" ? nil : $0 }
      if name == nil, isatty(0) == 1 {
        StandardError.write(
          "tunnel: reading rows from the terminal: type them, then Ctrl-D (or give a file)\n")
      }
      let input: BatchInput
      do {
        input = try BatchInput(
          path: name, format: inputFormat,
          columns: .init(
            latitude: latColumn, longitude: lonColumn, coordinate: coordinateColumn,
            options: Self.columnOptions),
          stopRequested: { SignalCatcher.caught != nil })
      } catch {
        throw CommandFailure(error, source: name)
      }
      if format == .parquet, isatty(1) == 1 {
        throw CommandFailure(
          message:
            "Parquet is binary: send it to a file (tunnel batch --format parquet … > placemarks.parquet)",
          status: .usage)
      }
      let outputFormat =
        format.map { BatchOutputFormat(rawValue: $0.rawValue) ?? .csv }
        ?? {
          switch input.format {
          case .csv: .csv
          case .tsv: .tsv
          case .jsonl: .jsonl
          case .geojson: .geojson
          }
        }()
      var options = BatchRun.Options(
        fields: try chosenFields(), antipode: antipode, format: outputFormat,
        precision: try PrecisionOptions.precision(precision, otherwise: .data), skipInvalid: skipInvalid,
        threads: threads)
      options.writesParquet = format == .parquet
      options.toTerminal = isatty(1) == 1 && !options.writesParquet
      let report = BatchReport(source: name ?? "standard input", size: input.size)
      let summary: BatchRun.Summary
      do {
        summary = try BatchRun(
          input: input, geocoder: ReverseGeocoder(data: placeData, cache: CacheLocation.cache()),
          options: options
        )
        .run(
          output: 1, shouldStop: { SignalCatcher.caught != nil }, badRow: report.badRow,
          progress: report.progress)
      } catch let error as BatchError {
        report.finish()
        throw CommandFailure(error, source: name)
      } catch let error as PlaceDataError {
        report.finish()
        throw CommandFailure(error)
      }
      report.finish()
      if summary.outputClosed { return }
      try report.conclude(summary, skipInvalid: skipInvalid, signal: SignalCatcher.caught)
    }
  }
}

/// What a batch tells standard error: bad rows (the first ``shownBadRows``, then a count), a progress
/// line while standard error is a terminal, and how it ended.
final class BatchReport {
  static let shownBadRows = 20

  private let source: String
  private let size: Int?
  private let showsProgress = isatty(2) == 1
  private let started = Date()
  private var lastProgress = Date.distantPast
  private var badRows = 0
  private var progressShown = false

  init(source: String, size: Int?) {
    self.source = source
    self.size = size
  }

  private func write(_ line: String) {
    StandardError.write(line)
  }

  func badRow(_ record: BatchRecord) {
    badRows += 1
    guard badRows <= Self.shownBadRows else { return }
    clearProgress()
    write("tunnel: \(source), line \(record.line): \(record.problem ?? "bad row")\n")
  }

  func progress(rows: Int, bytes: Int) {
    guard showsProgress else { return }
    let now = Date()
    guard now.timeIntervalSince(lastProgress) >= 0.25 else { return }
    lastProgress = now
    let seconds = now.timeIntervalSince(started)
    let rate = seconds > 0 ? Double(rows) / seconds : 0
    var line = "\(Self.rows(rows)), \(PlaceText.grouped(Int(rate))) rows/s"
    if let size, size > 0, bytes > 0 {
      let fraction = min(1, Double(bytes) / Double(size))
      let remaining = seconds / fraction - seconds
      line += ", \(fixedDecimal(fraction * 100, places: 0)) %, about \(Self.duration(remaining)) left"
    }
    write("\r\u{1B}[K" + line)
    progressShown = true
  }

  private func clearProgress() {
    if progressShown { write("\r\u{1B}[K") }
    progressShown = false
  }

  /// Clears the progress line.
  func finish() { clearProgress() }

  /// Says how the batch ended and throws the failure that sets the exit status, if any.
  func conclude(_ summary: BatchRun.Summary, skipInvalid: Bool, signal: Int32?) throws {
    if badRows > Self.shownBadRows {
      write(
        "tunnel: … and \(PlaceText.grouped(badRows - Self.shownBadRows)) more bad \(badRows - Self.shownBadRows == 1 ? "row" : "rows")\n"
      )
    }
    let seconds = Date().timeIntervalSince(started)
    if let signal {
      let name = signal == SIGINT ? "interrupted" : signal == SIGTERM ? "terminated" : "hung up"
      throw CommandFailure(
        message:
          "\(name) after \(Self.rows(summary.rows)); the output holds those rows, each whole",
        status: .signal(signal))
    }
    if summary.badRows > 0 {
      let message =
        "\(PlaceText.grouped(summary.badRows)) of \(Self.rows(summary.rows)) \(summary.badRows == 1 ? "was" : "were") bad"
        + (skipInvalid ? " and left out of the output" : " (see the error column)")
      if skipInvalid {
        write("tunnel: \(message)\n")
      } else {
        throw CommandFailure(message: message, status: .dataError)
      }
    } else if showsProgress {
      let rate = seconds > 0 ? Double(summary.rows) / seconds : 0
      write(
        "tunnel: \(Self.rows(summary.rows)) in \(fixedDecimal(seconds, places: 1)) s (\(PlaceText.grouped(Int(rate))) rows/s)\n"
      )
    }
  }

  /// "1 row", "1,234 rows".
  static func rows(_ count: Int) -> String { "\(PlaceText.grouped(count)) row\(count == 1 ? "" : "s")" }

  static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "?" }
    let whole = Int(seconds.rounded())
    func two(_ value: Int) -> String { (0..<10).contains(value) ? "0\(value)" : "\(value)" }
    return whole >= 3600
      ? "\(whole / 3600):\(two(whole / 60 % 60)):\(two(whole % 60))"
      : "\(whole / 60):\(two(whole % 60))"
  }
}

extension BatchInputFormat: ExpressibleByArgument {}

extension CommandFailure {
  /// A batch that cannot go on: the input cannot be opened (``ExitStatus/noInput``), read or written
  /// (``ExitStatus/ioError``), or its columns are not found or in doubt (``ExitStatus/dataError``;
  /// ``ExitStatus/usage`` when options name a column that is not there, or one column twice).
  ///
  /// A problem with the input's contents names the input: `source` (a path; nil for standard input).
  init(_ error: BatchError, source: String?) {
    let status: ExitStatus
    switch error {
    case .cannotOpen: status = .noInput
    case .readFailed, .writeFailed: status = .ioError
    case .unknownColumn, .sameColumn: status = .usage
    case .noCoordinateColumns, .ambiguousColumns, .missingColumn, .unreadableHeader, .repeatedColumn,
      .unreadableDocument, .noRowForColumns, .carriageReturnLineEnds, .jsonArray:
      status = .dataError
    }
    var message = error.description(naming: Tunnel.Batch.columnOptions)
    switch error {
    case .cannotOpen:
      break
    case .writeFailed(let reason):
      // The batch writes to standard output alone; said as every other command says it.
      message = "cannot write to standard output: \(reason)"
    case .unreadableHeader, .repeatedColumn, .unreadableDocument, .carriageReturnLineEnds, .jsonArray:
      // "points.csv, line 1, the header: …"
      message = "\(source ?? "standard input"), " + message
    case .readFailed, .noCoordinateColumns, .ambiguousColumns, .unknownColumn, .missingColumn, .sameColumn,
      .noRowForColumns:
      message = "\(source ?? "standard input"): " + message
    }
    self.init(message: message, status: status)
  }
}
