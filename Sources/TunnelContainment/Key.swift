/// A key press (or a mouse event) read from a terminal.
public enum Key: Hashable, Sendable {
  /// A printable character (or a control character without a name of its own).
  case character(Character)
  case up, down, left, right
  case enter, escape, tab, backspace
  /// Control-C or Control-D.
  case interrupt
  /// Control-Z: stop for now, as the shell's job control stops a program (``TerminalApplication``
  /// hands the terminal back first).
  case suspend
  /// A press of the left mouse button on a cell, in window coordinates (column and row from zero).
  case click(Point)
  /// The mouse moved to a cell with the left button held down (after a ``click(_:)``).
  case drag(Point)
  /// The mouse wheel turned away from the user (`up`) or towards the user, over a cell.
  case scroll(up: Bool, at: Point)

  /// Splits raw terminal input into keys, taking the bytes as complete.
  ///
  /// Arrow keys arrive as `ESC [ A` … `ESC [ D` (or `ESC O A` …); mouse reports in the SGR
  /// encoding (`ESC [ < button ; column ; row M`) become ``click(_:)``, ``drag(_:)`` and
  /// ``scroll(up:at:)``;
  /// other control sequences (function keys, modified arrows, releases), control strings (OSC,
  /// DCS, APC, PM) and keys pressed with Alt are skipped whole. A lone ESC at the end is the Escape
  /// key; a sequence cut off at the end is dropped. ``KeyDecoder`` reads input that arrives in parts.
  public static func parse(_ bytes: [UInt8]) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.decode(bytes) + decoder.finish()
  }
}
