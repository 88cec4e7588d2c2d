/// How `tunnel` ends, named as sysexits(3) names the statuses: what a script or a shell sees in `$?`.
///
/// `tunnel --help` lists them under EXIT STATUS; a test holds that list against this type.
///
/// ```swift
/// throw CommandFailure(message: "3 of 10 rows were bad (see the error column)", status: .dataError)
/// // tunnel: 3 of 10 rows were bad (see the error column)   and $? is 65
/// ```
public enum ExitStatus: Hashable, Sendable {
  /// 0: what was asked for was done (help and the version included).
  case success
  /// 1 (`EXIT_FAILURE`): something else went wrong, as a map that PROJ would not project.
  case failure
  /// 64 (`EX_USAGE`): a usage mistake, or a place or coordinate that cannot be read.
  case usage
  /// 65 (`EX_DATAERR`): input read whole but wrong in part (a batch's bad rows, unnamed lines).
  case dataError
  /// 66 (`EX_NOINPUT`): an input — a file, the place data — is missing or damaged.
  case noInput
  /// 69 (`EX_UNAVAILABLE`): a service could not be given (the server could not listen).
  case unavailable
  /// 74 (`EX_IOERR`): the output could not be written (a full disk, a closed pipe, no folder).
  case ioError
  /// 128 plus the signal's number: ended by that signal, said as a shell says it (130 for SIGINT).
  case signal(Int32)

  /// The number handed to `exit(3)`.
  public var code: Int32 {
    switch self {
    case .success: 0
    case .failure: 1
    case .usage: 64
    case .dataError: 65
    case .noInput: 66
    case .unavailable: 69
    case .ioError: 74
    case .signal(let number): 128 + number
    }
  }

  /// The statuses other than signals, in the order of their numbers.
  public static let named: [ExitStatus] = [
    .success, .failure, .usage, .dataError, .noInput, .unavailable, .ioError,
  ]
}
