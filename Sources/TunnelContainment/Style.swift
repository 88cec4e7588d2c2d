/// How a character cell is drawn: colours and text attributes.
public struct Style: Hashable, Sendable {
  /// The text colour, or the terminal's default.
  public var foreground: Color?
  /// The cell colour, or the terminal's default.
  public var background: Color?
  /// Bold (bright) text.
  public var isBold: Bool
  /// Faint text.
  public var isDim: Bool
  /// Foreground and background swapped.
  public var isInverse: Bool
  /// Underlined text.
  public var isUnderlined: Bool

  /// Creates a style; everything left out keeps the terminal's default.
  public init(
    foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false,
    inverse: Bool = false, underlined: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.isBold = bold
    self.isDim = dim
    self.isInverse = inverse
    self.isUnderlined = underlined
  }

  /// The terminal's default look.
  public static let plain = Style()

  /// The SGR escape sequence that switches a terminal to this style from a reset state.
  var sgr: String {
    var parameters = ["0"]
    if isBold { parameters.append("1") }
    if isDim { parameters.append("2") }
    if isUnderlined { parameters.append("4") }
    if isInverse { parameters.append("7") }
    if let foreground { parameters.append(foreground.sgr(background: false)) }
    if let background { parameters.append(background.sgr(background: true)) }
    return "\u{1B}[" + parameters.joined(separator: ";") + "m"
  }
}
