/// A key press read from a terminal.
public enum Key: Hashable, Sendable {
  /// A printable character (or a control character without a name of its own).
  case character(Character)
  case up, down, left, right
  case enter, escape, tab, backspace
  /// Control-C or Control-D.
  case interrupt

  /// Splits raw terminal input into keys; arrow keys arrive as `ESC [ A` … `ESC [ D` (or `ESC O A` …).
  public static func parse(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F {
        let arrows: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left]
        if let arrow = arrows[bytes[index + 2]] {
          keys.append(arrow)
          index += 3
          continue
        }
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
        let end = min(bytes.count, index + length)
        if let text = String(validating: bytes[index..<end], as: UTF8.self), let character = text.first {
          keys.append(.character(character))
        }
        index = end
        continue
      }
      index += 1
    }
    return keys
  }
}
