import TunnelSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where containment misuse is reported.
///
/// By default each ``Diagnostic`` is written to standard error. Set ``handler`` to route
/// them elsewhere, or wrap code in ``capture(_:)`` to collect them, as tests do:
///
///     let reported = Diagnostics.capture {
///       parent.endAppearanceTransition()
///     }
///     #expect(reported.map(\.kind) == [.unbalancedAppearanceTransition])
///
/// Every diagnostic is also recorded in the active ``LifecycleLog``s.
@MainActor
public enum Diagnostics {
  /// Receives every diagnostic not taken by ``capture(_:)``; `nil` writes them to standard error.
  public static var handler: (@MainActor (Diagnostic) -> Void)?

  /// The collectors of the ``capture(_:)`` calls under way, innermost last.
  private static var collectors: [[Diagnostic]] = []

  /// Runs `body` and returns the diagnostics it reported, instead of passing them on.
  public static func capture(_ body: () throws -> Void) rethrows -> [Diagnostic] {
    collectors.append([])
    defer { _ = collectors.popLast() }
    try body()
    return collectors.last ?? []
  }

  /// Reports a diagnostic.
  public static func report(_ diagnostic: Diagnostic) {
    LifecycleLog.record(.diagnostic(diagnostic.message), from: nil)
    if !collectors.isEmpty {
      collectors[collectors.count - 1].append(diagnostic)
    } else if let handler {
      handler(diagnostic)
    } else {
      _ = writeAll("TunnelContainment: \(diagnostic.message)\n", to: 2)
    }
  }

  /// Reports a diagnostic made of a kind and a message.
  static func report(_ kind: Diagnostic.Kind, _ message: String) {
    report(Diagnostic(kind, message))
  }
}
