import Foundation
import HTTPTypes
import TunnelGeo
import TunnelMaps

/// The Tunnel in a browser: its page and scripts (built into the binary), Leaflet (from Debian's
/// `libjs-leaflet`), and the map tiles and pictures drawn from the place data.
///
/// Every page answer carries a Content-Security-Policy that lets the page load nothing from any host but
/// this server.
public struct WebApp: Sendable {
  /// The folder Leaflet's files are read from: where Debian's `libjs-leaflet` puts them.
  public var leafletDirectory: String
  /// When set, the page's files are read from this folder on every request instead of from the binary
  /// (`TUNNEL_WEB`, for working on the page without rebuilding).
  public var pageDirectory: String?

  public init(
    leafletDirectory: String = "/usr/share/javascript/leaflet",
    pageDirectory: String? = ProcessInfo.processInfo.environment["TUNNEL_WEB"].flatMap {
      $0.isEmpty ? nil : $0
    }
  ) {
    self.leafletDirectory = leafletDirectory
    self.pageDirectory = pageDirectory
  }

  /// The policy sent with every page file: nothing from another host, no inline script or style (`blob:`
  /// images are the page's own, the picture it saves drawn onto a canvas).
  public static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

  /// The page's files, as built into the binary.
  static let pageFiles: [String: [UInt8]] = [
    "index.html": PackageResources.index_html,
    "tunnel.js": PackageResources.tunnel_js,
    "tunnel.css": PackageResources.tunnel_css,
    "icon.svg": PackageResources.icon_svg,
    "digger.svg": PackageResources.digger_svg,
    "target.svg": PackageResources.target_svg,
    "radar.svg": PackageResources.radar_svg,
  ]

  /// The names of the page's files.
  public static var pageFileNames: [String] { pageFiles.keys.sorted() }

  /// `GET /` and `GET /app/<name>`: one of the page's files, or a 404.
  func pageFile(_ name: String) throws(AnswerError) -> Reply {
    guard Self.isPlainName(name), let type = Self.contentType(of: name) else {
      throw .notFound(
        "no file '\(name)' in the page; its files are \(Self.pageFileNames.joined(separator: ", "))")
    }
    let body: [UInt8]?
    if let directory = pageDirectory {
      body = Self.contents(of: name, inside: directory)
    } else {
      body = Self.pageFiles[name]
    }
    guard let body else {
      throw .notFound(
        "no file '\(name)' in the page; its files are \(Self.pageFileNames.joined(separator: ", "))")
    }
    return Reply(
      contentType: type, body: body,
      fields: [
        .contentSecurityPolicy: Self.contentSecurityPolicy, .xContentTypeOptions: "nosniff",
        .cacheControl: "no-cache",
      ])
  }

  /// The file `name` in `directory`, or nil when there is none, or when it is a link that leads out of the
  /// folder: a link inside the page's folder may point at another file in it, but never make the server read
  /// a file elsewhere. The path is resolved once (every link in it, the folder's own included) and the
  /// file it resolves to is opened without following a link, so that a link put there after the check is
  /// not followed either.
  static func contents(of name: String, inside directory: String) -> [UInt8]? {
    guard let folder = realpath(directory, nil) else { return nil }
    defer { free(folder) }
    guard let file = realpath(directory + "/" + name, nil) else { return nil }
    defer { free(file) }
    let folderPath = String(cString: folder)
    let filePath = String(cString: file)
    guard filePath.hasPrefix(folderPath == "/" ? "/" : folderPath + "/") else { return nil }
    let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    do {
      return Array(try handle.readToEnd() ?? Data())
    } catch {
      return nil
    }
  }

  /// `GET /leaflet/<path>`: a file of Debian's Leaflet, or a 404 that says which package to install.
  func leafletFile(_ path: String) throws(AnswerError) -> Reply {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !parts.isEmpty, parts.count <= 2, parts.allSatisfy({ Self.isPlainName(String($0)) }),
      let type = Self.contentType(of: path)
    else {
      throw .notFound("no Leaflet file '\(path)'")
    }
    guard let data = FileManager.default.contents(atPath: leafletDirectory + "/" + path) else {
      throw .notFound(
        "Leaflet's '\(path)' is not in \(leafletDirectory): install Debian's libjs-leaflet (Scripts/setup does)"
      )
    }
    return Reply(
      contentType: type, body: Array(data),
      fields: [.xContentTypeOptions: "nosniff", .cacheControl: "public, max-age=86400"])
  }

