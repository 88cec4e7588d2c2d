/// Decodes the bytes a terminal sends into keys, one read at a time, keeping an unfinished
/// sequence for the next read.
///
/// The bytes follow ECMA-48, as xterm sends them:
/// - a control sequence, `ESC [` then parameter and intermediate bytes (0x20–0x3F) and a final byte
///   (0x40–0x7E): `ESC [ A` is ↑, `ESC [ < 0 ; 12 ; 5 M` a click; others (function keys, modified
///   arrows, mouse releases, reports) are read whole and left out;
/// - `ESC O` and a final byte (SS3): `ESC O A` … `ESC O D` are arrows, others are left out;
/// - a control string — OSC (`ESC ]`), DCS (`ESC P`), APC (`ESC _`), PM (`ESC ^`), SOS (`ESC X`) — ends
///   with BEL or ST (`ESC \`), and nothing in it is a key, however long it is or however many reads
///   it spans;
/// - ESC before any other key is that key with Alt (Meta) held, and is left out: Alt-q is not q;
/// - a lone ESC is the Escape key, but only once a pause (``pause()``) shows that nothing follows it.
///
/// A control byte where a sequence or string cannot have one — Control-C, Control-Z, Return —
/// ends the sequence unfinished and is read as its own key, so a terminal that stops mid-sequence
/// never swallows the keys that quit. ESC and a sequence's first byte followed by a pause
/// (`ESC [`, `ESC ]` and nothing more) is Alt and that key, and is left out.
///
///     var decoder = KeyDecoder()
///     decoder.decode(Array("\u{1B}[A\u{1B}]11;rgb:0/0/0\u{7}q".utf8))  // [.up, .character("q")]
///     decoder.decode([0x1B])                                          // [] — Escape, or more to come?
///     decoder.pause()                                                 // [.escape]
public struct KeyDecoder: Sendable {
  private enum State: Sendable {
    case ground
    /// After ESC; `alt` when it followed another ESC (Alt and a key that starts with ESC).
    case escape(alt: Bool)
    /// Inside `ESC [` (`ss3` false) or `ESC O`, with the parameter and intermediate bytes so far.
    case sequence(ss3: Bool, parameters: [UInt8], alt: Bool)
    /// Inside a control string; `started` once a byte of it came, `escape` right after an ESC in it.
    case string(started: Bool, escape: Bool)
    /// Inside a UTF-8 character of `length` bytes.
    case character([UInt8], length: Int, alt: Bool)
  }

  private var state = State.ground

  /// The most parameter bytes kept of a control sequence; a longer one is read whole and left out.
  private static let parameterLimit = 64

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether the bytes pending wait for a pause to tell what they are: a lone ESC (the Escape key),
  /// or ESC and the first byte of a sequence (Alt and that key).
  public var awaitsPause: Bool {
    switch state {
    case .escape: true
    case .sequence(_, let parameters, _): parameters.isEmpty
    case .string(let started, let escape): !started && !escape
    case .ground, .character: false
    }
  }

