/// A failure reported by PROJ, with PROJ's own words.
public struct ProjectionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What Tunnel was asking PROJ to do, e.g. `creating "+proj=ortho …"`.
  public var operation: String
  /// PROJ's error number (`proj_context_errno`), 0 when PROJ set none.
  public var code: Int32
  /// PROJ's description of the error number, followed by the last message it logged, if any.
  public var message: String

  public var description: String {
    "PROJ failed \(operation): \(message)"
  }
}
