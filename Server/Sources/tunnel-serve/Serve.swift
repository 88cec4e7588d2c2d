import ArgumentParser
import Foundation
import Logging
import NIOCore
import TunnelCommandLine
import TunnelGeo
import TunnelServer

/// `tunnel serve`: Tunnel over HTTP, in its own API and in Nominatim's and Photon's.
///
/// This is the root command of `tunnel-serve`, which `tunnel serve` runs, so its usage and help read as
/// `tunnel serve`'s.
struct Serve: AsyncParsableCommand, CheckedCommand {
  static let configuration = CommandConfiguration(
    commandName: "tunnel serve",
    abstract: ServeSummary.abstract,
    discussion: """
      Routes: /v1/where, /v1/antipode, /v1/find, /v1/dig and /v1/pairs answer as those commands do \
      with --format json; POST /v1/batch is 'tunnel batch' (CSV, TSV, JSON Lines or GeoJSON in, the same \
      rows out). /reverse, /search and /status speak Nominatim's dialect (json, jsonv2, geojson, \
      geocodejson, xml); /photon/api and /photon/reverse Photon's. /openapi.json describes them all, \
      /metrics counts requests for Prometheus.

      / is the Tunnel in a browser: two maps, the digger and the red X at the antipode, a search box and \
      the radar that flips both maps to say where each end is. Its maps are drawn by Leaflet from \
      Debian's libjs-leaflet (Scripts/setup installs it) over tiles Tunnel draws from its own data \
      (/tiles/{z}/{x}/{y}.svg, and /tiles/antipodal/{z}/{x}/{y}.svg for the land of the other side of \
      the Earth turned onto this one); the page asks no other host for anything.

      It listens on loopback unless --host says otherwise, and says on standard error where once it \
      accepts connections ('listening on http://127.0.0.1:8080'; with --port 0, on a free port). Each \
      request is a line on standard error unless --quiet. SIGTERM or Ctrl-C lets the requests in flight \
      finish; a second one ends at once. SIGHUP is ignored: the server goes on when its terminal closes \
      (its log is standard error, which has no file to reopen).

      Examples:
        tunnel serve
        tunnel serve --port 0 --quiet
        curl 'http://127.0.0.1:8080/reverse?lat=56&lon=8.5&format=jsonv2'
      """,
    version: TunnelVersion.line,
    subcommands: [Health.self]
  )

  @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
  var port = 8080

  @Option(
    help: ArgumentHelp("Threads for connections and batches (default: one per core).", valueName: "n"))
  var threads: Int?

  @Option(
    name: .customLong("max-upload"),
    help: ArgumentHelp("The largest batch body accepted, in bytes (K, M and G allowed).", valueName: "size")
  )
  var maximumUpload = "64M"

  @Option(
    name: .customLong("upload-deadline"),
    help: ArgumentHelp("Seconds a request's body may take to arrive (at most a week).", valueName: "seconds"))
  var uploadDeadline = 120.0

  @Option(
    name: .customLong("idle-timeout"),
    help: ArgumentHelp(
      "Seconds a connection may stay silent, or leave its answer unread, before it is closed (at most a week).",
      valueName: "seconds"))
  var idleTimeout = 30.0

  @Option(
    name: .customLong("max-connections"),
    help: ArgumentHelp("Connections open at once; more wait their turn.", valueName: "n"))
  var maximumConnections = 1024

  @Option(
    name: .customLong("allowed-host"),
    help: ArgumentHelp(
      "A Host name answered besides localhost and loopback addresses, when listening on loopback (for a "
        + "reverse proxy that forwards its own; repeatable).", valueName: "name"))
  var allowedHosts: [String] = []

  @Option(
    name: .customLong("max-batches"),
    help: ArgumentHelp(
      "Batches answered at once; one more gets 503 and Retry-After until one ends.", valueName: "n"))
  var maximumBatches = 16

  @Flag(help: "Write no line per request.")
  var quiet = false

  @OptionGroup var data: DataOptions

