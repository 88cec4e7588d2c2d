internal import CPROJ

/// An owned PROJ context: the thread-confined state every PROJ object is created in.
///
/// PROJ contexts are not thread-safe, so a context and the projections made in it belong to one
/// thread or task at a time (the type is deliberately not `Sendable`). Everything PROJ logs in this
/// context is captured in ``messages`` instead of being printed to standard error, and the network is
/// never used.
public final class ProjectionContext {
  let handle: OpaquePointer
  let library: PROJLibrary
  private let log: LogBuffer

  /// Creates a context with PROJ's log captured and network access off.
  ///
  /// PROJ's library is loaded with the first context (or geodesic) a process asks for.
  ///
  /// - Throws: ``ProjectionError/libraryUnavailable(attempts:)`` when PROJ's library cannot be loaded.
  public init() throws(ProjectionError) {
    let library = try PROJLibrary.shared.get()
    guard let handle = library.contextCreate() else {
      throw .failed(operation: "creating a context", code: 0, message: "proj_context_create returned NULL")
    }
    self.handle = handle
    self.library = library
    log = LogBuffer()
    library.logFunc(handle, Unmanaged.passUnretained(log).toOpaque()) { buffer, _, message in
      guard let buffer, let message else { return }
      Unmanaged<LogBuffer>.fromOpaque(buffer).takeUnretainedValue().append(String(cString: message))
    }
    _ = library.logLevel(handle, PJ_LOG_ERROR)
    _ = library.enableNetwork(handle, 0)
  }

  deinit {
    _ = library.contextDestroy(handle)
  }

  /// What PROJ has logged in this context, oldest first (the most recent 64 messages).
  public var messages: [String] { log.messages }

  /// Forgets the captured messages.
  public func clearMessages() { log.messages.removeAll() }

  /// The context's pending error as a Swift error.
  ///
  /// Call ``clearMessages()`` before the PROJ call that failed, so that no older message is taken
  /// for this one.
  func error(_ operation: String) -> ProjectionError {
    let code = library.contextErrno(handle)
    var parts: [String] = []
    if code != 0, let text = library.errnoString(handle, code) { parts.append(String(cString: text)) }
    if let last = log.messages.last, !parts.contains(last) { parts.append(last) }
    return .failed(
      operation: operation, code: code, message: parts.isEmpty ? "no message" : parts.joined(separator: ": "))
  }

  /// Collects log lines; referenced unretained by PROJ's callback while the context lives.
  private final class LogBuffer {
    var messages: [String] = []

    func append(_ message: String) {
      if messages.count == 64 { messages.removeFirst() }
      messages.append(message)
    }
  }
}