  /// A file name of letters, digits, '.', '-' and '_', not starting with a dot.
  static func isPlainName(_ name: String) -> Bool {
    guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 100 else {
      return false
    }
    return name.utf8.allSatisfy {
      (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E
        || $0 == 0x2D || $0 == 0x5F
    }
  }

  static func contentType(of name: String) -> String? {
    switch name.split(separator: ".").last {
    case "html": "text/html; charset=utf-8"
    case "js": "text/javascript; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "map", "json": "application/json"
    default: nil
    }
  }
}

extension TunnelService {
  /// `GET /tiles/{z}/{x}/{y}.svg`: a map tile, with an ETag from its bytes; `antipodal`, the overlay's
  /// tile at `/tiles/antipodal/{z}/{x}/{y}.svg` (the other side's land turned onto this one).
  func tile(
    zoom: String, x: String, file: String, antipodal: Bool = false
  ) throws(AnswerError) -> (body: [UInt8], tag: String) {
    let path = antipodal ? "/tiles/antipodal" : "/tiles"
    guard file.hasSuffix(".svg"), let z = Int(zoom), let x = Int(x), let y = Int(file.dropLast(4)),
      MapTiles.isTile(zoom: z, x: x, y: y)
    else {
      throw .notFound(
        "no tile '\(zoom)/\(x)/\(file)': tiles are \(path)/{z}/{x}/{y}.svg with z from 0 to \(MapTiles.maximumZoom) "
          + "and x, y from 0 to 2^z − 1")
    }
    let tiles: MapTiles
    do {
      tiles = try self.tiles
    } catch {
      throw .data(error)
    }
    tiles.prepareLabelsInBackground()
    let key = (antipodal ? 1 << 60 : 0) | (z << 48) | (x << 24) | y
    let drawn: (body: [UInt8], tag: String)
    if let kept = tileCache.withLockedValue({ $0[key] }) {
      drawn = kept
    } else {
      let body = antipodal ? tiles.antipodalSvg(zoom: z, x: x, y: y) : tiles.svg(zoom: z, x: x, y: y)
      drawn = (body, Self.entityTag(body))
      // Every visitor starts at the lowest zooms: their 341 tiles (about 12 MB, and the overlay's fewer bytes) are
      // kept once drawn.
      if z <= Self.keptZoom { tileCache.withLockedValue { $0[key] = drawn } }
    }
    return drawn
  }

  /// Tiles up to this zoom are kept once drawn.
  static let keptZoom = 4

  /// `GET /v1/map.svg`: both ends on Tunnel's own azimuthal maps, as `tunnel map --svg` draws them (they
  /// reach the poles, which Web Mercator tiles do not); with `end`, that end's map alone, `height` high.
  func mapPicture(_ query: QueryParameters) throws -> String {
    let location = try location(query)
    let start = location.coordinate
    let placemarks = (try placemark(start), try placemark(start.antipode))
    let width = try Self.size(query, "width", default: 720, range: 200...2000)
    let height = try Self.size(query, "height", default: 300, range: 100...2000)
    let span = try Self.size(query, "span", default: 1000, range: 10...20_000)
    let end = try query["end"].map { name throws(AnswerError) in
      guard let end = MapAnnotation(rawValue: name) else {
        throw AnswerError.badRequest("'end' must be 'digger' or 'target', not \(EchoedText.quoted(name))")
      }
      return end
    }
    let renderer = try MapRenderer(data: try tiles.data)
    let picture = SVGMap(
      renderer: renderer, start: start, regionSpan: Double(span) * 1000, placemarks: placemarks, width: width,
      mapHeight: height)
    return try end.map { end throws in try picture.document(of: end) } ?? picture.document()
  }

  static func size(
    _ query: QueryParameters, _ name: String, default value: Int, range: ClosedRange<Int>
  ) throws(AnswerError) -> Int {
    guard let text = query[name] else { return value }
    guard let size = Int(text), range.contains(size) else {
      throw AnswerError.badRequest(
        "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not "
          + EchoedText.quoted(text))
    }
    return size
  }

  /// A strong entity tag: 64 bits of FNV-1a over the body.
  static func entityTag(_ body: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
  }
}
