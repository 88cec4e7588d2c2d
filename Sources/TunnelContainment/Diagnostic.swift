/// A report of containment misuse, worded as UIKit words it.
///
/// UIKit raises an exception or logs a warning for these; TunnelContainment reports them
/// through ``Diagnostics`` instead, refuses the offending call, and keeps the tree consistent.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// What kind of misuse was detected.
  public enum Kind: Hashable, Sendable {
    /// A view controller's view sits under a view of a controller that is not its parent
    /// (UIKit's `UIViewControllerHierarchyInconsistency`), or a view or controller would
    /// become its own ancestor.
    case hierarchyInconsistency
    /// An argument breaks a documented precondition (UIKit's `NSInvalidArgumentException`).
    case invalidArgument
    /// begin/end appearance transitions that do not pair up.
    case unbalancedAppearanceTransition
    /// A transition started on a controller that is already part of one in flight.
    case transitionInFlight
    /// An appearance method such as `viewWillAppear(_:)` called directly instead of through
    /// `beginAppearanceTransition(_:animated:)`.
    case appearanceMethodCalledDirectly
  }

  /// What kind of misuse was detected.
  public let kind: Kind
  /// The message, in UIKit's words where UIKit has them.
  public let message: String

  /// Creates a diagnostic.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
