import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import TunnelBatch
import TunnelGeo
import TunnelReports

/// How much a batch request may send, and how long it may take to send it.
public struct BatchLimits: Sendable {
  /// The largest body accepted, in bytes: a larger Content-Length is refused with 413 before the body is
  /// read, and a chunked body that grows past it is cut off.
  public var maximumUpload: Int
  /// Seconds from a request's head to the end of its body; an upload still going then is cut off (an idle
  /// timeout alone would let a client trickle a byte at a time for ever). At most
  /// ``TunnelServer/Configuration/longestWait``: a longer deadline is cut to it.
  public var uploadDeadline: Double
  /// Threads a batch answers on (nil: one per core).
  public var threads: Int?
  /// Batches answered at once: one more is refused with 503 and `Retry-After` until one ends. Each may
  /// keep up to ``maximumUpload`` of its body in a temporary file.
  public var maximumBatches: Int

  /// - Parameters:
  ///   - maximumUpload: The largest body accepted, in bytes.
  ///   - uploadDeadline: Seconds from a request's head to the end of its body.
  ///   - threads: Threads a batch answers on (nil: one per core).
  ///   - maximumBatches: Batches answered at once.
  public init(
    maximumUpload: Int = 64 << 20, uploadDeadline: Double = 120, threads: Int? = nil, maximumBatches: Int = 16
  ) {
    self.maximumUpload = maximumUpload
    self.uploadDeadline = uploadDeadline
    self.threads = threads
    self.maximumBatches = maximumBatches
  }
}

/// `POST /v1/batch`: `tunnel batch` over HTTP. The body (CSV, TSV, JSON Lines or GeoJSON) is read as it
/// arrives and the rows are written back as they are answered, the same bytes as `tunnel batch` writes for
/// the same file and options, through the same ``BatchRun``. A client that sends the whole body before it
/// reads (most HTTP libraries) has it read ahead, in memory and then in a temporary file, up to
/// ``BatchLimits/maximumUpload``; one that goes away stops its batch, which frees all it held.
///
/// Problems found before the first row is written (no coordinate columns, an unknown field, a body that is
/// not the format it is declared as) are a 400 with a JSON error: the status waits for the first rows. Bad
/// rows are rows, with an error column, as on the command line. An upload cut off (past the size limit or
/// the deadline, or by the client), or input that cannot be read further after the first rows (GeoJSON
/// broken half-way), ends the response without its last chunk, and a GeoJSON document without its closing
/// `]}`, so that no client takes a short answer for a whole one.
struct BatchEndpoint: Sendable {
  let service: TunnelService
  let limits: BatchLimits
  /// The batches running now.
  let running = BatchSlots()

  /// The options a request gives in its query string.
  struct Query: Sendable {
    var input: BatchInputFormat?
    var options: BatchRun.Options
    var columns: CoordinateColumns.Names
    var outputChosen: Bool

    init(_ query: QueryParameters, contentType: String?, threads: Int?) throws(AnswerError) {
      func format<Format: RawRepresentable<String> & CaseIterable>(
        _ name: String
      ) throws(AnswerError) -> Format? {
        guard let text = query[name] else { return nil }
        guard let format = Format(rawValue: text.lowercased()) else {
          let names = Format.allCases.map(\.rawValue).joined(separator: ", ")
          throw .badRequest("'\(name)' must be one of \(names), not \(EchoedText.quoted(text))")
        }
        return format
      }
      func flag(_ name: String) throws(AnswerError) -> Bool {
        guard let text = query[name] else { return false }
        switch text.lowercased() {
        case "", "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw .badRequest("'\(name)' must be true or false, not \(EchoedText.quoted(text))")
        }
      }
      input = try format("input") ?? contentType.flatMap(Self.inputFormat(contentType:))
      let output: BatchOutputFormat? = try format("format")
      outputChosen = output != nil
      var fields = PlacemarkField.allCases
      if let text = query["fields"] {
        do {
          fields = try PlacemarkField.list(text)
        } catch {
          throw .badRequest("'fields': \(error.message)")
        }
      }
      let precision = try TunnelService.precision(query)
      // An empty name is no name (a form's empty field).
      func column(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : $0 } }
      let parameters = Self.columnOptions
      columns = CoordinateColumns.Names(
        latitude: column(parameters.latitude), longitude: column(parameters.longitude),
        coordinate: column(parameters.coordinate), options: parameters)
      if columns.coordinate != nil, columns.latitude != nil || columns.longitude != nil {
        throw .badRequest("give either 'coordinate_column' or 'lat_column' and 'lon_column', not both")
      }
      if let latitude = columns.latitude, latitude == columns.longitude {
        throw .badRequest(BatchError.sameColumn(name: latitude).description(naming: parameters))
      }
      // The smaller chunks whatever the fields: a server answers up to `maximumBatches` at once, and each
      // batch's memory counts more than its speed.
      options = BatchRun.Options(
        fields: fields, antipode: try flag("antipode"), format: output ?? .csv,
        precision: precision, skipInvalid: try flag("skip_invalid"), threads: threads,
        chunkSize: BatchRun.Options.chunkSize)
    }

