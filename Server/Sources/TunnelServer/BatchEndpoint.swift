import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
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

  public init(maximumUpload: Int = 64 << 20, uploadDeadline: Double = 120, threads: Int? = nil) {
    self.maximumUpload = maximumUpload
    self.uploadDeadline = uploadDeadline
    self.threads = threads
  }
}

/// `POST /v1/batch`: `tunnel batch` over HTTP. The body (CSV, TSV, JSON Lines or GeoJSON) is read as it
/// arrives and the rows are written back as they are answered, the same bytes as `tunnel batch` writes for
/// the same file and options, through the same ``BatchRun`` reading a pipe.
///
/// Problems found before the first row (no coordinate columns, an unknown field) are a 400 with a JSON
/// error. Bad rows are rows, with an error column, as on the command line. An upload cut off (past the
/// size limit or the deadline, or by the client) ends the response without its last chunk, so that no client
/// takes a short answer for a whole one.
struct BatchEndpoint: Sendable {
  let answers: TunnelAnswers
  let limits: BatchLimits

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
      let precision = try TunnelAnswers.precision(query)
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
      options = BatchRun.Options(
        fields: fields, antipode: try flag("antipode"), format: output ?? .csv,
        precision: precision, skipInvalid: try flag("skip_invalid"), threads: threads)
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
      return TunnelRoutes.response(.error(400, error.description))
    } catch let error as AnswerError {
      return TunnelRoutes.response(error.answer)
    } catch {
      return TunnelRoutes.response(.error(400, "\(error)"))
    }
    // No body, or an empty one: nothing to answer, and most likely a client that forgot to send the file.
    if request.headers[.transferEncoding] == nil,
      (request.headers[.contentLength].flatMap(Int.init) ?? 0) == 0
    {
      return TunnelRoutes.response(
        .error(400, "the request has no body: send the rows (CSV, TSV, JSON Lines or GeoJSON) as its body"))
    }
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maximumUpload {
      return TunnelRoutes.response(
        .error(
          413, "the body is \(length) bytes; at most \(limits.maximumUpload) are accepted: split the file"))
    }
    let job: BatchJob
    do {
      job = try BatchJob(answers: answers, request: parsed)
    } catch {
      return TunnelRoutes.response(.error(500, "cannot start the batch: \(error)"))
    }
    let body = BodyFeed(request.body)
    // Feed the body until the batch knows its input's format and columns, or cannot.
    while job.readiness(waitingSeconds: 0) == nil {
      guard let chunk = await body.next() else {
        job.endInput()
        break
      }
      guard await job.write(chunk) else { break }
      if await job.waitForReadiness(seconds: 0.02) != nil { break }
    }
    switch await job.waitForReadiness(seconds: .infinity)! {
    case .failed(let message, let status):
      job.finishWithoutOutput()
      return TunnelRoutes.response(.error(status, message))
    case .ready(let format):
      var headers = HTTPFields()
      headers[.contentType] = Self.contentType(format)
      return Response(
        status: .ok, headers: headers,
        body: ResponseBody { writer in
          do {
            try await withThrowingTaskGroup(of: Void.self) { group in
              group.addTask {
                while let chunk = await body.next() {
                  guard await job.write(chunk) else { break }
                }
                if body.failed { job.stop() }
                job.endInput()
              }
              while let bytes = await job.readOutput() {
                try await writer.write(ByteBuffer(bytes: bytes))
              }
              try await group.waitForAll()
            }
          } catch {
            // The client went away, or the connection broke: the batch stops and its pipes close.
            job.finishWithoutOutput()
            throw error
          }
          if let problem = job.outcome(uploadFailed: body.failed) {
            throw problem
          }
          try await writer.finish(nil)
        })
    }
  }
}

/// A request body read one chunk at a time, by whichever task is reading it now.
final class BodyFeed: @unchecked Sendable {
  private var iterator: RequestBody.AsyncIterator
  /// Whether the body ended with an error (cut off, too large, too slow) rather than at its end.
  private(set) var failed = false

  init(_ body: RequestBody) {
    iterator = body.makeAsyncIterator()
  }

  func next() async -> [UInt8]? {
    do {
      guard let buffer = try await iterator.next() else { return nil }
      return Array(buffer.readableBytesView)
    } catch {
      failed = true
      return nil
    }
  }
}

/// One batch: ``BatchRun`` on its own thread, reading the body through one pipe and writing rows into
/// another.
final class BatchJob: @unchecked Sendable {
  enum Readiness {
    case ready(BatchOutputFormat)
    case failed(String, status: Int)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let input: (read: Int32, write: Int32)
  private let output: (read: Int32, write: Int32)
  private let lock = NSCondition()
  private var state: Readiness?
  private var result: Result<BatchRun.Summary, any Error>?
  private var inputClosed = false
  private var outputReadClosed = false
  private var stopped = false
  private let writes = DispatchQueue(label: "tunnel.batch.input")
  private let reads = DispatchQueue(label: "tunnel.batch.output")

