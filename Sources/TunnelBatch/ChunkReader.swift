import Dispatch
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads chunks of rows on a thread of its own, a couple of chunks ahead of the batch that answers
/// them, so that reading overlaps answering.
///
/// Where rows can be read apart (plain CSV and TSV lines, those of CSV whose quotes need not be there,
/// JSON Lines, GeoJSON features), the thread only finds where they end and keeps their text: their fields
/// and numbers are read when ``next(shouldStop:)`` hands their chunk over, in parts on every core
/// (``LineRows``), so that reading is not one core's work. Every other row is read on the thread, as it
/// comes.
///
/// A chunk is handed over when it is full (``chunkSize`` rows, or rows read from ``maximumChunkBytes``
/// of input, so that rows of megabytes do not make chunks of gigabytes), at the end of the input, or
/// when the input has nothing more to give for now (a pipe or a terminal that is waiting for its writer), so that rows arriving slowly
/// are answered as they come.
final class ChunkReader: @unchecked Sendable {
  // @unchecked: `input` and `pending` are used only by the reading thread (but for `cancel()` interrupting
  // the input, which any thread may do); everything else is guarded by `condition`.
  private let input: BatchInput
  private let chunkSize: Int
  private let condition = ThreadCondition()
  private var ready: [Result<Chunk, BatchError>] = []
  private var finished = false
  private var cancelled = false
  // Unchecked: used only by the reading thread, and never while another access to them is under way
  // (rows are handed over by `willWait` only from inside `input.nextKeepingLine()`).
  @exclusivity(unchecked) private var pending: [BatchRecord] = []
  @exclusivity(unchecked) private var pendingLines: [UInt8] = []
  /// Chunks read ahead at most.
  private let depth = 2
  /// Input bytes whose rows make a full chunk however few they are: with the chunks read ahead and the
  /// one being answered, the rows held stay within some tens of megabytes of input.
  static let maximumChunkBytes = 8 << 20
  /// The input's bytes read when the pending chunk began.
  @exclusivity(unchecked) private var pendingStart = 0

  /// Rows read, the plain lines of those that keep them (``BatchRecord/plainLine``), and the input's
  /// bytes read by the end of them.
  struct Chunk {
    var records: [BatchRecord] = []
    var lines: [UInt8] = []
    var bytesRead = 0
  }

  /// Whether the reading thread has returned.
  private var threadEnded = false

  /// How the lines the thread keeps unread are read; nil for input that has none (GeoJSON).
  private let lineRows: LineRows?
  /// Threads the plain lines of a chunk are read on, at most.
  private let threads: Int
  /// Unread rows read on one thread at least: fewer are not worth sharing out.
  static let partRows = 2048

  /// Reads `input`, `chunkSize` rows at a time, its plain lines on `threads` threads (default: one per
  /// core).
  init(input: BatchInput, chunkSize: Int, threads: Int? = nil) {
    self.input = input
    self.chunkSize = chunkSize
    self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    lineRows = input.deferRows()
    input.stopAlso { [weak self] in self?.isCancelled ?? false }
    startThread(stackSize: 1 << 22) { [self] in
      read()
      condition.lock()
      threadEnded = true
      condition.broadcast()
      condition.unlock()
    }
  }

  private func read() {
    input.willWait = { [unowned self] in
      if !pending.isEmpty { hand(over: .success(takePending())) }
    }
    defer { input.willWait = {} }
    pending.reserveCapacity(chunkSize)
    while true {
      do throws(BatchError) {
        // The plain lines already read, all at once; any other row, and the first after each read, one
        // at a time.
        if input.takeLines(
          limit: chunkSize - pending.count,
          byteLimit: Self.maximumChunkBytes - (input.bytesRead - pendingStart),
          into: &pending, lines: &pendingLines) == 0
        {
          // Reading may hand over the pending rows (``BatchInput/willWait``): the line is kept after it.
          guard var record = try input.nextKeepingLine() else { break }
          input.keepLine(of: &record, in: &pendingLines)
          pending.append(consume record)
        }
        if pending.count == chunkSize || input.bytesRead - pendingStart >= Self.maximumChunkBytes,
          !hand(over: .success(takePending()))
        {
          return
        }
      } catch {
        if !pending.isEmpty { hand(over: .success(takePending())) }
        hand(over: .failure(error))
        finish()
        return
      }
    }
    if !pending.isEmpty { hand(over: .success(takePending())) }
    finish()
  }

