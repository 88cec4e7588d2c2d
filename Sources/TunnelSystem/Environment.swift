#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment variables among `names` that are set, read one by one: what the commands need of
/// the environment, without copying all of it into a dictionary as `ProcessInfo` does.
///
///     TerminalCapabilities(environment: environmentVariables(["TERM", "NO_COLOR"]), isTerminal: true)
package func environmentVariables(_ names: [String]) -> [String: String] {
  var found: [String: String] = [:]
  for name in names {
    if let value = getenv(name) { found[name] = String(cString: value) }
  }
  return found
}
