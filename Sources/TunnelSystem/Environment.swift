#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The value of the environment variable `name`, nil when it is not set: what the commands need of the
/// environment, read one name at a time, without copying all of it into a dictionary as `ProcessInfo`
/// does.
///
///     TerminalCapabilities(variable: environmentVariable, isTerminal: true)
package func environmentVariable(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
