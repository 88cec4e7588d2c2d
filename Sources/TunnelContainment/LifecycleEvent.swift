/// One entry of a ``LifecycleLog``: which controller received which callback, and when.
public struct LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
  /// The controller's description when the callback was sent; empty for diagnostics.
  public let controller: String
  /// Identifies the controller, to filter a log by controller.
  public let controllerID: ObjectIdentifier?
  /// The callback and its arguments.
  public let callback: LifecycleCallback
  /// The time on the log's clock, in seconds (zero without a clock).
  public let time: Double

  /// Creates an event.
  public init(
    controller: String, controllerID: ObjectIdentifier?, callback: LifecycleCallback,
    time: Double
  ) {
    self.controller = controller
    self.controllerID = controllerID
    self.callback = callback
    self.time = time
  }

  /// The event as one line: `Page 2: viewWillAppear(animated: true)`, or `! <message>` for a diagnostic.
  public var description: String {
    if case .diagnostic(let message) = callback { return "! \(message)" }
    return "\(controller): \(callback)"
  }

  /// The event as one line, prefixed with its time: `  0.200s  Page 2: viewDidAppear(animated: true)`.
  public var timedDescription: String {
    let milliseconds = Int((time * 1000).rounded())
    let seconds = String(milliseconds / 1000)
    var fraction = String(milliseconds % 1000)
    while fraction.count < 3 { fraction = "0" + fraction }
    let stamp = "\(seconds).\(fraction)s"
    let padded = String(repeating: " ", count: max(0, 8 - stamp.count)) + stamp
    return "\(padded)  \(description)"
  }
}
