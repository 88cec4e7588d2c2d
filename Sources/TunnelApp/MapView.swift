import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A map in character cells: land as Braille dots, the sea shaded, borders as gaps in the land,
/// the names of the largest places in view and the annotation at the centre.
///
/// The view draws whatever its ``MapViewController`` last asked for; it keeps the picture of the
/// last viewport it drew, so a frame with nothing changed costs a comparison.
@MainActor
public final class MapView: View {
  /// The map's centre.
  var centre: Coordinate?
  /// Metres across the shorter side of the view.
  var regionSpan = 1_000_000.0
  /// The marker drawn at the centre.
  var annotation: MapAnnotation = .digger
  /// Draws pictures; nil draws an empty sea.
  var renderer: MapRenderer?

  private var cached: MapPicture?

  /// The viewport the view shows at its current size: one pixel per Braille dot, the centre in
  /// the middle of the middle cell.
  var viewport: MapViewport? {
    guard let centre, !bounds.isEmpty else { return nil }
    return MapViewport(
      centre: centre, regionSpan: regionSpan, width: bounds.width * 2, height: bounds.height * 4,
      centreX: Double(bounds.width / 2 * 2 + 1), centreY: Double(bounds.height / 2 * 4 + 2))
  }

  /// The cell the centre (and the marker) is drawn in.
  var centreCell: Point { Point(x: bounds.width / 2, y: bounds.height / 2) }

  /// The picture for the current state, drawn now if the last one is out of date.
  func picture() -> MapPicture? {
    guard let viewport, let renderer else { return nil }
    if let cached, cached.viewport == viewport { return cached }
    cached = try? renderer.picture(of: viewport)
    return cached
  }

  /// Colours of the map.
  enum Palette {
    static let sea = Style(foreground: .palette(79), background: .palette(24))
    static let land = Style(foreground: .palette(149), background: .palette(28))
    static let coast = Style(foreground: .palette(149), background: .palette(24))
    static let label = Style(foreground: .brightWhite, bold: true)
    static let seaName = Style(foreground: .palette(153), background: .palette(24))
  }

  override public func draw(in canvas: inout Canvas) {
    let charset = window?.charset ?? .unicode
    guard let picture = picture() else {
      canvas.fill(bounds, style: Palette.sea)
      return
    }
    drawSurface(picture, in: &canvas)
    var taken = [Rect(x: centreCell.x - 1, y: centreCell.y, width: 3, height: 1)]
    drawLabels(picture, charset: charset, taken: &taken, in: &canvas)
    drawSeaName(picture, charset: charset, taken: &taken, in: &canvas)
    drawNearestOutside(picture, charset: charset, in: &canvas)
    let marker = Style(
      foreground: annotation.color, background: style(at: centreCell, in: canvas), bold: true)
    canvas.put(annotation.glyph(charset), at: centreCell, style: marker)
  }

  /// The background of the cell at a view point (where a label or marker keeps the map's colour).
  private func style(at point: Point, in canvas: Canvas) -> Color? {
    canvas[canvas.origin.x + point.x, canvas.origin.y + point.y].style.background
  }

  /// Land dots (less the inland borders) and the colour of each cell.
  private func drawSurface(_ picture: MapPicture, in canvas: inout Canvas) {
    let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
    for row in 0..<bounds.height {
      for column in 0..<bounds.width {
        var dots: UInt8 = 0
        var land = 0
        for dy in 0..<4 {
          for dx in 0..<2 {
            let x = column * 2 + dx
            let y = row * 4 + dy
            guard picture.land[x, y] else { continue }
            land += 1
            if !picture.borders[x, y] { dots |= bits[dy][dx] }
          }
        }
        let style = land == 8 ? Palette.land : land == 0 ? Palette.sea : Palette.coast
        canvas.put(Cell(" ", dots: dots, style: style), at: Point(x: column, y: row))
      }
    }
  }

