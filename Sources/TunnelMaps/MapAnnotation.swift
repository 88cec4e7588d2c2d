/// The marker a map shows at its location: the man with the shovel where the tunnel starts, the
/// red X where it comes out.
///
/// How a terminal shows it (its glyph and colour) is TunnelApp's part.
public enum MapAnnotation: String, Sendable, Hashable, CaseIterable {
  /// The man with the shovel (the original's "man" image).
  case digger
  /// The red X (the original's "x" image).
  case target

  /// The heading of this end in words: "Where you dig", "Where you come out".
  public var heading: String {
    switch self {
    case .digger: "Where you dig"
    case .target: "Where you come out"
    }
  }
}
