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

  /// The heading of this end in words: "Where you dig", "Where you come out".
  public var heading: String {
    switch self {
    case .digger: "Where you dig"
    case .target: "Where you come out"
    }
  }
}
