import Testing

@testable import TunnelContainment

/// What a terminal is taken to show, from the environment.
@Suite struct TerminalCapabilitiesTests {
  @Test(
    "NO_COLOR turns colour off only when it is not empty (no-color.org)",
    arguments: [(nil, true), ("", true), ("1", false), ("0", false), ("yes", false)] as [(String?, Bool)])
  func noColor(value: String?, colors: Bool) {
    var environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
    environment["NO_COLOR"] = value
    #expect(TerminalCapabilities(environment: environment, isTerminal: true).colors == colors)
  }

  @Test(
    "Terminals without colours get none; colour terminals do",
    arguments: [
      ("dumb", false), ("vt100", false), ("vt220", false), ("vt52", false), ("xterm-mono", false),
      ("linux-m", false), ("xterm-256color", true), ("xterm", true), ("screen-256color", true),
      ("tmux-256color", true), ("linux", true),
    ])
  func monochromeTerminals(term: String, colors: Bool) {
    let capabilities = TerminalCapabilities(environment: ["TERM": term, "LANG": "C.UTF-8"], isTerminal: true)
    #expect(capabilities.colors == colors, "TERM=\(term)")
  }

  @Test("Nothing but a terminal gets colours")
  func notATerminal() {
    #expect(!TerminalCapabilities(environment: ["TERM": "xterm-256color"], isTerminal: false).colors)
  }
}