  init(answers: TunnelAnswers, request: BatchEndpoint.Query) throws {
    var inputPipe: [Int32] = [0, 0]
    var outputPipe: [Int32] = [0, 0]
    guard Self.makePipe(&inputPipe) else { throw Failure(description: String(cString: strerror(errno))) }
    guard Self.makePipe(&outputPipe) else {
      close(inputPipe[0])
      close(inputPipe[1])
      throw Failure(description: String(cString: strerror(errno)))
    }
    input = (inputPipe[0], inputPipe[1])
    output = (outputPipe[0], outputPipe[1])
    let thread = Thread { [self] in run(answers: answers, request: request) }
    thread.name = "tunnel batch"
    thread.start()
  }

  /// A pipe whose ends are not inherited by programs the process starts.
  private static func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
  }

  private func run(answers: TunnelAnswers, request: BatchEndpoint.Query) {
    let batchInput: BatchInput
    do {
      batchInput = try BatchInput(
        descriptor: input.read, format: request.input, columns: request.columns,
        stopRequested: { [self] in isStopped })
    } catch {
      // The options that choose columns called as this request gives them: parameters.
      let message = error.description(naming: BatchEndpoint.Query.columnOptions)
      finishRun(.failed(message, status: 400), result: .failure(error))
      return
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
    lock.lock()
    state = .ready(options.format)
    lock.broadcast()
    lock.unlock()
    let outcome: Result<BatchRun.Summary, any Error>
    do {
      outcome = .success(
        try BatchRun(input: batchInput, geocoder: answers.geocoder, options: options)
          .run(output: output.write, shouldStop: { [self] in isStopped }))
    } catch {
      outcome = .failure(error)
    }
    finishRun(nil, result: outcome)
  }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Ends the run: its readiness if it never became ready, its result, and the end of its output.
  private func finishRun(_ readiness: Readiness?, result: Result<BatchRun.Summary, any Error>) {
    lock.lock()
    if let readiness, state == nil { state = readiness }
    self.result = result
    close(output.write)
    close(input.read)
    lock.broadcast()
    lock.unlock()
  }

  /// Whether the batch knows its format (or has failed), waiting up to `seconds` for it.
  func readiness(waitingSeconds seconds: Double) -> Readiness? {
    lock.lock()
    defer { lock.unlock() }
    if state == nil, seconds > 0 {
      if seconds.isFinite {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while state == nil, lock.wait(until: deadline) {}
      } else {
        while state == nil { lock.wait() }
      }
    }
    return state
  }

  /// ``readiness(waitingSeconds:)`` waited for on a thread of its own, not on one of the tasks' threads.
  func waitForReadiness(seconds: Double) async -> Readiness? {
    if let state = readiness(waitingSeconds: 0) { return state }
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async { [self] in
        continuation.resume(returning: readiness(waitingSeconds: seconds))
      }
    }
  }

  /// Writes `bytes` into the input pipe; false when the batch reads no more.
  func write(_ bytes: [UInt8]) async -> Bool {
    await withCheckedContinuation { continuation in
      writes.async { [self] in
        var written = 0
        var ok = true
        bytes.withUnsafeBytes { buffer in
          while written < buffer.count {
            let count = Glibc.write(input.write, buffer.baseAddress! + written, buffer.count - written)
            if count < 0 {
              if errno == EINTR { continue }
              ok = false
              break
            }
            written += count
          }
        }
        continuation.resume(returning: ok)
      }
    }
  }

  /// The body has ended: the batch reads to the end of what it was sent.
  func endInput() {
    writes.sync {
      lock.lock()
      defer { lock.unlock() }
      if !inputClosed {
        inputClosed = true
        close(input.write)
      }
    }
  }

  /// The body was cut off: the batch stops reading, and the response will not be finished.
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }

  /// The next bytes of output, nil at its end.
  func readOutput() async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      reads.async { [self] in
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let count = bytes.withUnsafeMutableBytes { Glibc.read(output.read, $0.baseAddress!, $0.count) }
          if count < 0, errno == EINTR { continue }
          if count <= 0 {
            continuation.resume(returning: nil)
            return
          }
          bytes.removeSubrange(count...)
          continuation.resume(returning: bytes)
          return
        }
      }
    }
  }

  /// How the batch ended, once its output has been read to the end: nil when the response is whole, else
  /// the reason it is not.
  func outcome(uploadFailed: Bool) -> Failure? {
    // The output ends when the run has ended and said how.
    lock.lock()
    let result = result
    lock.unlock()
    guard let result else { return Failure(description: "the batch ended without a result") }
    closeOutputRead()
    if uploadFailed { return Failure(description: "the upload was cut off") }
    switch result {
    case .success(let summary):
      return summary.stopped ? Failure(description: "the batch was stopped") : nil
    case .failure(let error):
      return Failure(description: "\(error)")
    }
  }

  /// The batch failed before its first row: close everything.
  func finishWithoutOutput() {
    stop()
    // Output first: a run blocked writing rows then fails and closes its input, which frees a write
    // blocked on a full input pipe.
    closeOutputRead()
    endInput()
  }

  private func closeOutputRead() {
    reads.sync {
      if !outputReadClosed {
        outputReadClosed = true
        close(output.read)
      }
    }
  }

  deinit {
    // Nothing else holds the job: no read or write is under way, and the queues may be the ones this runs
    // on, so the descriptors are closed here directly.
    if !inputClosed { close(input.write) }
    if !outputReadClosed { close(output.read) }
  }
}