  /// Decodes bytes read, returning the keys they finish.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    var keys: [Key] = []
    for byte in bytes { feed(byte, into: &keys) }
    return keys
  }

  /// Tells the decoder that no byte came for a while (a few tens of milliseconds): a lone ESC
  /// is the Escape key; ESC and a sequence's first byte were Alt and a key, and are dropped.
  /// Longer sequences and strings keep waiting for their end.
  public mutating func pause() -> [Key] {
    guard awaitsPause else { return [] }
    let lone = if case .escape(alt: false) = state { true } else { false }
    state = .ground
    return lone ? [.escape] : []
  }

  /// Ends the input: a lone ESC is the Escape key; anything else unfinished is dropped.
  public mutating func finish() -> [Key] {
    let lone = if case .escape(alt: false) = state { true } else { false }
    state = .ground
    return lone ? [.escape] : []
  }

  private mutating func feed(_ byte: UInt8, into keys: inout [Key]) {
    switch state {
    case .ground:
      start(byte, alt: false, into: &keys)
    case .escape(let alt):
      switch byte {
      case 0x1B:
        // ESC ESC: Alt and a key that starts with ESC; a third ESC ends Alt-Escape and starts anew.
        state = .escape(alt: !alt)
      case 0x5B: state = .sequence(ss3: false, parameters: [], alt: alt)
      case 0x4F: state = .sequence(ss3: true, parameters: [], alt: alt)
      case 0x5D, 0x50, 0x5F, 0x5E, 0x58: state = .string(started: false, escape: false)
      default:
        // Alt and a key: read the key and leave it out.
        state = .ground
        var ignored: [Key] = []
        start(byte, alt: true, into: &ignored)
      }
    case .sequence(let ss3, var parameters, let alt):
      switch byte {
      case 0x20...0x3F:
        if parameters.count <= Self.parameterLimit { parameters.append(byte) }
        state = .sequence(ss3: ss3, parameters: parameters, alt: alt)
      case 0x40...0x7E:
        state = .ground
        let key =
          parameters.count > Self.parameterLimit
          ? nil
          : ss3 ? Self.arrow(byte, parameters: parameters) : Self.controlSequence(parameters, final: byte)
        if let key, !alt { keys.append(key) }
      default:
        // Not part of a sequence: the sequence ends unfinished and the byte is a key of its own.
        state = .ground
        feed(byte, into: &keys)
      }
    case .string(_, let escape):
      if escape {
        // ESC \ is the string terminator. ESC and a control byte end the string, and the byte is a
        // key of its own; ESC and anything else end it and start a new sequence.
        state = .ground
        switch byte {
        case 0x5C: break
        case 0x00..<0x20: feed(byte, into: &keys)
        default:
          state = .escape(alt: false)
          feed(byte, into: &keys)
        }
        return
      }
      switch byte {
      case 0x07: state = .ground
      case 0x1B: state = .string(started: true, escape: true)
      case 0x08...0x0D, 0x20...0xFF: state = .string(started: true, escape: false)
      default:
        // A control byte no string holds (Control-C, Control-Z): the string ends, the byte is a key.
        state = .ground
        feed(byte, into: &keys)
      }
    case .character(var bytes, let length, let alt):
      guard (0x80...0xBF).contains(byte) else {
        // Not a continuation byte: the character is broken, and the byte starts something new.
        state = .ground
        feed(byte, into: &keys)
        return
      }
      bytes.append(byte)
      guard bytes.count == length else {
        state = .character(bytes, length: length, alt: alt)
        return
      }
      state = .ground
      if !alt, let text = String(validating: bytes, as: UTF8.self), let character = text.first {
        keys.append(.character(character))
      }
    }
  }

  /// Reads `byte` as the start of a key, from the ground state.
  private mutating func start(_ byte: UInt8, alt: Bool, into keys: inout [Key]) {
    switch byte {
    case 0x1B:
      state = .escape(alt: false)
    case 0x00..<0x80:
      if !alt { keys.append(Self.key(ascii: byte)) }
    case 0xC2...0xDF:
      state = .character([byte], length: 2, alt: alt)
    case 0xE0...0xEF:
      state = .character([byte], length: 3, alt: alt)
    case 0xF0...0xF4:
      state = .character([byte], length: 4, alt: alt)
    default:
      // A continuation byte on its own, or one that never starts UTF-8: skipped.
      break
    }
  }

  /// The key of one ASCII byte other than ESC.
  private static func key(ascii byte: UInt8) -> Key {
    switch byte {
    case 0x0D, 0x0A: .enter
    case 0x09: .tab
    case 0x7F, 0x08: .backspace
    case 0x03, 0x04: .interrupt
    case 0x1A: .suspend
    default: .character(Character(Unicode.Scalar(byte)))
    }
  }

  /// The key a control sequence `ESC [ parameters final` stands for, nil for one left out.
  private static func controlSequence(_ parameters: [UInt8], final: UInt8) -> Key? {
    if parameters.first == 0x3C { return mouse(parameters.dropFirst(), final: final) }
    return arrow(final, parameters: parameters)
  }

  /// An arrow key without modifiers: no parameters and a final byte A to D.
  private static func arrow(_ final: UInt8, parameters: [UInt8]) -> Key? {
    guard parameters.isEmpty else { return nil }
    switch final {
    case 0x41: return .up
    case 0x42: return .down
    case 0x43: return .right
    case 0x44: return .left
    default: return nil
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
    case 32: return .drag(point)
    case 64: return .scroll(up: true, at: point)
    case 65: return .scroll(up: false, at: point)
    default: return nil
    }
  }
}
