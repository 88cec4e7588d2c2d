import ArgumentParser
import TunnelGeo

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A usage mistake as Tunnel says it, whoever found it: one line `tunnel: …` that says what was wrong.
///
/// A command's own checks already speak Tunnel's words ("--limit must be at least 1, not -1") and are
/// printed as they are. swift-argument-parser's own mistakes ("Missing value for '--limit <limit>'",
/// "Unexpected argument 'x'") are made clauses, with anything typed escaped, and say where to read how
/// to do it.
///
/// ```swift
/// UsageMessage.line("Error: Missing value for '--limit <limit>'\nUsage: …", command: "find", fromParser: true)
/// // tunnel: missing value for '--limit <limit>'; see 'tunnel find --help'
/// ```
public enum UsageMessage {
  /// The most characters of a message: a typed value repeated in it is cut, not the line.
  public static let limit = 240

  /// The one line for `message` (the parser's text: "Error: " and a sentence, maybe usage lines
  /// after it) about `command` (nil for the root command); `fromParser` when the parser itself found
  /// the mistake: when `parseAsRoot(_:)` threw it, for the commands' own checks come after parsing
  /// (``CheckedCommand``).
  public static func line(_ message: String, command: String?, fromParser: Bool) -> String {
    var text = message.trimmingWhitespace()
    if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
    text = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
    guard fromParser else { return "tunnel: " + text }
    text = clauses(text)
    let help = command.map { "'tunnel \($0) --help'" } ?? "'tunnel --help'"
    return "tunnel: " + escaped(text) + "; see " + help
  }

  /// The parser's sentences ("The value 'x' is invalid for '--view <view>'. Please provide one of …")
  /// as Tunnel's clauses: each begun in lower case, joined by "; ", no full stop at the end. Text in
  /// single quotes (what was typed, an option's name) is left as it is.
  public static func clauses(_ text: String) -> String {
    var out = ""
    var quoted = false
    var sentenceStart = true
    var characters = text[...]
    while let character = characters.popFirst() {
      if character == "'" { quoted.toggle() }
      if !quoted, character == ".", characters.first == " " || characters.isEmpty {
        characters = characters.drop { $0 == " " }
        if !characters.isEmpty { out += "; " }
        sentenceStart = true
        continue
      }
      if sentenceStart, character.isUppercase, characters.first?.isLowercase == true {
        out += character.lowercased()
      } else {
        out.append(character)
      }
      sentenceStart = false
    }
    return out
  }

  /// `text` with control and bidirectional characters written as `\u{…}` (the parser repeats typed
  /// values as they came) and cut at ``limit`` characters.
  public static func escaped(_ text: String) -> String {
    EchoedText.escaped(text, limit: limit)
  }
}
