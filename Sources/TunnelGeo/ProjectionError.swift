/// Why PROJ could not do what was asked: its library could not be loaded, or it refused or failed an
/// operation, in its own words.
public enum ProjectionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One attempt to load PROJ's shared library: the name tried and why it could not be used.
  public struct LoadAttempt: Sendable, Hashable {
    /// The library name given to the loader, e.g. `libproj.so.25`.
    public var library: String
    /// The loader's reason (`dlerror`), or the function the library lacks.
    public var reason: String

    public init(library: String, reason: String) {
      self.library = library
      self.reason = reason
    }
  }

  /// PROJ's shared library could not be loaded, so nothing that needs PROJ — geodesics, projections,
  /// maps, UTM references — can be answered; `attempts` lists every name tried, in order, with the
  /// reason each failed.
  case libraryUnavailable(attempts: [LoadAttempt])
  /// PROJ refused or failed an operation: what Tunnel was asking it to do (e.g.
  /// `creating "+proj=ortho …"`), PROJ's error number (`proj_context_errno`, 0 when it set none), and
  /// its description of that number followed by the last message it logged, if any.
  case failed(operation: String, code: Int32, message: String)

  /// The package that provides PROJ's run-time library on Debian and Ubuntu.
  public static let runtimePackage = "libproj25"

  public var description: String {
    switch self {
    case .libraryUnavailable(let attempts):
      let reasons = attempts.map(\.reason).joined(separator: "; ")
      return "PROJ's library could not be loaded (\(reasons)); install PROJ 9's run-time library "
        + "(Debian and Ubuntu: apt-get install \(Self.runtimePackage))"
    case .failed(let operation, _, let message):
      return "PROJ failed \(operation): \(message)"
    }
  }
}
