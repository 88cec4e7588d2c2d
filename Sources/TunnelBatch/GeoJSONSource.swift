import TunnelGeo

/// The rows of GeoJSON: the features of a FeatureCollection, streamed one at a time however long the
/// document, or features one after another (one a line, or separated by RS as in RFC 8142).
///
/// A row's values are its feature's properties; its coordinate is its Point geometry (longitude first,
/// as RFC 7946 has it), or, for a feature whose geometry is null or missing, the properties that hold
/// one, found as a CSV header's columns are (``CoordinateColumns``). Broken JSON inside a collection
/// cannot be resynchronised: it ends the batch with ``BatchError/unreadableDocument(line:reason:)``.
final class GeoJSONSource: RecordSource {
  private let input: InputBuffer
  private let names: CoordinateColumns.Names
  private enum State {
    /// Between top-level values.
    case top
    /// Inside a collection's "features" array; `first` until an element has been read.
    case features(first: Bool)
    /// After the features array, in the rest of the collection object.
    case afterFeatures
  }
  private var state = State.top
  /// Collections begun so far: only the first one's members are kept.
  private var collections = 0

  /// The members of the input's first FeatureCollection that describe the whole and stay true of the
  /// features written (``keptCollectionMembers``), each `(name, raw JSON)`, before its `features`: set
  /// once, before its first feature is read, so that they can be read while later rows are.
  private(set) var membersBefore: [(name: String, json: String)] = []
  /// Those after its `features`, known once the input has been read.
  private(set) var membersAfter: [(name: String, json: String)] = []

  /// The collection's members GeoJSON output keeps: its name, its coordinate reference system (the
  /// 2008 GeoJSON's, as GDAL writes it) and its bounding box. Counts (`numberMatched`, …) are not kept:
  /// bad rows may be left out.
  static let keptCollectionMembers: Set<String> = ["name", "crs", "bbox"]

  /// Longer features are not read: they become a bad row, and reading goes on after them (a reader
  /// must hold a whole feature in memory; sixteen times a CSV line, since features hold shapes).
  static let maximumFeatureBytes = 16 << 20
  static let tooLong = "the feature is longer than \(maximumFeatureBytes >> 20) MiB; it is not read"
  /// Features nested deeper than ``JSONScan/maximumDepth`` are not read either: a bad row, skipped.
  static let tooDeep = "the feature is \(JSONScan.tooDeepReason); it is not read"

  init(input: InputBuffer, names: CoordinateColumns.Names) {
    self.input = input
    self.names = names
    features = GeoJSONFeatures(names: names)
  }

  /// How features are read from their text.
  private let features: GeoJSONFeatures
  /// Whether features are handed over unread (``BatchRecord/isUnread``), their text kept by the reading
  /// thread for ``features`` to read later on another thread (``deferRows()``).
  private var defersFeatures = false

  func deferRows() -> LineRows? {
    defersFeatures = true
    return .geoJSON(features)
  }

  /// None: only the collection's structure says where a feature ends, so each is found by ``next()``.
  func takeLines(limit: Int, byteLimit: Int, into records: inout [BatchRecord], lines: inout [UInt8]) -> Int {
    0
  }

  /// The line of a position in the input buffer.
  private func line(at position: Int) -> Int { input.linesConsumed + input.lines(before: position) + 1 }

  func next() throws(BatchError) -> BatchRecord? {
    while true {
      let step = try input.storage.withUnsafeBufferPointer { bytes throws(BatchError) in try self.step(bytes)
      }
      switch step {
      case .record(let record, let consumed):
        input.consume(consumed)
        return record
      case .skip(let consumed):
        input.consume(consumed)
      case .tooDeep:
        guard let record = try skipValue(problem: Self.tooDeep) else { return nil }
        return record
      case .needMore:
        if input.available > Self.maximumFeatureBytes {
          guard let record = try skipValue(problem: Self.tooLong) else { return nil }
          return record
        }
        // An element not yet whole is scanned again from its start after each read: past a megabyte,
        // read as much again as is held before looking again, so that a long feature arriving through
        // a pipe a few kilobytes at a time is scanned a few times, not once per read.
        let wanted = input.available >= 1 << 20 ? 2 * input.available : 0
        if try input.fill() {
          while input.available < wanted, try input.fill() {}
        } else {
          // Stopped between features or inside one: the rows before are the batch's.
          if input.stopped { return nil }
          if input.available == 0 || isBlank() {
            if case .top = state { return nil }
            throw .unreadableDocument(
              line: line(at: input.end), reason: "the document ends before it is closed")
          }
          throw .unreadableDocument(line: line(at: input.start), reason: "the document ends inside a value")
        }
      }
    }
  }

