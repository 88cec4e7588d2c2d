import Testing
import TunnelApp
import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports

@MainActor
@Suite("Playing the Tunnel with keys")
struct TunnelPlayTests {
  func play(size: Size = Size(width: 80, height: 30)) -> (TunnelPlay, Window) {
    let window = Window(size: size)
    let tunnel = TunnelViewController(renderer: Shared.renderer, geocoder: Shared.geocoder)
    let play = TunnelPlay(window: window, tunnel: tunnel, gazetteer: try! Gazetteer(data: Shared.data))
    window.makeKeyAndVisible()
    return (play, window)
  }

  func type(_ text: String, into play: TunnelPlay) {
    for character in text { play.handle(.character(character)) }
  }

  @Test("Arrows and h/j/k/l move the active marker a twentieth of the map; capitals a quarter")
  func movementKeys() throws {
    let (play, _) = play()
    let tunnel = play.tunnel
    let start = tunnel.startMap.location
    play.handle(.right)
    let step = try Geodesic.inverse(from: start, to: tunnel.startMap.location)
    #expect(abs(step.distance - 50_000) < 1 && abs(step.initialAzimuth - 90) < 1e-6)
    #expect(tunnel.targetMap.location == tunnel.startMap.location.antipode)
    let before = tunnel.startMap.location
    play.handle(.character("K"))
    let long = try Geodesic.inverse(from: before, to: tunnel.startMap.location)
    #expect(abs(long.distance - 250_000) < 1 && abs(long.initialAzimuth) < 1e-6)
  }

  @Test("Tab switches the marker the keys move; both are movable")
  func tabSwitches() {
    let (play, _) = play()
    let tunnel = play.tunnel
    #expect(play.active == .digger)
    play.handle(.tab)
    #expect(play.active == .target)
    let target = tunnel.targetMap.location
    play.handle(.character("j"))
    #expect(tunnel.targetMap.location != target)
    #expect(tunnel.startMap.location == tunnel.targetMap.location.antipode)
  }

  @Test("+ and - zoom both maps, within the limits")
  func zoom() {
    let (play, _) = play()
    play.handle(.character("+"))
    #expect(play.tunnel.startMap.regionSpan == 500_000 && play.tunnel.targetMap.regionSpan == 500_000)
    for _ in 0..<20 { play.handle(.character("-")) }
    #expect(play.tunnel.startMap.regionSpan == MapViewController.regionSpanLimits.upperBound)
  }

  @Test("g opens a prompt: a place name moves the active marker there; a bad one is said in the status line")
  func prompt() throws {
    let (play, window) = play()
    play.handle(.character("g"))
    #expect(play.prompt == "")
    type("Wellington, NZ", into: play)
    play.handle(.enter)
    #expect(play.prompt == nil)
    let wellington = play.tunnel.startMap.location
    #expect(abs(wellington.latitude - -41.29) < 0.05 && abs(wellington.longitude - 174.78) < 0.05)
    #expect(play.tunnel.targetMap.location == wellington.antipode)
    play.handle(.character("/"))
    type("Nowhereville Qqq", into: play)
    play.handle(.enter)
    #expect(play.message?.contains("Nowhereville") == true)
    #expect(window.render().plainText().contains("Nowhereville"))
    // A search that finds nothing keeps the text open to be mended; Escape closes it, and never quits.
    #expect(play.prompt == "Nowhereville Qqq")
    #expect(play.handle(.escape) && play.prompt == nil)
    // Escape closes the prompt without moving.
    play.handle(.character("g"))
    type("0 0", into: play)
    play.handle(.escape)
    #expect(play.tunnel.startMap.location == wellington)
  }

  @Test("The prompt edits as a shell's line does: arrows, Ctrl-A/E/U/W, and Backspace at the cursor")
  func promptEditing() {
    let (play, _) = play()
    play.handle(.character("g"))
    type("Wellngton NZ", into: play)
    for _ in 0..<8 { play.handle(.left) }
    type("i", into: play)
    #expect(play.prompt == "Wellington NZ" && play.cursor == 5)
    play.handle(.character("\u{05}"))
    play.handle(.character("\u{17}"))
    #expect(play.prompt == "Wellington " && play.cursor == 11)
    play.handle(.character("\u{01}"))
    play.handle(.right)
    play.handle(.backspace)
    #expect(play.prompt == "ellington " && play.cursor == 0)
    play.handle(.character("\u{05}"))
    play.handle(.character("\u{15}"))
    #expect(play.prompt == "" && play.cursor == 0)
  }

