import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports

/// The interactive Tunnel in a window: the ``TunnelViewController`` above a status line, the keys
/// that drive it, a prompt to jump to a place, and a help panel.
///
/// Keys: arrows or h/j/k/l move the active marker a twentieth of the map, H/J/K/L a quarter;
/// Tab switches which marker moves; + and - zoom both maps; r is the radar; g or / opens the
/// prompt (a place name or a coordinate, Enter to go, Esc to cancel); a click on a map moves its
/// marker there and makes it the active one, and a click on the radar flips; ? shows the keys; q or Esc
/// quits. (Control-Z, which
/// suspends, never gets here: `TerminalApplication` handles it.)
///
///     let play = TunnelPlay(window: window, tunnel: tunnel, gazetteer: gazetteer)
///     app.onKey = { key in if !play.handle(key) { app.quit() } }
@MainActor
public final class TunnelPlay {
  /// The window everything is shown in.
  public let window: Window
  /// The Tunnel itself.
  public let tunnel: TunnelViewController
  /// The marker the movement keys move.
  public private(set) var active: MapAnnotation = .digger
  /// The text typed at the prompt, nil while the prompt is closed.
  public private(set) var prompt: String?
  /// Where the next character typed goes in ``prompt``, in characters from its start.
  public private(set) var cursor = 0
  /// A message shown in the status line until the next key (a search that found nothing).
  public private(set) var message: String?
  /// Whether the key help is shown.
  public var isShowingHelp: Bool { !help.isHidden }

  /// Names a location in a few words for the status line ("Skjern, Denmark", "South Pacific Ocean");
  /// nil where there is no name.
  public typealias Namer = @MainActor (Coordinate) -> String?

  private let gazetteer: Gazetteer
  private let namer: Namer?
  /// The name last given for each end, and where.
  private var names: [MapAnnotation: (location: Coordinate, name: String?)] = [:]
  /// The map a press of the mouse fell on, and the cell the pointer was last reported at.
  private var drag: (annotation: MapAnnotation, last: Point)?
  private let status = CharsetLabel()
  private let help = CharsetLabel()

  /// How far one press of a movement key moves the marker, as a share of the map's span.
  public static let step = 0.05
  /// How far a capital movement key moves it.
  public static let longStep = 0.25

