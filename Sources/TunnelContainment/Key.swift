/// A key press (or a mouse event) read from a terminal.
public enum Key: Hashable, Sendable {
  /// A printable character (or a control character without a name of its own).
  case character(Character)
  case up, down, left, right
  case enter, escape, tab, backspace
  /// Control-C or Control-D.
  case interrupt
  /// A press of the left mouse button on a cell, in window coordinates (column and row from zero).
  case click(Point)
  /// The mouse wheel turned away from the user (`up`) or towards the user, over a cell.
  case scroll(up: Bool, at: Point)

  /// Splits raw terminal input into keys.
  ///
  /// Arrow keys arrive as `ESC [ A` … `ESC [ D` (or `ESC O A` …); mouse reports in the SGR
  /// encoding (`ESC [ < button ; column ; row M`) become ``click(_:)`` and ``scroll(up:at:)``;
  /// other control sequences (function keys, modified arrows, releases) are skipped whole. The
  /// bytes are taken as complete: a lone ESC at the end is the Escape key, a control sequence cut
  /// off at the end is dropped.
  public static func parse(_ bytes: [UInt8]) -> [Key] {
    parse(bytes, complete: true).keys
  }

  /// Splits input read so far into keys, leaving out an unfinished sequence at the end — a lone
  /// ESC, a control sequence without its final byte, part of a UTF-8 character — which the next
  /// read may complete.
  ///
  /// - Returns: The keys, and how many bytes they used; the bytes after those are unfinished.
  ///   With `complete`, every byte is used (as ``parse(_:)`` does).
  public static func parse(_ bytes: [UInt8], complete: Bool) -> (keys: [Key], used: Int) {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B, !complete, index + 2 >= bytes.count,
        index + 1 == bytes.count || bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F
      {
        // ESC, ESC [ or ESC O at the very end: the rest may be on its way.
        return (keys, index)
      }
      if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x4F {
        if let arrow = arrow(bytes[index + 2]) { keys.append(arrow) }
        index += 3
        continue
      }
      if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B {
        // A control sequence: parameters and intermediates (0x20–0x3F), then a final byte (0x40–0x7E).
        var end = index + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else {
          if !complete { return (keys, index) }
          index = bytes.count
          continue
        }
        let parameters = Array(bytes[(index + 2)..<end])
        let final = bytes[end]
        if parameters.isEmpty, let arrow = arrow(final) {
          keys.append(arrow)
        } else if parameters.first == 0x3C, let mouse = mouse(parameters.dropFirst(), final: final) {
          keys.append(mouse)
        }
        index = end + 1
        continue
      }
      switch byte {
      case 0x1B: keys.append(.escape)
      case 0x0D, 0x0A: keys.append(.enter)
      case 0x09: keys.append(.tab)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x03, 0x04: keys.append(.interrupt)
      default:
        // Decode UTF-8 sequences; bytes that do not decode are skipped.
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        if !complete, index + length > bytes.count { return (keys, index) }
        let end = min(bytes.count, index + length)
        if let text = String(validating: bytes[index..<end], as: UTF8.self), let character = text.first {
          keys.append(.character(character))
        }
        index = end
        continue
      }
      index += 1
    }
    return (keys, bytes.count)
  }

  private static func arrow(_ final: UInt8) -> Key? {
    switch final {
    case 0x41: .up
    case 0x42: .down
    case 0x43: .right
    case 0x44: .left
    default: nil
    }
  }

  /// An SGR mouse report `button;column;row` ending in `M` (press) or `m` (release).
  private static func mouse(_ parameters: ArraySlice<UInt8>, final: UInt8) -> Key? {
    let numbers = parameters.split(separator: 0x3B, omittingEmptySubsequences: false).map { digits in
      guard (1...6).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
        return -1
      }
      return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
    guard final == 0x4D, numbers.count == 3, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
    let point = Point(x: numbers[1] - 1, y: numbers[2] - 1)
    switch numbers[0] {
    case 0: return .click(point)
    case 64: return .scroll(up: true, at: point)
    case 65: return .scroll(up: false, at: point)
    default: return nil
    }
  }
}