  /// Skips a feature that is not read (longer than ``maximumFeatureBytes``, or nested too deep), a block
  /// at a time, and returns its bad row with `problem`; nil when a stop is requested before it ends.
  ///
  /// - Throws: ``BatchError/unreadableDocument(line:reason:)`` when the document ends inside it, or the
  ///   overlong value is not a feature (a collection's member).
  private func skipValue(problem: String) throws(BatchError) -> BatchRecord? {
    let elementStart = input.storage.withUnsafeBufferPointer { bytes in
      var index = input.start
      var commaSeen = false
      while index < input.end {
        let byte = bytes[index]
        if JSONScan.isWhitespace(byte) || byte == 0x1E {
          index += 1
        } else if case .features(first: false) = state, byte == UInt8(ascii: ","), !commaSeen {
          commaSeen = true
          index += 1
        } else if byte == 0xEF, index + 2 < input.end, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
          index += 3
        } else {
          break
        }
      }
      return index
    }
    let number = line(at: elementStart)
    switch state {
    case .top, .features:
      break
    case .afterFeatures:
      throw .unreadableDocument(
        line: number,
        reason: "a member of the collection is longer than \(Self.maximumFeatureBytes >> 20) MiB")
    }
    input.consume(elementStart - input.start)
    var skip = JSONSkip()
    while true {
      let end = input.storage.withUnsafeBufferPointer { bytes in
        skip.end(in: bytes, from: input.start, to: input.end)
      }
      if let end {
        input.consume(end - input.start)
        break
      }
      input.consume(input.available)
      guard try input.fill() else {
        if input.stopped { return nil }
        throw .unreadableDocument(line: line(at: input.start), reason: "the document ends inside a value")
      }
    }
    if case .features = state { state = .features(first: false) }
    return BatchRecord(line: number, values: [], coordinate: nil, problem: problem)
  }

  private func isBlank() -> Bool {
    input.storage.withUnsafeBufferPointer { bytes in
      (input.start..<input.end).allSatisfy { JSONScan.isWhitespace(bytes[$0]) || bytes[$0] == 0x1E }
    }
  }

  private enum Step {
    case record(BatchRecord, consumed: Int)
    case skip(Int)
    /// The feature that starts after whitespace (and the comma before it) is nested too deep to read.
    case tooDeep
    case needMore
  }

  private func step(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Step {
    let start = input.start
    let end = input.end
    var index = start
    while index < end,
      JSONScan.isWhitespace(bytes[index]) || bytes[index] == 0x1E
        || (bytes[index] == 0xEF && index + 2 < end && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF)
    {
      index += bytes[index] == 0xEF ? 3 : 1
    }
    if index == end { return index > start ? .skip(index - start) : .needMore }
    func invalid(_ reason: String, _ position: Int) -> BatchError {
      .unreadableDocument(line: line(at: position), reason: "not GeoJSON: \(reason)")
    }
    switch state {
    case .top:
      if bytes[index] == UInt8(ascii: "[") {
        throw .jsonArray(expected: .geojson, line: line(at: index))
      }
      guard bytes[index] == UInt8(ascii: "{") else { throw invalid("expected an object", index) }
      // Read members until "features" opens, without consuming: an object without them is one feature.
      var position = JSONScan.skipWhitespace(bytes, index + 1, end: end)
      var before: [(name: String, json: String)] = []
      while position < end, bytes[position] != UInt8(ascii: "}") {
        guard bytes[position] == UInt8(ascii: "\"") else {
          throw invalid("expected a member's name", position)
        }
        let nameOutcome = JSONScan.string(bytes, from: position, end: end)
        guard case .end(let nameEnd) = nameOutcome else { return try outcomeStep(nameOutcome, invalid) }
        let name = JSONScan.decodedString(bytes, position..<nameEnd)
        position = JSONScan.skipWhitespace(bytes, nameEnd, end: end)
        guard position < end else { return .needMore }
        guard bytes[position] == UInt8(ascii: ":") else { throw invalid("expected ':'", position) }
        position = JSONScan.skipWhitespace(bytes, position + 1, end: end)
        guard position < end else { return .needMore }
        if name == "features" {
          guard bytes[position] == UInt8(ascii: "[") else {
            throw invalid("\"features\" is not an array", position)
          }
          state = .features(first: true)
          collections += 1
          if collections == 1 { membersBefore = before }
          return .skip(position + 1 - start)
        }
        let outcome = JSONScan.value(bytes, from: position, end: end)
        // A member nested too deep: the object is a feature not read (the members before "features"
        // are read with it).
        if case .tooDeep = outcome { return .tooDeep }
        guard case .end(let valueEnd) = outcome else { return try outcomeStep(outcome, invalid) }
        if let name, Self.keptCollectionMembers.contains(name), !before.contains(where: { $0.name == name }) {
          before.append((name, JSONScan.compacted(bytes, position..<valueEnd)))
        }
        position = JSONScan.skipWhitespace(bytes, valueEnd, end: end)
        guard position < end else { return .needMore }
        if bytes[position] == UInt8(ascii: ",") {
          position = JSONScan.skipWhitespace(bytes, position + 1, end: end)
        }
      }
      guard position < end else { return .needMore }
      // A whole object without features: one feature.
      return .record(row(bytes, index..<(position + 1)), consumed: position + 1 - start)
    case .features(let first):
      if bytes[index] == UInt8(ascii: "]") {
        state = .afterFeatures
        return .skip(index + 1 - start)
      }
      var elementStart = index
      if !first {
        guard bytes[index] == UInt8(ascii: ",") else { throw invalid("expected ',' or ']'", index) }
        elementStart = JSONScan.skipWhitespace(bytes, index + 1, end: end)
        guard elementStart < end else { return .needMore }
      }
      let outcome = JSONScan.value(bytes, from: elementStart, end: end)
      if case .tooDeep = outcome { return .tooDeep }
      guard case .end(let elementEnd) = outcome else { return try outcomeStep(outcome, invalid) }
      state = .features(first: false)
      return .record(row(bytes, elementStart..<elementEnd), consumed: elementEnd - start)
    case .afterFeatures:
      switch bytes[index] {
      case UInt8(ascii: "}"):
        state = .top
        return .skip(index + 1 - start)
      case UInt8(ascii: ","):
        var position = JSONScan.skipWhitespace(bytes, index + 1, end: end)
        guard position < end else { return .needMore }
        guard bytes[position] == UInt8(ascii: "\"") else {
          throw invalid("expected a member's name", position)
        }
        let nameStart = position
        let name = JSONScan.string(bytes, from: position, end: end)
        guard case .end(let nameEnd) = name else { return try outcomeStep(name, invalid) }
        position = JSONScan.skipWhitespace(bytes, nameEnd, end: end)
        guard position < end else { return .needMore }
        guard bytes[position] == UInt8(ascii: ":") else { throw invalid("expected ':'", position) }
        position = JSONScan.skipWhitespace(bytes, position + 1, end: end)
        let value = JSONScan.value(bytes, from: position, end: end)
        guard case .end(let valueEnd) = value else { return try outcomeStep(value, invalid) }
        if collections == 1, let name = JSONScan.decodedString(bytes, nameStart..<nameEnd),
          Self.keptCollectionMembers.contains(name)
        {
          membersAfter.append((name, JSONScan.compacted(bytes, position..<valueEnd)))
        }
        return .skip(valueEnd - start)
      default:
        throw invalid("expected ',' or '}'", index)
      }
    }
  }

  /// The step for a scan that did not end a value: more input, or the document's error.
  private func outcomeStep(
    _ outcome: JSONScan.Outcome, _ invalid: (String, Int) -> BatchError
  ) throws(BatchError) -> Step {
    switch outcome {
    case .end: return .needMore
    case .incomplete: return .needMore
    case .invalid(let reason, let position): throw invalid(reason, position)
    case .tooDeep(let position): throw invalid(JSONScan.tooDeepReason, position)
    }
  }

  /// The row of the feature at `range`: read now, or handed over unread (``defersFeatures``) for
  /// ``features`` to read on another thread.
  private func row(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> BatchRecord {
    let number = line(at: range.lowerBound)
    if defersFeatures, range.count <= Self.maximumFeatureBytes {
      return BatchRecord(line: number, unreadPlainLine: range)
    }
    return features.record(bytes, range, line: number)
  }
}

/// How the rows of GeoJSON features are read from their text: what ``GeoJSONSource`` knows, for reading
/// features on any thread (``ChunkReader`` reads a chunk's on every core).
struct GeoJSONFeatures: Sendable {
  /// The columns the user named.
  let names: CoordinateColumns.Names

  /// The row of a feature handed over unread: all its bytes are the feature's text.
  func record(line: Int, text bytes: UnsafeBufferPointer<UInt8>) -> BatchRecord {
    record(bytes, 0..<bytes.count, line: line)
  }

  /// The row of one feature (a whole object at `range`): its properties and geometry as they came, or
  /// none of them when they cannot pass through whole (bytes that are not UTF-8, a name given twice).
  func record(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line number: Int) -> BatchRecord {
    // A bad feature's text as it came, for the outputs that cannot hold its geometry or members; none
    // when it is not UTF-8 (it would be changed). Made for bad features alone: a copy of every feature
    // was a tenth of reading GeoJSON.
    func source() -> String? {
      UTF8Validation.isValid(bytes, range)
        ? String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) : nil
    }
    func bad(_ problem: String) -> BatchRecord {
      BatchRecord(line: number, values: [], coordinate: nil, problem: problem, source: source())
    }
    guard range.count <= GeoJSONSource.maximumFeatureBytes else {
      return BatchRecord(line: number, values: [], coordinate: nil, problem: GeoJSONSource.tooLong)
    }
    guard bytes[range.lowerBound] == UInt8(ascii: "{") else { return bad("the feature is not a JSON object") }
    guard UTF8Validation.isValid(bytes, range) else {
      return bad("the feature is not JSON: it holds bytes that are not UTF-8 text")
    }
    let members = JSONScan.members(bytes, from: range.lowerBound, end: range.upperBound)
    if let problem = JSONScan.namesProblem(members, what: "member") { return bad(problem) }
    func member(_ name: String) -> Range<Int>? { members.first { $0.name == name }?.value }
    var names: [String] = []
    var values: [String] = []
    if let properties = member("properties"), bytes[properties.lowerBound] == UInt8(ascii: "{") {
      let found = JSONScan.members(bytes, from: properties.lowerBound, end: properties.upperBound)
      if let problem = JSONScan.namesProblem(found, what: "property") { return bad(problem) }
      for property in found {
        names.append(property.name ?? "")
        values.append(JSONScan.compacted(bytes, property.value))
      }
    }
    let type = member("type").flatMap { JSONScan.decodedString(bytes, $0) }
    var geometry = member("geometry")
    if type == "Point" { geometry = range }
    let rawGeometry = geometry.flatMap {
      bytes[$0.lowerBound] == UInt8(ascii: "n") ? nil : JSONScan.compacted(bytes, $0)
    }
    var outside = BatchRecord.Feature(
      id: member("id").map { JSONScan.compacted(bytes, $0) },
      bbox: member("bbox").map { JSONScan.compacted(bytes, $0) })
    func row(_ coordinate: Result<Coordinate, RowProblem>) -> BatchRecord {
      switch coordinate {
      case .success(let found):
        return BatchRecord(
          line: number, values: values, names: names, coordinate: found, problem: nil, geometry: rawGeometry,
          feature: outside)
      case .failure(let problem):
        return BatchRecord(
          line: number, values: values, names: names, coordinate: nil, problem: problem.message,
          geometry: rawGeometry, source: source(), feature: outside)
      }
    }
    if type != "Point", type != "Feature" {
      return row(
        .failure(
          RowProblem(
            "the object is not a GeoJSON Feature (its type is \(type.map { "'\($0)'" } ?? "missing"))")))
    }
    guard let geometry, bytes[geometry.lowerBound] != UInt8(ascii: "n") else {
      return row(propertiesCoordinate(properties: names, values: values))
    }
    guard bytes[geometry.lowerBound] == UInt8(ascii: "{") else {
      return row(.failure(RowProblem("the feature has no geometry")))
    }
    let parts = JSONScan.members(bytes, from: geometry.lowerBound, end: geometry.upperBound)
    let geometryType = parts.first { $0.name == "type" }.flatMap { JSONScan.decodedString(bytes, $0.value) }
    guard geometryType == "Point" else {
      return row(
        .failure(RowProblem("the geometry is a \(geometryType ?? "shape without a type"), not a Point")))
    }
    guard let coordinates = parts.first(where: { $0.name == "coordinates" })?.value,
      bytes[coordinates.lowerBound] == UInt8(ascii: "[")
    else {
      return row(.failure(RowProblem("the Point has no coordinates")))
    }
    // The array's elements as written, split at its commas, the whitespace around each taken off (JSON's
    // own four bytes: the feature is JSON). Read byte by byte: as characters, each asked whether it
    // was whitespace, they were a third of reading GeoJSON.
    var texts: [String] = []
    var partStart = coordinates.lowerBound + 1
    let inner = partStart..<(coordinates.upperBound - 1)
    for index in inner.lowerBound...inner.upperBound
    where index == inner.upperBound || bytes[index] == UInt8(ascii: ",") {
      var (from, to) = (partStart, index)
      while from < to, JSONScan.isWhitespace(bytes[from]) { from += 1 }
      while to > from, JSONScan.isWhitespace(bytes[to - 1]) { to -= 1 }
      texts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self))
      partStart = index + 1
    }
    let numbers = texts.prefix(2).map { Double($0) }
    guard numbers.count >= 2, let longitude = numbers[0], let latitude = numbers[1] else {
      return row(.failure(RowProblem("the Point's coordinates are not [longitude, latitude]")))
    }
    // Longitude first in GeoJSON; the point's numbers pass through as they were written.
    (outside.latitude, outside.longitude) = (texts[1], texts[0])
    return row(CoordinateColumns.coordinate(latitude, longitude))
  }

  /// The coordinate of a feature without a geometry, from the properties that hold one.
  private func propertiesCoordinate(
    properties: [String], values: [String]
  ) -> Result<
    Coordinate, RowProblem
  > {
    do throws(BatchError) {
      guard let columns = try CoordinateColumns.find(in: properties, names: names) else {
        return .failure(
          RowProblem(
            "the feature has no geometry, and no property holds the coordinate (lat and lon, latitude and longitude, or coordinate)"
          ))
      }
      return JSONValues.coordinate(values, columns)
    } catch .unknownColumn(let role, let name, _) {
      return .failure(
        RowProblem(
          "the feature has no geometry, and \(names.options[role]) \(EchoedText.quoted(name)) names none of its properties"
        ))
    } catch .ambiguousColumns(let candidates, _) {
      return .failure(
        RowProblem(
          "the feature has no geometry, and "
            + BatchError.ambiguity(candidates, options: names.options, item: "property")))
    } catch {
      return .failure(RowProblem(error.description(naming: names.options)))
    }
  }
}
