import TunnelApp
import TunnelCommandLine
import TunnelContainment
import TunnelSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
import TunnelReports
#endif

/// Whether to colour what is printed: `--color`, which every command takes.
enum ColorChoice: String {
  /// On a terminal that shows colours, unless NO_COLOR is set (and not empty).
  case auto
  /// Always, even into a pipe or a file, and whatever NO_COLOR says.
  case always
  /// Never.
  case never

  /// The choice of this process, set once from the command line before any command runs.
  nonisolated(unsafe) static var current = ColorChoice.auto
}

/// What standard output is: a terminal or not, its width, and what it can show.
struct TerminalOutput {
  var colors: Bool
  var charset: Charset
  /// The terminal's width in columns, nil when standard output is not a terminal.
  var columns: Int?
  /// The terminal's height in rows, nil when standard output is not a terminal.
  var rows: Int?

  /// Colours as `--color` says (by default only on a terminal that shows them, without a non-empty
  /// NO_COLOR); ASCII when asked, for TERM=dumb,
  /// or when the locale is not UTF-8 (see ``TerminalCapabilities``).
  init(asciiRequested: Bool) {
    let isTerminal = isatty(1) == 1
    let capabilities = TerminalCapabilities(isTerminal: isTerminal)
    switch ColorChoice.current {
    case .auto: colors = capabilities.colors
    case .always: colors = true
    case .never: colors = false
    }
    charset = asciiRequested ? .ascii : capabilities.charset
    var size = winsize()
    let known = isTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0
    columns = known ? Int(size.ws_col) : nil
    rows = known ? Int(size.ws_row) : nil
  }
}

extension TextStyle {
  /// Colours when standard output shows them.
  init(output: TerminalOutput) {
    self.init(colors: output.colors)
  }
}