    /// The parameters that choose columns, as the library's messages call them.
    static let columnOptions = CoordinateColumns.OptionNames(
      latitude: "lat_column", longitude: "lon_column", coordinate: "coordinate_column",
      jsonLines: "format=jsonl")

    /// The input format a Content-Type names, if it names one.
    static func inputFormat(contentType: String) -> BatchInputFormat? {
      let type = contentType.split(separator: ";").first.map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      switch type {
      case "text/csv": return .csv
      case "text/tab-separated-values": return .tsv
      case "application/jsonl", "application/x-ndjson", "application/ndjson", "application/json-seq",
        "application/x-jsonlines":
        return .jsonl
      case "application/geo+json": return .geojson
      default: return nil
      }
    }
  }

  /// The content type of each output format.
  static func contentType(_ format: BatchOutputFormat) -> String {
    switch format {
    case .csv: "text/csv; charset=utf-8"
    case .tsv: "text/tab-separated-values; charset=utf-8"
    case .jsonl: "application/jsonl; charset=utf-8"
    case .geojson: "application/geo+json; charset=utf-8"
    }
  }

  func respond(to request: Hummingbird.Request) async -> Response {
    let parsed: Query
    do {
      let query = try QueryParameters(request.uri.query.map { Substring($0) })
      parsed = try Query(query, contentType: request.headers[.contentType], threads: limits.threads)
    } catch let error as QueryParameters.Problem {
      return TunnelAPIError(.badRequest, error.description).response
    } catch let error as AnswerError {
      return TunnelAPIError(error).response
    } catch {
      return TunnelAPIError(.badRequest, "\(error)").response
    }
    // No body, or an empty one: nothing to answer, and most likely a client that forgot to send the file.
    if request.headers[.transferEncoding] == nil,
      (request.headers[.contentLength].flatMap(Int.init) ?? 0) == 0
    {
      return TunnelAPIError(
        .badRequest, "the request has no body: send the rows (CSV, TSV, JSON Lines or GeoJSON) as its body"
      ).response
    }
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maximumUpload {
      return TunnelAPIError(
        .contentTooLarge,
        "the body is \(length) bytes; at most \(limits.maximumUpload) are accepted: split the file"
      ).response
    }
    guard let slot = running.take(limit: limits.maximumBatches) else {
      return TunnelAPIError(
        .serviceUnavailable,
        "\(limits.maximumBatches) batches are being answered, the most this server runs at once: send it again "
          + "in a few seconds",
        fields: [.retryAfter: "5"]
      ).response
    }
    let job = BatchJob(service: service, request: parsed, limits: limits)
    // The body is read ahead, whether or not the batch keeps up, in a task of its own that is never
    // cancelled (a cancelled read leaves the connection unable to read): it ends at the body's end, when
    // the upload is cut off, or when the connection closes.
    let body = request.body
    let input = job.input
    let expected = request.headers[.contentLength].flatMap(Int.init)
    let handle = BatchHandle(
      job: job, feed: Task { await Self.feed(body, into: input, expected: expected) }, slot: slot)
    let readiness = await withTaskCancellationHandler {
      await job.readiness()
    } onCancel: {
      job.cancel()
    }
    switch readiness {
    case .failed(let message, let status):
      // The error goes out first; the rest of the body is read (and dropped) before the response ends, so
      // that the connection can take another request.
      let error = TunnelAPIError(HTTPResponse.Status(code: status), message)
      let body = error.body
      var response = error.response
      response.body = ResponseBody(contentLength: body.count) { writer in
        try await writer.write(ByteBuffer(bytes: body))
        _ = await handle.end()
        try await writer.finish(nil)
      }
      return response
    case .cancelled:
      _ = await handle.end()
      return TunnelAPIError(.serviceUnavailable, "the server is stopping: send the batch again later")
        .response
    case .ready(let format):
      var headers = HTTPFields()
      headers[.contentType] = Self.contentType(format)
      return Response(
        status: .ok, headers: headers, body: ResponseBody { writer in try await handle.stream(to: &writer) })
    }
  }

  /// How an upload ended.
  enum Upload: Sendable {
    /// At the end its length, or its last chunk, gave.
    case whole
    /// Before it: the client went, or the connection was closed under it (the deadline, the size limit).
    case cut
  }

  /// Hands `body` to `input` as it arrives, to its end, and tells `input` how it ended. Bytes that
  /// `input` no longer takes (the batch has ended or gone) are read and dropped.
  static func feed(_ body: RequestBody, into input: SpooledInput, expected: Int?) async -> Upload {
    var received = 0
    do {
      for try await buffer in body {
        received += buffer.readableBytes
        _ = buffer.withUnsafeReadableBytes { input.append($0) }
      }
    } catch {
      input.fail(.readFailed("the upload was cut off"))
      return .cut
    }
    // A connection closed before the declared length looks like the body's end to the body's reader.
    if let expected, received < expected {
      input.fail(.readFailed("the upload was cut off after \(received) of its \(expected) bytes"))
      return .cut
    }
    input.finish()
    return .whole
  }
}