  func check() throws {
    guard Self.resolves(host) else {
      throw ValidationError(
        "--host \(EchoedText.quoted(host, limit: 200)) is neither an address nor a name this machine can resolve; "
          + "give one such as 127.0.0.1, 0.0.0.0 or ::1")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65,535") }
    guard (1...10_000).contains(maximumBatches) else {
      throw ValidationError("--max-batches must be between 1 and 10,000")
    }
    if let threads, !(1...1024).contains(threads) {
      throw ValidationError("--threads must be between 1 and 1,024")
    }
    guard Self.bytes(maximumUpload) != nil else {
      throw ValidationError(
        "--max-upload must be a size in bytes such as 1000000, 500K, 64M or 1G, not \(EchoedText.quoted(maximumUpload))"
      )
    }
    guard uploadDeadline > 0, uploadDeadline <= TunnelServer.Configuration.longestWait else {
      throw ValidationError("--upload-deadline must be above 0 and at most 604,800 seconds (a week)")
    }
    guard idleTimeout > 0, idleTimeout <= TunnelServer.Configuration.longestWait else {
      throw ValidationError("--idle-timeout must be above 0 and at most 604,800 seconds (a week)")
    }
    guard (1...1_000_000).contains(maximumConnections) else {
      throw ValidationError("--max-connections must be between 1 and 1,000,000")
    }
  }

  /// Whether `host` is an IPv4 or IPv6 address, or a name the resolver gives an address for: checked before
  /// the data is loaded, so that a mistyped host is said at once rather than after the indexes are built.
  static func resolves(_ host: String) -> Bool {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard !host.isEmpty, getaddrinfo(host, nil, &hints, &found) == 0 else { return false }
    freeaddrinfo(found)
    return true
  }

  /// `64M`, `500K`, `1G` or plain bytes.
  static func bytes(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = text
    var scale = 1
    if let last = text.last?.uppercased().first, let unit = units[last] {
      digits.removeLast()
      scale = unit
    }
    guard let value = Int(digits), value > 0, value <= Int.max / scale else { return nil }
    return value * scale
  }

  func run() async throws {
    // A standard error whose reader has gone is written to in vain, not a reason to end: a client's
    // connection closing is the same, for the rest of the process's life. A terminal that closes is no
    // reason either (SIGHUP), as the help says.
    signal(SIGPIPE, SIG_IGN)
    signal(SIGHUP, SIG_IGN)
    let placeData = try data.placeData()
    StandardError.write("tunnel: loading the place data and building its indexes…\n")
    let service: TunnelService
    do {
      service = try TunnelService(data: placeData, cache: CacheLocation.cache())
    } catch {
      throw CommandFailure(error)
    }
    var configuration = TunnelServer.Configuration()
    configuration.host = host
    configuration.port = port
    configuration.threads = threads
    configuration.batch = BatchLimits(
      maximumUpload: Self.bytes(maximumUpload)!, uploadDeadline: uploadDeadline, threads: threads,
      maximumBatches: maximumBatches)
    configuration.idleTimeout = idleTimeout
    configuration.maximumConnections = maximumConnections
    configuration.allowedHosts = allowedHosts
    // Every log but the access log says only warnings and errors; the access log is made with its own
    // handler below, not picked out by its label.
    LoggingSystem.bootstrap { _ in AccessLogHandler(minimum: .warning) }
    let server = TunnelServer(
      service: service, configuration: configuration,
      accessLog: quiet ? nil : Logger(label: "tunnel.access") { _ in AccessLogHandler() })
    do {
      try await server.run { address in
        StandardError.write(
          "tunnel: listening on \(address)\ntunnel: the Tunnel in a browser: \(address)/\n")
      }
    } catch {
      throw CommandFailure(
        message: "cannot serve on \(host):\(port): \(Self.reason(error))", status: .unavailable)
    }
    StandardError.write("tunnel: stopped\n")
  }

  /// An error from binding or serving in plain words: the system's error number decides, not its text.
  static func reason(_ error: any Error) -> String {
    guard let failure = error as? IOError else { return String(describing: error) }
    switch failure.errnoCode {
    case EADDRINUSE:
      return "the address is in use (another server is listening there; pick another --port, or 0)"
    case EACCES:
      return "permission denied (ports below 1024 need privileges; pick a higher --port)"
    case EADDRNOTAVAIL:
      return "this machine has no such address"
    default:
      return String(describing: error)
    }
  }

}

/// Log lines on standard error: `tunnel: GET /reverse?lat=56&lon=8.5 200 512 0.21ms`.
struct AccessLogHandler: LogHandler {
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level

  init(minimum: Logger.Level = .info) {
    logLevel = minimum
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    StandardError.write("tunnel: \(event.message)\n")
  }
}
