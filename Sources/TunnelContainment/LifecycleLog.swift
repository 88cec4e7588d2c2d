/// A record of every lifecycle callback sent to view controllers, in order.
///
/// A log records while it is started; any number of logs may record at once.
/// Each entry is a ``LifecycleEvent``; ``lines`` gives them as text:
///
///     let log = LifecycleLog()
///     log.start()
///     window.makeKeyAndVisible()
///     log.stop()
///     print(log.lines.joined(separator: "\n"))
///     // Container: viewWillAppear(animated: false)
///     // …
///
/// Set ``onEvent`` to stream events as they happen (a tracing command prints them this way).
@MainActor
public final class LifecycleLog {
  /// The events recorded so far, oldest first.
  public private(set) var events: [LifecycleEvent] = []
  /// Called with each event as it is recorded.
  public var onEvent: (@MainActor (LifecycleEvent) -> Void)?
  /// Gives event times; without one every event is at time zero.
  public var clock: AnimationClock?
  /// Whether diagnostics are recorded too (they are by default).
  public var includesDiagnostics = true

  /// Creates a log that is not yet recording.
  public init(clock: AnimationClock? = nil) {
    self.clock = clock
  }

  /// The logs currently recording.
  private static var active: [LifecycleLog] = []

  /// Whether this log is recording.
  public var isRecording: Bool { Self.active.contains { $0 === self } }

  /// Starts recording.
  public func start() {
    if !isRecording { Self.active.append(self) }
  }

  /// Stops recording; the events stay.
  public func stop() {
    Self.active.removeAll { $0 === self }
  }

  /// Forgets the events recorded so far.
  public func clear() {
    events.removeAll()
  }

  /// Records the callbacks sent while `body` runs into a new log and returns it.
  public static func recording(
    clock: AnimationClock? = nil, _ body: () throws -> Void
  ) rethrows
    -> LifecycleLog
  {
    let log = LifecycleLog(clock: clock)
    log.start()
    defer { log.stop() }
    try body()
    return log
  }

  /// The events as lines, in the format of ``LifecycleEvent/description``.
  public var lines: [String] { events.map(\.description) }

  /// The events of one controller.
  public func events(for controller: ViewController) -> [LifecycleEvent] {
    let id = ObjectIdentifier(controller)
    return events.filter { $0.controllerID == id }
  }

  /// The callbacks of one controller.
  public func callbacks(for controller: ViewController) -> [LifecycleCallback] {
    events(for: controller).map(\.callback)
  }

  /// The lines of the events whose callback is one of `names` (such as `"viewWillAppear"`).
  public func lines(only names: Set<String>) -> [String] {
    events.filter { names.contains($0.callback.name) }.map(\.description)
  }

  /// Sends an event to every recording log.
  static func record(_ callback: LifecycleCallback, from controller: ViewController?) {
    guard !active.isEmpty else { return }
    let name = controller?.description ?? ""
    let id = controller.map(ObjectIdentifier.init)
    for log in active {
      if case .diagnostic = callback, !log.includesDiagnostics { continue }
      let event = LifecycleEvent(
        controller: name, controllerID: id, callback: callback, time: log.clock?.now ?? 0)
      log.events.append(event)
      log.onEvent?(event)
    }
  }
}