  /// Shows `tunnel` in `window` (as its root view controller, above a one-row status line).
  ///
  /// `gazetteer` finds the places typed at the prompt; `namer` names both ends in the status line
  /// (without one, the status line gives their coordinates).
  public init(window: Window, tunnel: TunnelViewController, gazetteer: Gazetteer, namer: Namer? = nil) {
    self.window = window
    self.tunnel = tunnel
    self.gazetteer = gazetteer
    self.namer = namer
    window.rootViewController = tunnel
    let size = window.bounds.size
    tunnel.view.frame = Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - 1))
    tunnel.view.autoresizingMask = .flexibleSize
    status.frame = Rect(x: 0, y: max(0, size.height - 1), width: size.width, height: 1)
    status.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
    status.content = { [weak self] charset in self?.statusText(charset) ?? "" }
    status.style = Style(foreground: .black, background: .palette(250))
    status.backgroundColor = .palette(250)
    window.addSubview(status)
    help.content = { charset in Self.helpPanel(charset) }
    help.lineBreakMode = .byClipping
    help.isHidden = true
    help.backgroundColor = .palette(238)
    help.style = Style(foreground: .brightWhite, background: .palette(238))
    help.autoresizingMask = [
      .flexibleLeftMargin, .flexibleRightMargin, .flexibleTopMargin, .flexibleBottomMargin,
    ]
    window.addSubview(help)
    centreHelp()
  }

  /// The keys and what they do, as the help panel lists them.
  public static let keys: [(key: String, action: String)] = [
    ("←↑↓→ or h j k l", "move the marker"), ("H J K L", "move it further"), ("Tab", "switch marker"),
    ("+ and -", "zoom in and out"), ("r, or click the radar", "radar: flip to words"),
    ("g or /", "go to a place"), ("click", "put the marker there"), ("drag", "move the map"),
    ("?", "this help"),
    ("Ctrl-Z", "suspend (fg resumes)"), ("q or Esc", "quit"),
  ]

  /// The keys, one a line, their actions in a column: what ``helpPanel(_:)`` frames.
  public static var helpText: String {
    let width = keys.map(\.key.count).max() ?? 0
    return
      (["Keys"]
      + keys.map { $0.key.paddedWithSpaces(toLength: width) + "   " + $0.action })
      .joined(separator: "\n")
  }

  /// The help panel for a window's characters: ``helpText`` in a box (`+`, `-` and `|` in ASCII), its
  /// columns aligned after the keys are spelled for the window.
  public static func helpPanel(_ charset: Charset) -> String {
    let spelled = keys.map {
      (key: charset == .ascii ? ASCIIText.converted($0.key) : $0.key, action: $0.action)
    }
    let width = spelled.map(\.key.count).max() ?? 0
    let rows =
      ["Keys"]
      + spelled.map { $0.key.paddedWithSpaces(toLength: width) + "   " + $0.action }
    let inner = rows.map(\.count).max() ?? 0
    let (across, down, corners) =
      charset == .ascii ? ("-", "|", ["+", "+", "+", "+"]) : ("─", "│", ["┌", "┐", "└", "┘"])
    let rule = String(repeating: across, count: inner + 2)
    let body = rows.map { down + " " + $0.paddedWithSpaces(toLength: inner) + " " + down }
    return ([corners[0] + rule + corners[1]] + body + [corners[2] + rule + corners[3]]).joined(
      separator: "\n")
  }

  /// Handles one key; false when the key asks to quit.
  @discardableResult
  public func handle(_ key: Key) -> Bool {
    if prompt != nil { return handlePrompt(key) }
    message = nil
    // Only a drag goes on from a press; anything else ends it.
    if case .drag = key {} else { drag = nil }
    if isShowingHelp, key != .character("q") {
      help.isHidden = true
      if key == .escape || key == .character("?") { return true }
    }
    switch key {
    case .character("q"), .character("Q"), .escape, .interrupt:
      return false
    case .up, .character("k"): move(azimuth: 0, Self.step)
    case .down, .character("j"): move(azimuth: 180, Self.step)
    case .right, .character("l"): move(azimuth: 90, Self.step)
    case .left, .character("h"): move(azimuth: 270, Self.step)
    case .character("K"): move(azimuth: 0, Self.longStep)
    case .character("J"): move(azimuth: 180, Self.longStep)
    case .character("L"): move(azimuth: 90, Self.longStep)
    case .character("H"): move(azimuth: 270, Self.longStep)
    case .tab: active = active == .digger ? .target : .digger
    case .character("+"), .character("="): zoom(by: 0.5)
    case .character("-"), .character("_"): zoom(by: 2)
    case .scroll(let up, _): zoom(by: up ? 0.5 : 2)
    case .character("r"), .character("R"):
      if !tunnel.radar() { message = "The maps are still turning over." }
    case .character("g"), .character("/"):
      prompt = ""
      cursor = 0
    case .character("?"):
      centreHelp()
      help.isHidden = false
    case .click(let point): click(at: point)
    case .drag(let point): drag(to: point)
    default: break
    }
    return true
  }

  /// Edits the prompt as a shell's line does: ←/→ and Ctrl-A/Ctrl-E move, Backspace, Ctrl-U (all before
  /// the cursor) and Ctrl-W (the word before it) delete; Enter goes, Esc closes the prompt (it never quits
  /// the app). A search that finds nothing keeps the text, to be mended.
  private func handlePrompt(_ key: Key) -> Bool {
    guard var text = prompt.map(Array.init) else { return true }
    cursor = min(max(0, cursor), text.count)
    message = nil
    switch key {
    case .escape:
      prompt = nil
      return true
    case .interrupt:
      return false
    case .enter:
      if !go(to: String(text)) { return true }
      prompt = nil
      return true
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(text.count, cursor + 1)
    case .character("\u{01}"): cursor = 0
    case .character("\u{05}"): cursor = text.count
    case .character("\u{15}"):
      text.removeSubrange(0..<cursor)
      cursor = 0
    case .character("\u{17}"):
      var start = cursor
      while start > 0, text[start - 1].isWhitespace { start -= 1 }
      while start > 0, !text[start - 1].isWhitespace { start -= 1 }
      text.removeSubrange(start..<cursor)
      cursor = start
    case .backspace:
      if cursor > 0 {
        text.remove(at: cursor - 1)
        cursor -= 1
      }
    case .character(let character)
    where !character.isNewline && !(character.unicodeScalars.first.map { $0.value < 0x20 } ?? true):
      text.insert(character, at: cursor)
      cursor += 1
    default:
      break
    }
    prompt = String(text)
    return true
  }

  /// Moves the active marker to the place or coordinate typed; false, with the reason in ``message``,
  /// when the text names none (blank text counts as done).
  private func go(to text: String) -> Bool {
    guard text.contains(where: { !$0.isWhitespace }) else { return true }
    do {
      let gazetteer = self.gazetteer
      let query = try LocationQuery(text) { () throws(PlaceDataError) in gazetteer }
      tunnel.moveMarker(active, to: query.coordinate)
      return true
    } catch {
      message = "\(error)"
      return false
    }
  }

  private func move(azimuth: Double, _ fraction: Double) {
    do {
      try tunnel.map(active).moveAnnotation(azimuth: azimuth, fraction: fraction)
    } catch {
      message = "\(error)"
    }
  }

  private func zoom(by factor: Double) {
    tunnel.startMap.zoom(by: factor)
    tunnel.targetMap.zoom(by: factor)
  }

  /// A click on the radar flips the maps, as r does; a click on a map shown now moves its marker there
  /// and makes it the active one.
  private func click(at point: Point) {
    drag = nil
    let radar = tunnel.radarButton
    if radar.window === window, !radar.isHidden, radar.bounds.contains(radar.convert(point, from: nil)) {
      if !tunnel.radar() { message = "The maps are still turning over." }
      return
    }
    for annotation in MapAnnotation.allCases {
      let map = tunnel.map(annotation)
      guard let view = map.viewIfLoaded, view.window === window, !view.isHidden else { continue }
      let local = view.convert(point, from: nil)
      if view.bounds.contains(local) {
        active = annotation
        map.moveAnnotation(toCell: local)
        drag = (annotation, point)
        return
      }
    }
  }

  /// The pointer moved with the button held since a press on a map: the map follows it, as a map
  /// pulled by hand does, taking its marker (which stays at the centre) the other way.
  private func drag(to point: Point) {
    guard let (annotation, last) = drag, point != last else { return }
    let map = tunnel.map(annotation)
    guard let view = map.viewIfLoaded, view.window === window, !view.isHidden else {
      drag = nil
      return
    }
    let centre = Point(x: view.bounds.width / 2, y: view.bounds.height / 2)
    let pulled = Point(x: centre.x - (point.x - last.x), y: centre.y - (point.y - last.y))
    let clamped = Point(
      x: min(max(0, pulled.x), view.bounds.width - 1), y: min(max(0, pulled.y), view.bounds.height - 1))
    active = annotation
    map.moveAnnotation(toCell: clamped)
    drag = (annotation, point)
  }

  private func centreHelp() {
    let lines = Self.helpPanel(window.charset).split(separator: "\n", omittingEmptySubsequences: false)
    let width = min(window.bounds.width, lines.map(\.count).max() ?? 0)
    let height = min(window.bounds.height, lines.count)
    help.frame = Rect(
      x: (window.bounds.width - width) / 2, y: (window.bounds.height - height) / 2, width: width,
      height: height)
  }

  /// The open prompt in `width` columns: the longest label that leaves room for the text, the text with
  /// the cursor (`▏`), scrolled so that the cursor shows, and a search's complaint after it when there is
  /// room.
  func promptText(_ prompt: String, width: Int) -> String {
    let text = Array(prompt)
    let labels = ["Go to (a place or a coordinate; Enter to go, Esc to cancel): ", "Go to: "]
    // The long label where the text (and a complaint) fits beside it, the short one otherwise.
    let complaint = message.map { 3 + $0.count } ?? 0
    let label =
      labels.first { $0.count + text.count + 1 + complaint <= width }
      ?? labels.first { $0.count + text.count + 1 <= width || $0.count <= width / 3 } ?? "Go to: "
    let room = max(1, width - label.count - 1)
    // The text shown: all of it when it fits, else a window that keeps the cursor in view.
    var first = 0
    if text.count + 1 > room { first = min(max(0, cursor - room + 1), text.count + 1 - room) }
    let last = min(text.count, first + room - 1)
    let before = String(text[first..<min(cursor, last)])
    let after = cursor < last ? String(text[cursor..<last]) : ""
    var line = label + before + "▏" + after
    if let message, line.count + 3 + message.count <= width { line += " — " + message }
    return line
  }

  /// The status line: both ends by name with the moving one marked, the scale and the zoom, and the
  /// keys for help and quitting, as much of it as fits ("▸☻ Skjern, Denmark · ✖ South Pacific Ocean ·
  /// 1,000 km across, zoom ×1 · ? keys · q quit"); the prompt while it is open, or a message.
  private func statusText(_ charset: Charset) -> String {
    if let prompt { return promptText(prompt, width: status.bounds.width) }
    if let message { return message }
    return Self.statusLine(
      ends: MapAnnotation.allCases.map { annotation in
        (annotation.glyph(charset), name(of: annotation), annotation == active)
      },
      regionSpan: tunnel.startMap.regionSpan, charset: charset, width: status.bounds.width)
  }

  /// The name of an end (its coordinates when it has none), looked up again only when it has moved.
  private func name(of annotation: MapAnnotation) -> String {
    let location = tunnel.map(annotation).location
    let name: String?
    if let known = names[annotation], known.location == location {
      name = known.name
    } else {
      name = namer?(location)
      names[annotation] = (location, name)
    }
    return name ?? location.formatted(.decimal(places: 3))
  }

  /// The status line for the ends (their markers, names and whether each is the one moving), the span
  /// shown, in `width` columns: the parts after the names are left out first, then the names shortened.
  public static func statusLine(
    ends: [(glyph: Character, name: String, isActive: Bool)], regionSpan: Double, charset: Charset,
    width: Int
  ) -> String {
    let mark = charset == .ascii ? ">" : "▸"
    let ratio = MapViewController.defaultRegionSpan / regionSpan
    let zoom = ratio >= 1 ? "×\(Int(ratio.rounded()))" : "×1/\(Int((1 / ratio).rounded()))"
    let kilometres = regionSpan / 1000
    let span =
      kilometres < 100 ? "\(Int(kilometres.rounded()))" : PlaceText.grouped(Int(kilometres.rounded()))
    let scale =
      charset == .ascii ? "\(span) km across, zoom x\(zoom.dropFirst())" : "\(span) km across, zoom \(zoom)"
    func end(_ end: (glyph: Character, name: String, isActive: Bool), nameLength: Int) -> String {
      let name =
        end.name.count <= nameLength ? end.name : String(end.name.prefix(max(1, nameLength - 1))) + "…"
      return (end.isActive ? mark : "") + String(end.glyph) + " " + name
    }
    let separator = charset == .ascii ? " - " : " · "
    func fitting(_ parts: [String]) -> String? {
      let line = parts.joined(separator: separator)
      let shown = charset == .ascii ? ASCIIText.converted(line) : line
      return shown.count <= width ? shown : nil
    }
    // The parts after the names go first, the last first; then the names are shortened.
    let longest = ends.map(\.name.count).max() ?? 0
    for tail in [[scale, "? keys", "q quit"], [scale, "? keys"], [scale], []] {
      if let line = fitting(ends.map { end($0, nameLength: longest) } + tail) { return line }
    }
    for nameLength in stride(from: longest - 1, through: 8, by: -1) {
      if let line = fitting(ends.map { end($0, nameLength: nameLength) }) { return line }
    }
    let line = ends.map { end($0, nameLength: 8) }.joined(separator: separator)
    return charset == .ascii ? ASCIIText.converted(line) : line
  }
}
