import Foundation

/// The manual page, docs/man/tunnel.1, as the tests read it: its text and the examples in it.
///
/// Server/Tests/TunnelServeTests links this file, so it finds the page by walking up from itself rather
/// than by counting folders.
enum ManPage {
  struct Missing: Error, CustomStringConvertible {
    var description: String { "no docs/man/tunnel.1 in any folder above \(#filePath)" }
  }

  /// The package checkout: the nearest folder above this file that holds docs/man/tunnel.1.
  static func root() throws -> URL {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("docs/man/tunnel.1").path) {
        return folder
      }
      folder.deleteLastPathComponent()
    }
    throw Missing()
  }

  /// The page, which must be UTF-8.
  static func text() throws -> String {
    let data = try Data(contentsOf: root().appendingPathComponent("docs/man/tunnel.1"))
    guard let text = String(data: data, encoding: .utf8) else { throw Missing() }
    return text
  }

  /// Every line of the literal blocks that follow "Examples:", as a shell would be given it.
  static func examples() throws -> [String] {
    var examples: [String] = []
    var inExamples = false
    var previous = ""
    for line in try text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line == ".Bd -literal -offset indent" {
        inExamples = previous == "Examples:"
      } else if line == ".Ed" {
        inExamples = false
      } else if inExamples {
        var example = line.replacingOccurrences(of: "\\e", with: "\\")
        if example.hasPrefix("\\&") { example.removeFirst(2) }
        examples.append(example)
      }
      previous = line
    }
    return examples
  }
}