  @Test("The prompt shows the text typed at any width, the cursor always in view")
  func narrowPrompt() {
    for width in [30, 40, 63, 80] {
      let (play, window) = play(size: Size(width: width, height: 24))
      play.handle(.character("g"))
      type("Skjern, Midtjylland, Denmark", into: play)
      let status = window.render().plainText().split(separator: "\n").last.map(String.init) ?? ""
      #expect(status.contains("▏"), "width \(width): \(status)")
      #expect(status.contains("Denmark▏") || status.contains("mark▏"), "width \(width): \(status)")
      #expect(status.count <= width)
      for _ in 0..<28 { play.handle(.left) }
      let start = window.render().plainText().split(separator: "\n").last.map(String.init) ?? ""
      #expect(start.contains("▏Skjern"), "width \(width): \(start)")
    }
  }

  @Test("A click on the radar flips the maps, as r does")
  func radarClick() throws {
    let (play, window) = play()
    let radar = play.tunnel.radarButton
    let point = radar.convert(Point(x: radar.bounds.width / 2, y: 0), to: nil)
    play.handle(.click(point))
    #expect(play.tunnel.isFlipping)
    window.clock.runUntilIdle()
    #expect(play.tunnel.isFlipped)
    #expect(play.active == .digger, "the click was not taken for a click on a map")
  }

  @Test("r flips to the words and back; a press during the flip is refused with a message")
  func radar() {
    let (play, window) = play()
    play.handle(.character("r"))
    #expect(play.tunnel.isFlipping)
    play.handle(.character("r"))
    #expect(play.message == "The maps are still turning over.")
    window.clock.runUntilIdle()
    #expect(play.tunnel.isFlipped && play.tunnel.children.map(\.title) == ["Start info", "Target info"])
    play.handle(.character("r"))
    window.clock.runUntilIdle()
    #expect(!play.tunnel.isFlipped && play.tunnel.children.map(\.title) == ["Start map", "Target map"])
  }

  @Test("A click on the bottom map moves the exit there and makes it the active marker")
  func click() {
    let (play, _) = play()
    let bottom = play.tunnel.bottomContainer.frame
    play.handle(.click(Point(x: 10, y: bottom.minY + 2)))
    #expect(play.active == .target)
    #expect(play.tunnel.targetMap.location != TunnelViewController.defaultStart.antipode)
    #expect(play.tunnel.startMap.location == play.tunnel.targetMap.location.antipode)
  }

  @Test("? shows the keys, any key hides them; q and Esc quit")
  func helpAndQuit() {
    let (play, window) = play()
    play.handle(.character("?"))
    #expect(play.isShowingHelp)
    let shown = window.render().plainText()
    #expect(shown.contains("radar: flip to words"))
    // A framed panel, the actions in one column.
    let rows = shown.split(separator: "\n").filter { $0.contains("│ ") }
    #expect(shown.contains("┌") && shown.contains("┘") && rows.count == TunnelPlay.keys.count + 1)
    #expect(!TunnelPlay.helpPanel(.unicode).contains("•"), "no stray bullet in the panel")
    let columns = Set(
      rows.dropFirst().compactMap { row in
        TunnelPlay.keys.compactMap {
          row.range(of: "   " + $0.action).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
        }.first
      })
    #expect(columns.count == 1, "\(columns)\n\(shown)")
    // In ASCII the frame and the arrows are spelled out, and the columns still line up.
    let ascii = TunnelPlay.helpPanel(.ascii).split(separator: "\n")
    #expect(ascii.first?.hasPrefix("+--") == true && ascii.allSatisfy { $0.count == ascii[0].count })
    #expect(ascii.allSatisfy { $0.allSatisfy(\.isASCII) })
    #expect(play.handle(.escape))
    #expect(!play.isShowingHelp)
    #expect(!play.handle(.character("q")))
    #expect(!play.handle(.escape))
  }

  @Test(
    "Tiny and odd window sizes draw, flip and resize without trouble",
    arguments: [(1, 1), (3, 2), (12, 6), (300, 7)])
  func tinyWindows(width: Int, height: Int) {
    let (play, window) = play(size: Size(width: width, height: height))
    _ = window.render()
    play.handle(.character("r"))
    window.clock.advance(by: 0.1)
    _ = window.render()
    window.resize(to: Size(width: height, height: width))
    window.clock.runUntilIdle()
    #expect(window.render().size == Size(width: height, height: width))
    #expect(play.tunnel.isFlipped && play.tunnel.children.map(\.title) == ["Start info", "Target info"])
  }

  /// The status line's names, as `tunnel play` gives them.
  static let namer: TunnelPlay.Namer = { location in
    (try? Shared.reverseGeocoder.placemark(for: location, fields: PlacemarkText.shortNameFields))
      .flatMap(PlacemarkText.shortName)
  }

  func statusLine(_ window: Window) -> String {
    window.render().plainText().split(separator: "\n").last.map(String.init) ?? ""
  }

