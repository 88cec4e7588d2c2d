import Testing

@testable import TunnelContainment

@Suite("Terminal input")
struct TerminalInputTests {
  @Test(
    "Keys, arrows and SGR mouse reports are read from raw bytes",
    arguments: [
      ("q", [Key.character("q")]),
      ("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD", [.up, .down, .right, .left]),
      ("\u{1B}[<0;12;5M", [.click(Point(x: 11, y: 4))]),
      ("\u{1B}[<0;12;5m", []),  // a release
      ("\u{1B}[<0;12;5M\u{1B}[<32;14;6M", [.click(Point(x: 11, y: 4)), .drag(Point(x: 13, y: 5))]),
      ("\u{1B}[<35;14;6M", []),  // a move with no button held
      (
        "\u{1B}[<64;1;1M\u{1B}[<65;3;2M",
        [.scroll(up: true, at: Point(x: 0, y: 0)), .scroll(up: false, at: Point(x: 2, y: 1))]
      ),
      ("\u{1B}[1;2A", []),  // shift-up: skipped whole, not read as "1;2A"
      ("\u{1B}[15~x", [.character("x")]),  // F5, then x
      ("\u{1B}", [.escape]),
      ("\t\r\u{7F}\u{3}", [.tab, .enter, .backspace, .interrupt]),
      ("ø", [.character("ø")]),
      ("\u{1B}[<0;99999999;1M", []),  // a number too long to be a cell
      ("\u{1A}", [.suspend]),  // Control-Z
      ("\u{1B}[", []),  // Alt-[, or a sequence cut off: not Escape
      ("\u{1B}q\u{1B}Q\u{1B}\u{3}", []),  // Alt-q, Alt-Q, Alt-Control-C
      ("\u{1B}]11;rgb:0000/0000/0000\u{7}\u{1B}P1$r0m\u{1B}\\x", [.character("x")]),  // OSC, DCS, then x
    ])
  func parse(input: String, expected: [Key]) {
    #expect(Key.parse(Array(input.utf8)) == expected)
  }

  @Test("A control sequence cut off at the end of the bytes read is dropped, not read as keys")
  func truncated() {
    #expect(Key.parse(Array("\u{1B}[<0;12".utf8)).isEmpty)
  }
}

@MainActor
@Suite("UIKit's plain initialisers and point conversion")
struct PlainInitialiserTests {
  @Test("Window(), Window(frame:), View() and View(frame:) as in UIKit")
  func initialisers() {
    let window = Window()
    #expect(window.frame == .zero && !window.isVisible)
    let framed = Window(frame: Rect(x: 0, y: 0, width: 30, height: 10))
    #expect(framed.bounds.size == Size(width: 30, height: 10))
    #expect(View().frame == .zero)
    #expect(View(frame: Rect(x: 1, y: 2, width: 3, height: 4)).frame == Rect(x: 1, y: 2, width: 3, height: 4))
    // A window made with a frame shows its root controller like any other.
    let root = ViewController()
    framed.rootViewController = root
    framed.makeKeyAndVisible()
    #expect(root.view.frame == framed.bounds && root.appearanceState == .appeared)
  }

  @Test("Points convert between a view and the window")
  func convert() {
    let window = Window(size: Size(width: 40, height: 20))
    let outer = View(frame: Rect(x: 5, y: 3, width: 20, height: 10))
    let inner = View(frame: Rect(x: 2, y: 1, width: 5, height: 5))
    window.addSubview(outer)
    outer.addSubview(inner)
    #expect(inner.convert(Point(x: 7, y: 4), from: nil) == Point(x: 0, y: 0))
    #expect(inner.convert(Point(x: 1, y: 1), to: nil) == Point(x: 8, y: 5))
    #expect(inner.convert(Point(x: 0, y: 0), to: outer) == Point(x: 2, y: 1))
    #expect(outer.convert(Point(x: 3, y: 2), from: inner) == Point(x: 5, y: 3))
  }
}