/// A batch request's work in flight: the batch and the task reading its body. Whatever way the response
/// ends (whole, failed, or dropped unwritten when the client has gone before its head), the batch is
/// cancelled when the handle goes.
final class BatchHandle: Sendable {
  let job: BatchJob
  let feed: Task<BatchEndpoint.Upload, Never>
  /// The batch's place among those running, given up when the handle goes.
  let slot: BatchSlots.Slot

  init(job: BatchJob, feed: Task<BatchEndpoint.Upload, Never>, slot: BatchSlots.Slot) {
    self.job = job
    self.feed = feed
    self.slot = slot
  }

  deinit { job.cancel() }

  /// Cancels the batch and waits for its thread and for the body's end; how the upload ended.
  ///
  /// Only for a connection that is still read or is being closed: the body's end may be the client's to
  /// send.
  func end() async -> BatchEndpoint.Upload {
    job.cancel()
    _ = await job.finished()
    return await feed.value
  }

  /// Writes the batch's rows to `writer` as they are answered, then finishes the response, or throws
  /// without finishing it when the response is not whole (the upload cut off, the batch failed or
  /// stopped), so that no client takes a short answer for a whole one.
  ///
  /// A write that fails (the client has gone) cancels the batch, which frees everything it holds within a
  /// chunk's answering; the error then makes the server close the connection, which ends the body's task.
  func stream(to writer: inout any ResponseBodyWriter) async throws {
    do {
      // A cancelled task (a stop past its grace) cancels the batch too, whatever it is waiting for.
      try await withTaskCancellationHandler {
        while let bytes = await job.output.next() {
          try await writer.write(ByteBuffer(bytes: bytes))
        }
      } onCancel: {
        job.cancel()
      }
    } catch {
      job.cancel()
      throw error
    }
    let result = await job.finished()
    // Anything after what the batch read (it ended early) is read and dropped before the response ends.
    job.cancel()
    let upload = await feed.value
    if upload == .cut { throw BatchJob.Failure(description: "the upload was cut off") }
    switch result {
    case .success(let summary):
      if summary.stopped || summary.outputClosed {
        throw BatchJob.Failure(description: "the batch was stopped")
      }
    case .failure(let error):
      throw BatchJob.Failure(description: "\(error)")
    }
    try await writer.finish(nil)
  }
}

/// A sink that tells, once, when the first bytes are written to it, before they go on to `output`. Written
/// to by the batch's thread alone.
final class FirstWriteSink: BatchByteSink {
  let output: OutputQueue
  let onFirstWrite: () -> Void
  private var told = false

  init(_ output: OutputQueue, onFirstWrite: @escaping () -> Void) {
    self.output = output
    self.onFirstWrite = onFirstWrite
  }

  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    if !told {
      told = true
      onFirstWrite()
    }
    return try output.write(bytes)
  }
}

/// One batch: ``BatchRun`` on a thread of its own, reading the body from a ``SpooledInput`` and writing
/// rows to an ``OutputQueue``.
///
/// ``cancel()`` ends it from any thread: every wait of the batch's (for input, for room in the output)
/// and of the tasks' (``readiness()``, ``OutputQueue/next()``) ends, the thread returns within a chunk's
/// answering, and what the batch held (its chunks, the input kept in memory or in a file) is freed.
final class BatchJob: @unchecked Sendable {
  // @unchecked: everything that changes is guarded by `lock`.
  enum Readiness: Sendable {
    /// The input's format and columns are known: the rows will be written in this format.
    case ready(BatchOutputFormat)
    /// A problem before the first row: the response's status and message.
    case failed(String, status: Int)
    /// The batch was cancelled before it knew.
    case cancelled
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The request's body, as it arrives.
  let input: SpooledInput
  /// The rows, as they are answered.
  let output = OutputQueue()
  private let lock = NSLock()
  private var state: Readiness?
  private var stateWaiter: CheckedContinuation<Readiness, Never>?
  private var result: Result<BatchRun.Summary, any Error>?
  private var resultWaiter: CheckedContinuation<Result<BatchRun.Summary, any Error>, Never>?
  private var cancelled = false

