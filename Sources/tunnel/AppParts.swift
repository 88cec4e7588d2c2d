import Foundation
import TunnelApp
import TunnelContainment
import TunnelGeo

#if canImport(Glibc)
import Glibc
#endif

/// What the map commands build the Tunnel from: the map data, a renderer and a geocoder.
@MainActor
struct AppParts {
  let mapData: MapData
  let renderer: MapRenderer
  let reverseGeocoder: ReverseGeocoder
  let geocoder: GeoInfoViewController.Geocoder

  init(data: PlaceData) throws {
    do {
      mapData = try MapData(data: data)
      renderer = try MapRenderer(data: mapData)
    } catch let error as PlaceDataError {
      throw CommandFailure(error)
    }
    reverseGeocoder = ReverseGeocoder(data: data)
    geocoder = GeoInfoViewController.geocoder(using: reverseGeocoder)
  }
}

/// What standard output is: a terminal or not, its width, and what it can show.
struct TerminalOutput {
  var colors: Bool
  var charset: Charset
  /// The terminal's width in columns, nil when standard output is not a terminal.
  var columns: Int?

  /// Colours only on a terminal without NO_COLOR or TERM=dumb; ASCII when asked, for TERM=dumb,
  /// or when the locale is not UTF-8.
  init(asciiRequested: Bool) {
    let environment = ProcessInfo.processInfo.environment
    let isTerminal = isatty(1) == 1
    let capabilities = TerminalCapabilities(environment: environment, isTerminal: isTerminal)
    colors = capabilities.colors
    charset = asciiRequested || environment["TERM"] == "dumb" ? .ascii : capabilities.charset
    var size = winsize()
    columns = isTerminal && ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
  }
}
