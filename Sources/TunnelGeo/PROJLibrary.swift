internal import CPROJ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The PROJ functions Tunnel calls, looked up in the shared library the first time one is needed.
///
/// libproj brings some forty libraries with it (SQLite, libtiff, libcurl and theirs), and loading them
/// is a few milliseconds of every process that links them. Most commands never measure a geodesic or
/// project a map — `tunnel where`, `find`, `batch` and `pairs` answer from the place data alone — so
/// TunnelGeo does not link libproj: it opens it on first use, here, and only then.
struct PROJLibrary: @unchecked Sendable {
  // @unchecked: function pointers and a library handle that is never closed.

  typealias ContextCreate = @convention(c) () -> OpaquePointer?
  typealias ContextDestroy = @convention(c) (OpaquePointer?) -> OpaquePointer?
  typealias LogFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void
  typealias LogFunc = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, LogFunction?) -> Void
  typealias LogLevel = @convention(c) (OpaquePointer?, PJ_LOG_LEVEL) -> PJ_LOG_LEVEL
  typealias EnableNetwork = @convention(c) (OpaquePointer?, Int32) -> Int32
  typealias ContextErrno = @convention(c) (OpaquePointer?) -> Int32
  typealias ErrnoString = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
  typealias Create = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
  typealias Destroy = @convention(c) (OpaquePointer?) -> OpaquePointer?
  typealias Trans = @convention(c) (OpaquePointer?, PJ_DIRECTION, PJ_COORD) -> PJ_COORD
  typealias ErrnoReset = @convention(c) (OpaquePointer?) -> Int32
  typealias GeodInit = @convention(c) (UnsafeMutablePointer<geod_geodesic>?, Double, Double) -> Void
  typealias GeodSolve =
    @convention(c) (
      UnsafePointer<geod_geodesic>?, Double, Double, Double, Double, UnsafeMutablePointer<Double>?,
      UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
    ) -> Void

  let contextCreate: ContextCreate
  let contextDestroy: ContextDestroy
  let logFunc: LogFunc
  let logLevel: LogLevel
  let enableNetwork: EnableNetwork
  let contextErrno: ContextErrno
  let errnoString: ErrnoString
  let create: Create
  let destroy: Destroy
  let trans: Trans
  let errnoReset: ErrnoReset
  let geodInit: GeodInit
  let geodInverse: GeodSolve
  let geodDirect: GeodSolve

  /// The names tried, in order: PROJ 9's run-time library, then the development link.
  static let libraryNames = ["libproj.so.25", "libproj.so"]

  /// PROJ, loaded once per process, or why it could not be: every name tried, with the reason.
  ///
  /// Every API that needs PROJ throws the failure as ``ProjectionError/libraryUnavailable(attempts:)``;
  /// none stops the process.
  static let shared = load(libraryNames)

  /// The first of `names` that the loader opens and that has every function Tunnel calls, or every
  /// name's reason for failing.
  static func load(_ names: [String]) -> Result<PROJLibrary, ProjectionError> {
    var attempts: [ProjectionError.LoadAttempt] = []
    for name in names {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        let reason = dlerror().map { String(cString: $0) } ?? "\(name): not found"
        attempts.append(ProjectionError.LoadAttempt(library: name, reason: reason))
        continue
      }
      do throws(ProjectionError) {
        return .success(try PROJLibrary(handle: handle, name: name))
      } catch {
        dlclose(handle)
        if case .libraryUnavailable(let lacking) = error { attempts += lacking }
      }
    }
    return .failure(.libraryUnavailable(attempts: attempts))
  }

  /// The functions looked up in an opened library; the attempt fails on the first one it lacks.
  private init(handle: UnsafeMutableRawPointer, name: String) throws(ProjectionError) {
    func symbol<Function>(_ symbol: String, _: Function.Type) throws(ProjectionError) -> Function {
      guard let address = dlsym(handle, symbol) else {
        throw .libraryUnavailable(attempts: [.init(library: name, reason: "\(name): no function \(symbol)")])
      }
      return unsafeBitCast(address, to: Function.self)
    }
    contextCreate = try symbol("proj_context_create", ContextCreate.self)
    contextDestroy = try symbol("proj_context_destroy", ContextDestroy.self)
    logFunc = try symbol("proj_log_func", LogFunc.self)
    logLevel = try symbol("proj_log_level", LogLevel.self)
    enableNetwork = try symbol("proj_context_set_enable_network", EnableNetwork.self)
    contextErrno = try symbol("proj_context_errno", ContextErrno.self)
    errnoString = try symbol("proj_context_errno_string", ErrnoString.self)
    create = try symbol("proj_create", Create.self)
    destroy = try symbol("proj_destroy", Destroy.self)
    trans = try symbol("proj_trans", Trans.self)
    errnoReset = try symbol("proj_errno_reset", ErrnoReset.self)
    geodInit = try symbol("geod_init", GeodInit.self)
    geodInverse = try symbol("geod_inverse", GeodSolve.self)
    geodDirect = try symbol("geod_direct", GeodSolve.self)
  }
}
