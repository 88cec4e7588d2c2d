import TunnelGeo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The places labelled at one zoom, in world units, found through a grid of tile-sized cells.
struct TileLabels: Sendable {
  struct Label: Sendable {
    var place: Int32
    var x: Double
    var y: Double
    var width: Double
    /// Where the name is written, to keep clear of the labels placed before it.
    var side: Side

    enum Side: CaseIterable, Sendable {
      case right, left, above, below
    }
  }

  static let fontSize = 11.0
  /// The most labels a tile-sized area gets.
  static let perTile = 14

  let zoom: Int
  let labels: [Label]
  /// Label indices by the cell (tile) their place lies in.
  let cells: [Int: [Int32]]

  init(zoom: Int, data: MapData) {
    self.zoom = zoom
    let worldSize = Double(MapTiles.tileSize << zoom)
    let tilesAcross = 1 << zoom
    let layer = data.places
    let units = Double(layer.unitsPerDegree)
    var labels: [Label] = []
    var cells: [Int: [Int32]] = [:]
    // Boxes taken, chained by the 64-unit grid cells they cover, to test overlaps.
    var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    var heads: [Int: Int32] = [:]
    var links: [(box: Int32, next: Int32)] = []
    var perTile: [Int: Int8] = [:]
    let grid = 64.0
    func isClear(_ box: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
      for row in Int((box.y0 / grid).rounded(.down))...Int((box.y1 / grid).rounded(.down)) {
        for column in Int((box.x0 / grid).rounded(.down))...Int((box.x1 / grid).rounded(.down)) {
          var link = heads[row &* 1_000_003 &+ column] ?? -1
          while link >= 0 {
            let other = boxes[Int(links[Int(link)].box)]
            if other.x0 < box.x1 && box.x0 < other.x1 && other.y0 < box.y1 && box.y0 < other.y1 {
              return false
            }
            link = links[Int(link)].next
          }
        }
      }
      return true
    }
    for place in data.placesByRank {
      let index = Int(place)
      let latitude = Double(layer.latitudeUnits(at: index)) / units
      guard abs(latitude) < MapTiles.maximumLatitude else { continue }
      let longitude = Double(layer.longitudeUnits(at: index)) / units
      let phi = latitude * .pi / 180
      let x = (longitude + 180) / 360 * worldSize
      let y = (0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)) * worldSize
      let tile = min(tilesAcross - 1, Int(y / 256)) * tilesAcross + min(tilesAcross - 1, Int(x / 256))
      guard perTile[tile, default: 0] < Self.perTile else { continue }
      var characters = 0
      layer.withName(at: index) { bytes in
        for byte in bytes where byte & 0xC0 != 0x80 { characters += 1 }
      }
      let width = Double(characters) * Self.fontSize * 0.58
      // Right of the place if that is clear, else left of it, else centred above or below it. The box
      // holds the dot and the text, whose baseline is 4 units below the place (capitals reach 8 above
      // the baseline, descenders 2.5 below, and the halo 1.25 round both).
      var placed: (box: (x0: Double, y0: Double, x1: Double, y1: Double), side: Label.Side)?
      for side in Label.Side.allCases {
        let box =
          switch side {
          case .right: (x0: x - 3, y0: y - 6, x1: x + 6 + width, y1: y + 8)
          case .left: (x0: x - 6 - width, y0: y - 6, x1: x + 3, y1: y + 8)
          case .above: (x0: x - width / 2 - 3, y0: y - 17, x1: x + width / 2 + 3, y1: y + 3)
          case .below: (x0: x - width / 2 - 3, y0: y - 3, x1: x + width / 2 + 3, y1: y + 17)
          }
        if isClear(box) {
          placed = (box, side)
          break
        }
      }
      guard let (box, side) = placed else { continue }
      let columns = Int((box.x0 / grid).rounded(.down))...Int((box.x1 / grid).rounded(.down))
      let rows = Int((box.y0 / grid).rounded(.down))...Int((box.y1 / grid).rounded(.down))
      boxes.append(box)
      for row in rows {
        for column in columns {
          let key = row &* 1_000_003 &+ column
          links.append((Int32(boxes.count - 1), heads[key] ?? -1))
          heads[key] = Int32(links.count - 1)
        }
      }
      perTile[tile, default: 0] += 1
      cells[tile, default: []].append(Int32(labels.count))
      labels.append(Label(place: place, x: x, y: y, width: width, side: side))
    }
    self.labels = labels
    self.cells = cells
  }

  /// The labels whose place lies in the tile or a tile next to it (across the antimeridian too), in the
  /// frame's world units.
  func near(_ frame: TileFrame) -> [Label] {
    let tilesAcross = 1 << zoom
    let tileX = Int(frame.originX) / MapTiles.tileSize
    let tileY = Int(frame.originY) / MapTiles.tileSize
    var result: [Label] = []
    for row in (tileY - 1)...(tileY + 1) where (0..<tilesAcross).contains(row) {
      for column in (tileX - 1)...(tileX + 1) {
        let wrapped = (column + tilesAcross) % tilesAcross
        let shift = Double(column - wrapped) * Double(MapTiles.tileSize)
        for index in cells[row * tilesAcross + wrapped, default: []] {
          var label = labels[Int(index)]
          label.x += shift
          result.append(label)
        }
        if tilesAcross == 1 { break }
      }
    }
    return result
  }
}
