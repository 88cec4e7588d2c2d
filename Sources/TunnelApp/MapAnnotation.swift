import TunnelContainment

/// The marker a map shows at its location: the man with the shovel where the tunnel starts, the
/// red X where it comes out.
public enum MapAnnotation: String, Sendable, Hashable, CaseIterable {
  /// The man with the shovel (the original's "man" image).
  case digger
  /// The red X (the original's "x" image).
  case target

  /// The marker's character: a face for the digger, a heavy X for the target.
  public func glyph(_ charset: Charset) -> Character {
    switch (self, charset) {
    case (.digger, .unicode): "☻"
    case (.digger, .ascii): "@"
    case (.target, .unicode): "✖"
    case (.target, .ascii): "X"
    }
  }

  /// The marker's colour.
  public var color: Color {
    switch self {
    case .digger: .brightYellow
    case .target: .brightRed
    }
  }

  /// What the marker stands for, in a sentence's words: "the digger", "the exit".
  public var role: String {
    switch self {
    case .digger: "start"
    case .target: "exit"
    }
  }
}
