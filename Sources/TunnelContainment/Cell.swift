/// One character cell of a ``Canvas``: a character, Braille dots drawn over it, and a style.
public struct Cell: Hashable, Sendable {
  /// The character shown, a space for an empty cell.
  public var character: Character
  /// Sub-cell dots, one bit per dot in Braille order (bit 0 is the top-left dot).
  public var dots: UInt8
  /// Colours and attributes.
  public var style: Style

  /// Creates a cell.
  public init(_ character: Character = " ", dots: UInt8 = 0, style: Style = .plain) {
    self.character = character
    self.dots = dots
    self.style = style
  }

  /// An empty cell in the default style.
  public static let blank = Cell()

  /// The character this cell shows with the given character set.
  ///
  /// Dots show as a Braille pattern (U+2800 + bits) with ``Charset/unicode``; with
  /// ``Charset/ascii`` they fall back to `'` (upper half), `.` (lower half) or `:` (both).
  public func rendered(_ charset: Charset) -> Character {
    guard dots != 0, character == " " else { return character }
    switch charset {
    case .unicode:
      return Character(Unicode.Scalar(0x2800 + UInt32(dots))!)
    case .ascii:
      let upper = dots & 0b0001_1011 != 0
      let lower = dots & 0b1110_0100 != 0
      return upper && lower ? ":" : (upper ? "'" : ".")
    }
  }
}

/// The characters a terminal can show.
public enum Charset: Hashable, Sendable {
  /// Unicode, with Braille patterns for sub-cell dots.
  case unicode
  /// Plain ASCII: dots fall back to `'`, `.` and `:`.
  case ascii
}
