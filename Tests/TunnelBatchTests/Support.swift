import Foundation
import Testing

@testable import TunnelBatch

/// Every row of `text` read as `format`, through a file read `blockSize` bytes at a time so that records
/// cross block boundaries.
func records(
  _ text: String, format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init(),
  blockSize: Int = 5
) throws -> (input: BatchInput, rows: [BatchRecord]) {
  try records(Array(text.utf8), format: format, columns: columns, blockSize: blockSize)
}

/// Every row of `bytes`, and whether plain lines are read as such (see ``DelimitedReader``).

func records(
  _ bytes: [UInt8], format: BatchInputFormat? = nil, columns: CoordinateColumns.Names = .init(),
  blockSize: Int = 5, readsPlainLines: Bool = true
) throws -> (input: BatchInput, rows: [BatchRecord]) {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).data")
    .path
  FileManager.default.createFile(atPath: path, contents: Data(bytes))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let input = try BatchInput(
    path: path, format: format, columns: columns, blockSize: blockSize, readsPlainLines: readsPlainLines)
  var rows: [BatchRecord] = []
  while let row = try input.next() { rows.append(row) }
  return (input, rows)
}

/// Every row of `bytes` as a batch reads them: in chunks of `chunkSize` rows from a reading thread, the
/// plain lines' fields read on `threads` threads; each row's values split from its line, so that the rows
/// compare with ``records(_:format:columns:blockSize:readsPlainLines:)``'s.
func chunkedRecords(
  _ bytes: [UInt8], format: BatchInputFormat? = nil, blockSize: Int = 5, chunkSize: Int, threads: Int
) throws -> [BatchRecord] {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).data")
    .path
  FileManager.default.createFile(atPath: path, contents: Data(bytes))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let input = try BatchInput(path: path, format: format, columns: .init(), blockSize: blockSize)
  let reader = ChunkReader(input: input, chunkSize: chunkSize, threads: threads)
  defer { reader.cancel() }
  var rows: [BatchRecord] = []
  while true {
    let chunk = try reader.next { false }
    if chunk.records.isEmpty { return rows }
    chunk.lines.withUnsafeBufferPointer { lines in
      for var record in chunk.records {
        if record.plainLine != nil {
          record.values = record.values(lines: lines, separator: input.separator)
          record.plainLine = nil
        }
        rows.append(record)
      }
    }
  }
}

/// How many of `rows` differ from `reference`, row by row (line, values, names, coordinate, problem and
/// text as it came); the first few are recorded as issues. The two must have as many rows.
func differingRows(
  _ rows: [BatchRecord], _ reference: [BatchRecord], sourceLocation: SourceLocation = #_sourceLocation
) throws -> Int {
  try #require(rows.count == reference.count, sourceLocation: sourceLocation)
  var differing = 0
  for (one, other) in zip(rows, reference)
  where
    !(one.line == other.line && one.values == other.values && one.names == other.names
    && one.coordinate == other.coordinate && one.problem == other.problem && one.source == other.source)
  {
    differing += 1
    if differing <= 3 {
      Issue.record(
        "line \(one.line): \(one.values) \(one.problem ?? "") against \(other.values) \(other.problem ?? "")",
        sourceLocation: sourceLocation)
    }
  }
  return differing
}
