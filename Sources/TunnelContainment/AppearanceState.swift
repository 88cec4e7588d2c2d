/// Where a view controller is in its appearance cycle.
///
/// The legal moves are disappeared → appearing → appeared → disappearing → disappeared,
/// and a begin in the opposite direction cancels one in flight (appearing ↔ disappearing).
public enum AppearanceState: Hashable, Sendable, CustomStringConvertible {
  /// Off screen; the last callback, if any, was `viewDidDisappear(_:)`.
  case disappeared
  /// `viewWillAppear(_:)` was sent, `viewDidAppear(_:)` not yet.
  case appearing
  /// On screen; the last callback was `viewDidAppear(_:)`.
  case appeared
  /// `viewWillDisappear(_:)` was sent, `viewDidDisappear(_:)` not yet.
  case disappearing

  public var description: String {
    switch self {
    case .disappeared: "disappeared"
    case .appearing: "appearing"
    case .appeared: "appeared"
    case .disappearing: "disappearing"
    }
  }
}
