import TunnelSystem

/// What an output stream can show: colours and Unicode.
///
/// Colour is off when `NO_COLOR` is set to anything but the empty string (no-color.org), when `TERM`
/// names a terminal without colours (``isMonochrome(_:)``: `dumb`, `vt100`, `xterm-mono` …), or when
/// the stream is not a terminal. Unicode (and so Braille dots) is on when the locale says UTF-8 and
/// `TERM` is not `dumb`.
public struct TerminalCapabilities: Hashable, Sendable {
  /// Whether SGR colour sequences may be written.
  public var colors: Bool
  /// The character set to draw with.
  public var charset: Charset

  /// Creates capabilities explicitly.
  public init(colors: Bool, charset: Charset) {
    self.colors = colors
    self.charset = charset
  }

  /// Works out the capabilities from an environment and whether the stream is a terminal.
  public init(environment: [String: String], isTerminal: Bool) {
    self.init(variable: { environment[$0] }, isTerminal: isTerminal)
  }

  /// Works out the capabilities from this process's environment and whether the stream is a terminal.
  public init(isTerminal: Bool) {
    self.init(variable: environmentVariable, isTerminal: isTerminal)
  }

  /// Works out the capabilities from the environment `variable` reads, one name at a time.
  init(variable: (String) -> String?, isTerminal: Bool) {
    let term = variable("TERM") ?? ""
    let noColor = !(variable("NO_COLOR") ?? "").isEmpty
    self.colors = isTerminal && !noColor && !Self.isMonochrome(term)
    var locale = ""
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      if let value = variable(name), !value.isEmpty {
        locale = value
        break
      }
    }
    let lowered = locale.asciiLowercased
    let unicode = lowered.containsBytes("utf-8") || lowered.containsBytes("utf8")
    self.charset = term != "dumb" && unicode ? .unicode : .ascii
  }

  /// Whether `term` (the `TERM` variable) names a terminal that shows no colours: `dumb`; the DEC
  /// terminals (`vt52`, `vt100`, `vt220` …) unless named for colour; and terminfo's monochrome entries,
  /// whose names end in `-mono` or `-m` (`xterm-mono`, `linux-m`).
  public static func isMonochrome(_ term: String) -> Bool {
    term == "dumb" || (term.hasPrefix("vt") && !term.containsBytes("color")) || term.hasSuffix("-mono")
      || term.hasSuffix("-m")
  }
}
