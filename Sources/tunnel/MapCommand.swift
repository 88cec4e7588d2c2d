import ArgumentParser
import TunnelApp
import TunnelCommandLine
import TunnelContainment
import TunnelGeo
import TunnelMaps
import TunnelReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Tunnel {
  /// `tunnel map <place>`: both maps printed once, or the flipped side, or an SVG picture.
  struct MapCommand: AsyncParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
      commandName: "map",
      abstract: "Print both ends of the tunnel on two maps: where you dig above, where you come out below.",
      discussion: """
        The maps are the ones 'tunnel play' shows, drawn once: land in Braille dots, the sea shaded, \
        borders, the largest places in view and a marker at each end (☻ where you dig, ✖ where you \
        come out). Each map shows 1,000 km across its shorter side; --zoom 2 shows 500 km, --zoom 0.5 \
        2,000 km. '--view geocode' prints the other side of the maps, as the radar shows it: each end \
        in words. '--svg FILE' also writes both maps as an SVG picture with a caption naming both ends; \
        '--svg -' writes the picture alone to standard output. '--overlay FILE' writes the whole world \
        as an SVG picture with the land of the other side of the Earth turned through it onto this one: \
        where the colours overlap, a tunnel runs from land to land; the pairs 'tunnel pairs' lists are \
        labelled, and the tunnel's ends marked. A file is written as a shell's '>' writes it: through \
        links, into FIFOs and devices, emptied first.

        Colours are used on a terminal that shows them unless NO_COLOR is set (and not empty); --ascii \
        (or TERM=dumb) draws with plain ASCII characters.

        Examples:
          tunnel map
          tunnel map Skjern
          tunnel map 90 0 --zoom 0.25
          tunnel map Wellington --view geocode
          tunnel map "Hamilton, NZ" --svg tunnel.svg
          tunnel map Madrid --overlay antipodes.svg
        """
    )

    enum Side: String, ExpressibleByArgument, CaseIterable {
      case map, geocode
    }

    @Argument(
      help: ArgumentHelp(
        "Where to dig from (default: 56.55 N 8.316667 E, western Denmark).", valueName: "place"))
    var words: [String] = []
    @Option(help: "Which side to print: 'map' (the maps) or 'geocode' (the flipped side, in words).")
    var view: Side = .map
    @Option(
      help: ArgumentHelp(
        "Write both maps as an SVG picture to this file ('-': standard output).", valueName: "file"),
      completion: .file(extensions: ["svg"]))
    var svg: String?
    @Option(
      help: ArgumentHelp(
        "Write the world with the other side's land turned onto it, as an SVG picture, to this file ('-': standard output).",
        valueName: "file"),
      completion: .file(extensions: ["svg"]))
    var overlay: String?
    @Option(help: "Columns of the picture (default: the terminal's width, or 100).")
    var width: Int?
    @Option(help: "Rows of the picture: both maps and the gap between them.")
    var height: Int = 40
    @Option(help: "Magnification: 1 shows 1,000 km across each map, 2 shows 500 km.")
    var zoom: Double = 1
    @Flag(help: "Draw with plain ASCII characters (the default when TERM is 'dumb').")
    var ascii = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var data: DataOptions

    mutating func validate() {
      words = CommandLineWords.expanded(words)
    }

    func check() throws {
      try output.check()
      if svg == "-", overlay == "-" {
        throw ValidationError("--svg - and --overlay - would both write to standard output: give one a file")
      }
      if let width, !(20...1000).contains(width) {
        throw ValidationError("--width must be between 20 and 1000")
      }
      guard (10...500).contains(height) else { throw ValidationError("--height must be between 10 and 500") }
      guard zoom.isFinite, zoom >= 0.05, zoom <= 100 else {
        throw ValidationError("--zoom must be between 0.05 (20,000 km across) and 100 (10 km across)")
      }
    }

    func run() async throws {
      let placeData = try data.placeData()
      let location =
        words.isEmpty
        ? LocationQuery(coordinate: TunnelViewController.defaultStart)
        : try LocationArguments.resolve(words.joined(separator: " "), data: placeData)
      let start = location.coordinate
      // The maps in words, for programs: what 'tunnel antipode' prints in the same format.
      let inWords = output.format == .text ? nil : output
      // Opened before anything is drawn, so that a path that cannot be written is said first.
      let picture = try svg.map { path throws(OutputError) in try OutputFile.open(path, for: "the SVG") }
      let world = try overlay.map { path throws(OutputError) in try OutputFile.open(path, for: "the overlay")
      }
      let terminal = TerminalOutput(asciiRequested: ascii)
      // A terminal narrower than the narrowest picture gets the narrowest picture.
      let size = Size(width: width ?? max(20, terminal.columns ?? 100), height: height)
      let (text, document) = try await Self.draw(
        from: start, data: placeData, size: size, zoom: zoom, flipped: view == .geocode,
        output: terminal, svg: picture != nil)
      do {
        try placeData.checkIntact()
      } catch {
        throw CommandFailure(error)
      }
      let overlayDocument = try world.map { _ in try Self.overlay(start: start, data: placeData) }
      // `--svg -` (or `--overlay -`) puts the SVG on standard output, alone.
      let pictureOnly = picture?.isStandardOutput == true || world?.isStandardOutput == true
      if let inWords, !pictureOnly {
        let precision = try inWords.precision
        var rows: [OutputRow] = []
        try Antipode.write(
          try Antipode.report(location, placeData: placeData), format: inWords.format, precision: precision,
          rows: &rows)
        try OutputOptions.printRows(rows, format: inWords.format, precision: precision)
      } else if !pictureOnly {
        try OutputFile.print(text + "\n")
      }
      if let picture, let document {
        try picture.write(document)
        try picture.close()
      }
      if let world, let overlayDocument {
        try world.write(overlayDocument)
        try world.close()
      }
    }

    /// The pairs the overlay labels: places of at least 100,000 people within 100 km of each other's antipode.
    static let overlayPairs = (withinKm: 100.0, minimumPopulation: 100_000)

    /// The world with the other side's land turned onto it, the pairs labelled and the tunnel's ends marked.
    static func overlay(start: Coordinate, data: PlaceData) throws -> String {
      do {
        let pairs = try ReverseGeocoder(data: data, cache: CacheLocation.cache()).antipodalPairs(
          withinKm: overlayPairs.withinKm, minimumPopulation: overlayPairs.minimumPopulation)
        return AntipodalWorld(data: try MapData(data: data), pairs: pairs, tunnel: start).document()
      } catch {
        throw CommandFailure(error)
      }
    }

    /// The Tunnel in a window of `size`, drawn once: as text, and as SVG when asked.
    @MainActor
    static func draw(
      from start: Coordinate, data: PlaceData, size: Size, zoom: Double, flipped: Bool,
      output: TerminalOutput,
      svg: Bool
    ) async throws -> (String, String?) {
      let session = try AppParts(data: data)
      let window = Window(size: size)
      window.charset = output.charset
      let tunnel = TunnelViewController(start: start, renderer: session.renderer, geocoder: session.geocoder)
      for map in [tunnel.startMap, tunnel.targetMap] {
        map.regionSpan = MapViewController.defaultRegionSpan / zoom
      }
      // Both ends in words, asked first so that damaged data fails the command (exit 66) instead of
      // showing its message inside the picture.
      let ends: [Placemark]
      do {
        ends = try [start, start.antipode].map { coordinate throws(PlaceDataError) in
          try session.reverseGeocoder.placemark(for: coordinate)
        }
      } catch {
        throw CommandFailure(error)
      }
      window.rootViewController = tunnel
      // A printed picture has no radar to press: its line is left out, and the captions below say in words
      // where each end is.
      tunnel.radarButton.isHidden = true
      window.makeKeyAndVisible()
      if flipped {
        tunnel.radar()
        window.clock.runUntilIdle()
        await tunnel.startInfo.geocoding?.value
        await tunnel.targetInfo.geocoding?.value
      }
      let frame = window.render()
      let picture =
        output.colors
        ? frame.ansiText(colors: true, charset: output.charset) : frame.plainText(charset: output.charset)
      // The maps get the ends in words under them; the geocode side is already in words.
      let captions = MapCaptions.text(start: start, ends: (ends[0], ends[1]), charset: output.charset)
      let text = flipped ? picture : picture + "\n" + captions
      guard svg else { return (text, nil) }
      do {
        let document = try SVGMap(
          renderer: session.renderer, start: start, regionSpan: MapViewController.defaultRegionSpan / zoom,
          placemarks: (ends[0], ends[1])
        ).document()
        return (text, document)
      } catch {
        throw CommandFailure(error)
      }
    }
  }
}
