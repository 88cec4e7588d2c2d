import Foundation
import SeededRandom
import Testing
import TunnelReports
import TunnelSystem

@testable import TunnelBatch

#if canImport(Glibc)
import Glibc
#endif

/// A batch over the byte source and sink a server uses: ``SpooledInput`` filled by another thread, rows
/// taken from an ``OutputQueue``; the same bytes as a file gives, and every wait ended by a cancel.
@Suite struct BatchStreamTests {
  /// Waits at most `seconds` for `body`, run on a thread of its own, to return; whether it did.
  static func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
  }

  /// Hands `bytes` to `input` in pieces of random sizes from another thread, now and then pausing, then
  /// finishes it.
  static func feed(_ bytes: [UInt8], into input: SpooledInput, seed: UInt64) {
    Thread.detachNewThread {
      var random = SplitMix64(seed: seed)
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + Int.random(in: 1...300, using: &random))
        bytes[offset..<end].withUnsafeBytes { _ = input.append($0) }
        offset = end
        if Int.random(in: 0..<50, using: &random) == 0 { usleep(1000) }
      }
      input.finish()
    }
  }

  @Test("Bytes come out of a spooled input in the order they went in, through memory and the file")
  func spooledOrder() throws {
    var random = SplitMix64(seed: 7)
    let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let input = SpooledInput(memoryLimit: 64)
    // More than memory takes before the reader starts: the rest goes through the file.
    #expect(bytes[0..<1000].withUnsafeBytes { input.append($0) })
    Self.feed(Array(bytes[1000...]), into: input, seed: 11)
    var read: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000, alignment: 1)
    defer { buffer.deallocate() }
    var usedFile = false
    while true {
      let count = try input.read(into: buffer, stopRequested: { false })
      usedFile = usedFile || input.fileDescriptor >= 0
      guard let count else {
        #expect(try input.waitForBytes(stopRequested: { false }))
        continue
      }
      if count == 0 { break }
      read += buffer[0..<count]
    }
    #expect(read == bytes)
    #expect(usedFile)
    // The file has no name: nothing is left behind in the folder whatever happens to the process.
    var target = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/fd/\(input.fileDescriptor)", &target, target.count - 1)
    let link = String(decoding: target[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #expect(link.hasSuffix("(deleted)"), "\(link)")
  }

  @Test("A spooled input past its limit fails its reader; appends after a cancel are refused")
  func spooledLimits() throws {
    let small = SpooledInput(memoryLimit: 8, maximumBytes: 20)
    let bytes = [UInt8](repeating: 0x41, count: 15)
    #expect(bytes.withUnsafeBytes { small.append($0) })
    #expect(!bytes.withUnsafeBytes { small.append($0) })
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 100, alignment: 1)
    defer { buffer.deallocate() }
    var failure: BatchError?
    do {
      _ = try small.read(into: buffer, stopRequested: { false })
    } catch {
      failure = error
    }
    #expect(failure != nil, "the reader learns that the input is not whole")
    let cancelled = SpooledInput()
    cancelled.cancel()
    #expect(!bytes.withUnsafeBytes { cancelled.append($0) })
    #expect(!(try cancelled.waitForBytes(stopRequested: { false })))
  }

  @Test("A cancel wakes a reader waiting for input and a batch waiting for room in its output")
  func cancelWakesWaits() throws {
    let input = SpooledInput()
    let waited = Self.returns(within: 0.2) { _ = try? input.waitForBytes(stopRequested: { false }) }
    #expect(!waited, "nothing to read: the reader waits")
    input.cancel()
    #expect(Self.returns(within: 2) { _ = try? input.waitForBytes(stopRequested: { false }) })

    let output = OutputQueue(limit: 10)
    let bytes = [UInt8](repeating: 0x41, count: 8)
    #expect(try bytes.withUnsafeBufferPointer { try output.write($0) })
    let written = Locked(true)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let taken = (try? bytes.withUnsafeBufferPointer { try output.write($0) }) ?? true
      written.withLock { $0 = taken }
      finished.signal()
    }
    #expect(finished.wait(timeout: .now() + 0.2) == .timedOut, "the queue is full: the write waits")
    output.cancel()
    #expect(finished.wait(timeout: .now() + 2) == .success)
    #expect(!written.withLock { $0 }, "a write after the reader has gone is refused")
  }

  @Test("A queue's reader gets everything written, then nil; a cancelled one gets nil at once")
  func queueHandsOver() async throws {
    let output = OutputQueue(limit: 100)
    Thread.detachNewThread {
      for index in 0..<1000 {
        let bytes = Array("row \(index)\n".utf8)
        _ = try? bytes.withUnsafeBufferPointer { try output.write($0) }
      }
      output.finish()
    }
    var text: [UInt8] = []
    while let bytes = await output.next() { text += bytes }
    #expect(text == Array((0..<1000).map { "row \($0)\n" }.joined().utf8))
    let cancelled = OutputQueue()
    let waiting = Task { await cancelled.next() }
    try await Task.sleep(nanoseconds: 50_000_000)
    cancelled.cancel()
    #expect(await waiting.value == nil)
  }

  @Test(
    "A batch over a spooled input into a queue writes what the same batch writes to a file",
    arguments: [BatchOutputFormat.csv, .geojson])
  func sameBytes(format: BatchOutputFormat) async throws {
    let (text, _) = BatchRunTests.points(3000)
    let options = BatchRun.Options(
      fields: [.country, .nearestPlace], format: format, chunkSize: 500)
    let expected = try BatchRunTests().run(text, options: options).output
    let input = SpooledInput(memoryLimit: 1000)
    Self.feed(Array(text.utf8), into: input, seed: 3)
    let output = OutputQueue(limit: 4096)
    let summary = Locked<BatchRun.Summary?>(nil)
    Thread.detachNewThread {
      let outcome = try? BatchRun(
        input: BatchInput(source: input), geocoder: BatchRunTests.geocoder, options: options
      ).run(to: output)
      summary.withLock { $0 = outcome }
      output.finish()
    }
    var written: [UInt8] = []
    while let bytes = await output.next() { written += bytes }
    #expect(String(decoding: written, as: UTF8.self) == expected)
    #expect(summary.withLock { $0 }?.rows == 3000)
  }

  @Test("A batch cancelled part way, waiting for input and with its reader gone, stops at once")
  func readerGoes() async throws {
    let input = SpooledInput()
    // Half the rows, and no end: the batch will wait for more when the reader goes.
    let (text, _) = BatchRunTests.points(20_000)
    let half = Array(text.utf8.prefix(text.utf8.count / 2))
    _ = half.withUnsafeBytes { input.append($0) }
    let output = OutputQueue(limit: 1024)
    let ended = DispatchSemaphore(value: 0)
    let summary = Locked<BatchRun.Summary?>(nil)
    Thread.detachNewThread {
      let outcome = try? BatchRun(
        input: BatchInput(source: input, stopRequested: { false }), geocoder: BatchRunTests.geocoder,
        options: BatchRun.Options(fields: [.nearestPlace], chunkSize: 1000)
      ).run(to: output)
      summary.withLock { $0 = outcome }
      ended.signal()
    }
    var received = 0
    while received < 1000, let bytes = await output.next() { received += bytes.count }
    #expect(received >= 1000)
    // What a server does when its client goes: nothing more is read or written.
    output.cancel()
    input.cancel()
    #expect(ended.wait(timeout: .now() + 5) == .success, "the batch's threads return")
    let outcome = try #require(summary.withLock { $0 })
    #expect(outcome.outputClosed || outcome.stopped)
  }
}