  @Test("The status line names both ends, marks the one moving, and gives the scale and the zoom")
  func statusLine() {
    let window = Window(size: Size(width: 100, height: 30))
    let tunnel = TunnelViewController(renderer: Shared.renderer, geocoder: Shared.geocoder)
    let play = TunnelPlay(
      window: window, tunnel: tunnel, gazetteer: try! Gazetteer(data: Shared.data), namer: Self.namer)
    window.makeKeyAndVisible()
    #expect(
      statusLine(window).trimmingCharacters(in: .whitespaces)
        == "▸☻ Lemvig, Denmark · ✖ South Pacific Ocean · 1,000 km across, zoom ×1 · ? keys · q quit")
    play.handle(.tab)
    play.handle(.character("+"))
    play.handle(.character("+"))
    #expect(
      statusLine(window).hasPrefix("☻ Lemvig, Denmark · ▸✖ South Pacific Ocean · 250 km across, zoom ×4"))
    for _ in 0..<8 { play.handle(.character("-")) }
    #expect(statusLine(window).contains("20,000 km across, zoom ×1/20"))
    // Narrower, the keys go first, then the scale, then the names are shortened.
    window.resize(to: Size(width: 60, height: 30))
    let narrow = statusLine(window).trimmingCharacters(in: .whitespaces)
    #expect(
      narrow.count <= 60 && narrow.contains("▸✖ South Pacific Ocean") && !narrow.contains("q quit"),
      "\(narrow)")
    window.resize(to: Size(width: 30, height: 30))
    let tiny = statusLine(window).trimmingCharacters(in: .whitespaces)
    #expect(tiny.count <= 30 && tiny.hasPrefix("☻ Lemvig") && tiny.contains("▸✖ South"), "\(tiny)")
  }

  @Test("Without names the status line gives coordinates; in ASCII the marks are ASCII")
  func statusLineCoordinates() {
    let (play, window) = play(size: Size(width: 100, height: 30))
    #expect(
      statusLine(window).hasPrefix("▸☻ 56.550, 8.317 · ✖ -56.550, -171.683 · 1,000 km across, zoom ×1"))
    let ascii = TunnelPlay.statusLine(
      ends: [("@", "København, Denmark", true), ("X", "South Pacific Ocean", false)], regionSpan: 250_000,
      charset: .ascii, width: 100)
    #expect(
      ascii == ">@ Kobenhavn, Denmark - X South Pacific Ocean - 250 km across, zoom x4 - ? keys - q quit")
    _ = play
  }

  /// A solution's initial azimuth from 0 to 360°.
  func bearing(_ solution: GeodesicSolution) -> Double {
    (solution.initialAzimuth + 360).truncatingRemainder(dividingBy: 360)
  }

  @Test("A drag on a map pulls it: the marker goes the other way, and the other end follows to the antipode")
  func dragMovesTheMap() throws {
    let (play, window) = play(size: Size(width: 80, height: 30))
    _ = window.render()
    let tunnel = play.tunnel
    let top = try #require(tunnel.startMap.viewIfLoaded)
    let centre = top.convert(Point(x: top.bounds.width / 2, y: top.bounds.height / 2), to: nil)
    // A press on the marker's own cell leaves it where it is (to within the cell); then pull right.
    play.handle(.click(centre))
    let pressed = tunnel.startMap.location
    play.handle(.drag(Point(x: centre.x + 6, y: centre.y)))
    let pulled = try Geodesic.inverse(from: pressed, to: tunnel.startMap.location)
    #expect(pulled.distance > 50_000 && abs(bearing(pulled) - 270) < 10, "\(pulled)")
    #expect(tunnel.targetMap.location == tunnel.startMap.location.antipode)
    // Pulled down, the marker goes north; the same pointer report twice moves nothing.
    let before = tunnel.startMap.location
    play.handle(.drag(Point(x: centre.x + 6, y: centre.y + 2)))
    let down = try Geodesic.inverse(from: before, to: tunnel.startMap.location)
    #expect(bearing(down) < 10 || bearing(down) > 350, "\(down)")
    let settled = tunnel.startMap.location
    play.handle(.drag(Point(x: centre.x + 6, y: centre.y + 2)))
    #expect(tunnel.startMap.location == settled)
    // A drag on the bottom map moves the X and makes it the one moving.
    let bottom = try #require(tunnel.targetMap.viewIfLoaded)
    let lower = bottom.convert(Point(x: bottom.bounds.width / 2, y: bottom.bounds.height / 2), to: nil)
    play.handle(.click(lower))
    let target = tunnel.targetMap.location
    play.handle(.drag(Point(x: lower.x - 6, y: lower.y)))
    #expect(play.active == .target)
    #expect(try abs(bearing(Geodesic.inverse(from: target, to: tunnel.targetMap.location)) - 90) < 10)
    // A drag with no press on a map before it (after a key) does nothing.
    play.handle(.character("r"))
    window.clock.runUntilIdle()
    let flipped = tunnel.startMap.location
    play.handle(.drag(Point(x: 3, y: 3)))
    #expect(tunnel.startMap.location == flipped)
  }
}
