/// A terminal colour: one of the sixteen ANSI colours or an entry of the 256-colour palette.
public enum Color: Hashable, Sendable {
  case black, red, green, yellow, blue, magenta, cyan, white
  case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan,
    brightWhite
  /// An entry of the 256-colour palette.
  case palette(UInt8)

  /// The SGR parameters that select this colour as foreground (or background).
  func sgr(background: Bool) -> String {
    let base = background ? 40 : 30
    switch self {
    case .palette(let index): return "\(background ? 48 : 38);5;\(index)"
    default:
      let order: [Color] = [.black, .red, .green, .yellow, .blue, .magenta, .cyan, .white]
      let bright: [Color] = [
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta,
        .brightCyan, .brightWhite,
      ]
      if let index = order.firstIndex(of: self) { return "\(base + index)" }
      let index = bright.firstIndex(of: self) ?? 7
      return "\(base + 60 + index)"
    }
  }
}