  private func takePending() -> Chunk {
    let linesCapacity = pendingLines.count
    pendingStart = input.bytesRead
    defer {
      pending = []
      pending.reserveCapacity(chunkSize)
      pendingLines = []
      pendingLines.reserveCapacity(linesCapacity + linesCapacity / 4)
    }
    return Chunk(records: pending, lines: pendingLines, bytesRead: input.bytesRead)
  }

  /// Queues a chunk, waiting while enough are queued; false once reading is cancelled.
  @discardableResult
  private func hand(over chunk: Result<Chunk, BatchError>) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while ready.count >= depth && !cancelled { condition.wait() }
    guard !cancelled else { return false }
    ready.append(chunk)
    condition.broadcast()
    return true
  }

  private func finish() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// The next chunk, its rows read; empty at the end of the input, or when `shouldStop` says so while
  /// waiting.
  func next(shouldStop: () -> Bool) throws(BatchError) -> Chunk {
    guard var chunk = try take(shouldStop: shouldStop) else { return Chunk() }
    if let lineRows { read(&chunk, with: lineRows) }
    return chunk
  }

  /// The next chunk as the thread handed it over; nil at the end of the input, or when `shouldStop`
  /// says so while waiting.
  private func take(shouldStop: () -> Bool) throws(BatchError) -> Chunk? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty && !finished {
      if shouldStop() { return nil }
      condition.wait(seconds: 0.05)
    }
    guard !ready.isEmpty else { return nil }
    let next = ready.removeFirst()
    condition.broadcast()
    return try next.get()
  }

  /// Reads the chunk's unread rows from their lines, in parts on every core when there are many.
  private func read(_ chunk: inout Chunk, with lineRows: LineRows) {
    let workers = max(1, min(chunk.records.count / Self.partRows, threads))
    let parts = workers == 1 ? 1 : workers * 4
    chunk.lines.withUnsafeBufferPointer { lines in
      chunk.records.withUnsafeMutableBufferPointer { records in
        let shared = ChunkRows(records: records, lines: lines)
        let read = { @Sendable (part: Int) in
          let (records, lines) = (shared.records, shared.lines)
          let indices = (records.count * part / parts)..<(records.count * (part + 1) / parts)
          switch lineRows {
          case .delimited(let rows):
            for index in indices where records[index].isUnread {
              let range = records[index].plainLine!
              records[index] = rows.record(
                line: records[index].line, plain: UnsafeBufferPointer(rebasing: lines[range]), at: range)
            }
          case .jsonLines(let rows):
            // JSON rows alike share their names and columns within a part.
            var columns = JSONLineRows.Columns()
            for index in indices where records[index].isUnread {
              records[index] = rows.record(
                line: records[index].line,
                text: UnsafeBufferPointer(rebasing: lines[records[index].plainLine!]),
                columns: &columns)
            }
          case .geoJSON(let features):
            for index in indices where records[index].isUnread {
              records[index] = features.record(
                line: records[index].line,
                text: UnsafeBufferPointer(rebasing: lines[records[index].plainLine!]))
            }
          }
        }
        if parts == 1 { read(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: read) }
      }
    }
  }

  private var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Stops reading ahead and waits for the reading thread to return: a read under way finishes first, a
  /// wait for slow input from a descriptor ends within a tenth of a second, and one for any other source is
  /// interrupted (``BatchByteSource/interrupt()``). Once it returns the input is no longer read, so that its
  /// descriptor can be closed (in a server, a descriptor closed under a read could be reused by another
  /// request's socket).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
    // Outside the lock: the source's wait asks `isCancelled`, which takes it.
    input.interruptReading()
    condition.lock()
    while !threadEnded { condition.wait() }
    condition.unlock()
  }
}

/// A chunk's rows, each read by one part, and its lines.
private struct ChunkRows: @unchecked Sendable {
  // @unchecked: each part writes only its own rows, and the rows are read after every part has returned.
  let records: UnsafeMutableBufferPointer<BatchRecord>
  let lines: UnsafeBufferPointer<UInt8>
}