  /// Starts the batch on its thread; it waits for the body's first bytes.
  init(service: TunnelService, request: BatchEndpoint.Query, limits: BatchLimits) {
    input = SpooledInput(maximumBytes: limits.maximumUpload, directory: NSTemporaryDirectory())
    let thread = Thread { [self] in
      let outcome = run(service: service, request: request)
      output.finish()
      finish(outcome)
    }
    thread.name = "tunnel batch"
    thread.start()
  }

  /// The batch itself; the input and everything read from it are freed when it returns.
  private func run(
    service: TunnelService, request: BatchEndpoint.Query
  ) -> Result<BatchRun.Summary, any Error> {
    let batchInput: BatchInput
    do {
      batchInput = try BatchInput(
        source: input, format: request.input, columns: request.columns,
        stopRequested: { [self] in isCancelled })
    } catch {
      // The options that choose columns called as this request gives them: parameters.
      resolve(.failed(error.description(naming: BatchEndpoint.Query.columnOptions), status: 400))
      return .failure(error)
    }
    var options = request.options
    if !request.outputChosen {
      options.format =
        switch batchInput.format {
        case .csv: .csv
        case .tsv: .tsv
        case .jsonl: .jsonl
        case .geojson: .geojson
        }
    }
    // A response cut off is what tells a client that its rows ended short: a GeoJSON document is left
    // unclosed as well, rather than closed over the rows before the failure.
    options.closesOnFailure = false
    // The status is sent with the first bytes the batch writes, once its first rows have been read: input
    // that fails before (a body that is not the format it is declared as) is a 400, not a 200 cut short.
    let format = options.format
    let sink = FirstWriteSink(output) { [self] in resolve(.ready(format)) }
    do {
      return .success(
        try BatchRun(input: batchInput, geocoder: service.geocoder, options: options)
          .run(to: sink, shouldStop: { [self] in isCancelled }))
    } catch let error as BatchError {
      resolve(.failed(error.description(naming: BatchEndpoint.Query.columnOptions), status: 400))
      return .failure(error)
    } catch {
      resolve(.failed("the place data cannot be read: \(error)", status: 500))
      return .failure(error)
    }
  }

  private var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Settles the readiness, unless it is settled.
  private func resolve(_ readiness: Readiness) {
    lock.lock()
    guard state == nil else {
      lock.unlock()
      return
    }
    state = readiness
    let waiter = stateWaiter
    stateWaiter = nil
    lock.unlock()
    waiter?.resume(returning: readiness)
  }

  /// The thread's end: its result, and a readiness if it never had one.
  private func finish(_ outcome: Result<BatchRun.Summary, any Error>) {
    resolve(.failed("the batch ended before its first row", status: 500))
    lock.lock()
    result = outcome
    let waiter = resultWaiter
    resultWaiter = nil
    lock.unlock()
    waiter?.resume(returning: outcome)
  }

  /// Whether the batch knows its input's format and columns, once it does, or has failed or been
  /// cancelled.
  func readiness() async -> Readiness {
    await withCheckedContinuation { continuation in
      lock.lock()
      if let state {
        lock.unlock()
        continuation.resume(returning: state)
      } else {
        stateWaiter = continuation
        lock.unlock()
      }
    }
  }

  /// How the batch ended, once its thread has returned (within a chunk's answering of ``cancel()``).
  func finished() async -> Result<BatchRun.Summary, any Error> {
    await withCheckedContinuation { continuation in
      lock.lock()
      if let result {
        lock.unlock()
        continuation.resume(returning: result)
      } else {
        resultWaiter = continuation
        lock.unlock()
      }
    }
  }

  /// Stops the batch and drops its input and output, from any thread. Idempotent.
  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
    resolve(.cancelled)
    input.cancel()
    output.cancel()
  }
}

/// How many batches are running, so that no more than a limit run at once (each holds a thread, its body
/// on disk and its answer's queue).
final class BatchSlots: Sendable {
  private let count = NIOLockedValueBox(0)

  /// A place for one more batch, or nil when `limit` are running.
  func take(limit: Int) -> Slot? {
    let taken = count.withLockedValue { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
    return taken ? Slot(self) : nil
  }

  /// One batch's place: given back when it goes.
  final class Slot: Sendable {
    let slots: BatchSlots

    init(_ slots: BatchSlots) { self.slots = slots }

    deinit { slots.count.withLockedValue { $0 -= 1 } }
  }

  /// The batches running now.
  var running: Int { count.withLockedValue { $0 } }
}