  /// The name of the sea at the centre, centred two rows below the marker (or above it) where that
  /// row is open water and no label is.
  private func drawSeaName(
    _ picture: MapPicture, charset: Charset, taken: inout [Rect], in canvas: inout Canvas
  ) {
    guard let seaName = picture.seaName else { return }
    let name = charset == .ascii ? ASCIIText.converted(seaName) : seaName
    guard name.count <= bounds.width - 2 else { return }
    let x = centreCell.x - name.count / 2
    for y in [centreCell.y + 2, centreCell.y - 2] where y >= 0 && y < bounds.height {
      let rect = Rect(x: x, y: y, width: name.count, height: 1)
      let isOpenWater = (rect.minX..<rect.maxX).allSatisfy { column in
        (0..<4).allSatisfy { dy in (0..<2).allSatisfy { dx in !picture.land[column * 2 + dx, y * 4 + dy] } }
      }
      guard isOpenWater, !taken.contains(where: { !$0.intersection(rect).isEmpty }) else { continue }
      for (offset, character) in name.enumerated() {
        canvas.put(character, at: Point(x: x + offset, y: y), style: Palette.seaName)
      }
      taken.append(rect)
      return
    }
  }

  /// With no place in view, the nearest one at the edge towards it: "↗ Skjern 12 km".
  private func drawNearestOutside(_ picture: MapPicture, charset: Charset, in canvas: inout Canvas) {
    guard let nearest = picture.nearestOutside, bounds.width >= 12, bounds.height >= 3 else { return }
    let octant = Int(((nearest.bearing + 22.5) / 45).rounded(.down)) % 8
    let arrow =
      charset == .ascii
      ? ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][octant]
      : ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"][octant]
    let name = charset == .ascii ? nearest.asciiName : nearest.name
    let distance = PlacemarkText.kilometres(nearest.distanceKm)
    var text = "\(arrow) \(name) \(distance)"
    if text.count > bounds.width - 2 { text = "\(arrow) \(distance)" }
    // From the centre towards the place, to a cell or two inside the edge (a cell is half as wide as high).
    let radians = nearest.bearing * .pi / 180
    let dx = sin(radians) * 2
    let dy = -cos(radians)
    let reach = min(
      abs(dx) > 1e-9 ? (Double(bounds.width) / 2 - 1) / abs(dx) : .infinity,
      abs(dy) > 1e-9 ? (Double(bounds.height) / 2 - 1) / abs(dy) : .infinity)
    let target = Point(
      x: centreCell.x + Int((dx * reach).rounded()), y: centreCell.y + Int((dy * reach).rounded()))
    let start = dx >= 0 ? target.x - text.count + 1 : target.x
    let x = min(max(0, start), bounds.width - text.count)
    let y = min(max(0, target.y), bounds.height - 1)
    for (offset, character) in text.enumerated() {
      let point = Point(x: x + offset, y: y)
      var style = Palette.label
      style.background = self.style(at: point, in: canvas)
      canvas.put(character, at: point, style: style)
    }
  }

  /// Names of the largest places in view, each beside a dot at its place, none over another.
  private func drawLabels(
    _ picture: MapPicture, charset: Charset, taken: inout [Rect], in canvas: inout Canvas
  ) {
    let limit = min(16, max(2, bounds.width * bounds.height / 150))
    var placed = 0
    for place in picture.places where placed < limit {
      let cell = Point(x: Int(place.point.x) / 2, y: Int(place.point.y) / 4)
      let name = charset == .ascii ? place.asciiName : place.name
      guard !name.isEmpty else { continue }
      let dot: Character = charset == .ascii ? "*" : "•"
      let length = name.count + 1
      let right = Rect(x: cell.x, y: cell.y, width: length, height: 1)
      let left = Rect(x: cell.x - length + 1, y: cell.y, width: length, height: 1)
      let occupied = taken
      let fits = { (rect: Rect) in
        rect.minX >= 0 && rect.maxX <= self.bounds.width
          && !occupied.contains { !$0.insetBy(dx: -1, dy: 0).intersection(rect).isEmpty }
      }
      guard let rect = fits(right) ? right : fits(left) ? left : nil else { continue }
      let text = rect == right ? String(dot) + name : name + String(dot)
      for (offset, character) in text.enumerated() {
        let point = Point(x: rect.minX + offset, y: rect.minY)
        var style = Palette.label
        style.background = self.style(at: point, in: canvas)
        canvas.put(character, at: point, style: style)
      }
      taken.append(rect)
      placed += 1
    }
  }
}
