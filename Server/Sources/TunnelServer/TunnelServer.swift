import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `tunnel serve`: Tunnel's routes (``TunnelRoutes``) on an HTTP/1.1 server, with `/metrics`, an access log and
/// limits on what clients may send.
public struct TunnelServer: Sendable {
  /// Where to listen and what to allow.
  public struct Configuration: Sendable {
    /// The address to listen on: loopback unless asked.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (``run(onListening:)`` says which).
    public var port = 8080
    /// Threads that read and write connections (nil: one per core).
    public var threads: Int?
    /// Batch uploads: size and deadline.
    public var batch = BatchLimits()
    /// Seconds a connection may stay silent (between requests, or while a request's head trickles in), or
    /// leave its answer unread (the server's output waiting on a full connection), before it is closed.
    public var idleTimeout = 30.0
    /// Connections open at once; more wait in the listen queue.
    public var maximumConnections = 1024
    /// The largest request head: one field, and all of them.
    public var maximumHeaderField = 16 << 10
    public var maximumHeaders = 64 << 10
    /// Seconds that requests in flight get to finish once a stop is asked for.
    public var shutdownGrace = 30.0
    /// Names a request's `Host` may give besides loopback's, when ``host`` is a loopback address (where
    /// other names are refused, against DNS rebinding): the name a reverse proxy forwards, with or
    /// without a port.
    public var allowedHosts: [String] = []

    public init() {}

    /// The longest wait any of the limits above may set, in seconds: a week. Longer ones (and the upload
    /// deadline of ``BatchLimits``) are cut to it, as the event loops' timers count nanoseconds from the
    /// host's start in 64 bits, where a larger wait would overflow.
    public static let longestWait = 604_800.0

    /// A wait of `seconds`, within 0 and ``longestWait``, as the event loops count time.
    static func timeAmount(seconds: Double) -> TimeAmount {
      let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), longestWait)
      return .nanoseconds(Int64(bounded * 1e9))
    }
  }

  public let service: TunnelService
  public let configuration: Configuration
  public let metrics: ServerMetrics
  /// Where each request's line goes (nil: nowhere).
  public let accessLog: Logger?

  public init(
    service: TunnelService, configuration: Configuration = Configuration(),
    metrics: ServerMetrics = ServerMetrics(),
    accessLog: Logger? = nil
  ) {
    self.service = service
    self.configuration = configuration
    self.metrics = metrics
    self.accessLog = accessLog
  }

  /// The router: the middleware, Tunnel's routes and `/metrics`.
  public func router() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
    _ = addRoutes(to: router)
    return router
  }

  /// Adds the middleware and the routes to `router`, and says which paths they serve with which methods.
  func addRoutes(to router: Router<BasicRequestContext>) -> [ServedRoute] {
    let served = ServedRoutes()
    router.add(middleware: ServerMiddleware(metrics: metrics, logger: accessLog, routes: served))
    router.add(middleware: tunnelCORS())
    router.add(middleware: RequestChecks(routes: served))
    let metrics = metrics
    var own = RouteTable(router, refusal: TunnelAPIController.refusal)
    own.get("/metrics") { _, _ in metrics.reply }
    let routes = TunnelRoutes(service: service, batch: configuration.batch).addRoutes(to: router) + own.routes
    served.set(routes)
    return routes
  }

  /// Seconds that requests in flight get to end once they are cancelled (past ``Configuration/shutdownGrace``)
  /// before the process gives up on them and ends with an error.
  static let cancellationLimit = 10

  /// Serves until SIGTERM or SIGINT: then stops accepting, lets the requests in flight finish (for at most
  /// ``Configuration/shutdownGrace`` seconds, then cancels them) and returns. A second signal ends the process
  /// at once. The threads that served connections stay, idle, until the process ends.
  ///
  /// - Parameter onListening: Told the server's address (`http://127.0.0.1:8080`) once it accepts connections.
  public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
    let configuration = configuration
    let logger = Logger(label: "tunnel.serve")
    let metrics = metrics
    let accessLog = accessLog
    let group = MultiThreadedEventLoopGroup(
      numberOfThreads: configuration.threads ?? System.coreCount)
    let host = configuration.host
    let application = Application(
      router: router(),
      server: HTTPServerBuilder { responder in
        TunnelHTTP1Channel(
          responder: responder, configuration: configuration, metrics: metrics, accessLog: accessLog)
      },
      configuration: ApplicationConfiguration(
        address: .hostname(host, port: configuration.port), serverName: nil, backlog: 1024,
        availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        let shown = host.contains(":") ? "[\(host)]" : host
        onListening("http://\(shown):\(port)")
      },
      eventLoopGroupProvider: .shared(group),
      logger: logger)
    var serviceConfiguration = ServiceGroupConfiguration(
      services: [.init(service: application)], logger: logger)
    serviceConfiguration.maximumGracefulShutdownDuration = .nanoseconds(
      Int64(configuration.shutdownGrace * 1e9))
    // Past the grace the requests still in flight are cancelled; a handler that ignored that would hold the
    // process for ever, so it ends with an error instead.
    serviceConfiguration.maximumCancellationDuration = .seconds(Self.cancellationLimit)
    let services = ServiceGroup(configuration: serviceConfiguration)
    let signals = StopSignals { await services.triggerGracefulShutdown() }
    defer { signals.cancel() }
    try await services.run()
    // The event loops are left running (idle) for the rest of the process: Hummingbird may still be
    // releasing the connections' quiescing helper on one of them when `run()` returns, and a group shut down
    // then fails that helper's promise on a closed loop, which traps (one stop in ten did).
  }
}

/// SIGTERM and SIGINT: the first asks the server to stop, a second ends the process at once.
final class StopSignals: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  init(stop: @escaping @Sendable () async -> Void) {
    let received = SignalCount()
    sources = [SIGTERM, SIGINT].map { (number: Int32) -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let count = received.increment()
        if count > 1 { _exit(128 + number) }
        Task { await stop() }
      }
      source.resume()
      return source
    }
  }

  func cancel() {
    for source in sources { source.cancel() }
  }
}

/// How many stop signals have come.
private final class SignalCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }
}
