import ArgumentParser
import TunnelApp
import TunnelCommandLine
import TunnelContainment
import TunnelGeo
import TunnelMaps

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
import TunnelReports
#endif

extension Tunnel {
  /// `tunnel play [place]`: the Tunnel app, full-screen in the terminal.
  struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "play",
      abstract:
        "Play with the tunnel: two maps at opposite ends of the Earth, and a radar that names both ends.",
      discussion: """
        The top map shows where you dig (☻), the bottom one where you come out (✖). Move either \
        marker and the other follows to the antipode. Press r for the radar: both maps flip over and \
        say in words where each end is; r again flips them back. It starts in western Denmark, as the \
        original app does, unless you name a place.

        Keys: arrows or h/j/k/l move the marker (H/J/K/L further), Tab switches marker, + and - zoom, \
        r is the radar, g or / jumps to a place or coordinate, a click moves the marker there, ? shows \
        the keys, q or Esc quits (so do Ctrl-C and Ctrl-D, with exit status 0), and Ctrl-Z suspends it \
        until 'fg'.

        It needs a terminal; to print the maps once, or for scripts, use 'tunnel map'.

        Examples:
          tunnel play
          tunnel play Wellington
          tunnel play -33.9 18.4 --trace-lifecycle lifecycle.log
        """
    )

    @Argument(
      help: ArgumentHelp(
        "Where to start digging (default: 56.55 N 8.316667 E, western Denmark).", valueName: "place"))
    var words: [String] = []
    @Flag(help: "Draw with plain ASCII characters (the default when TERM is 'dumb').")
    var ascii = false
    @Option(
      help: ArgumentHelp(
        "Write every containment callback (addChild, appearance, transitions) to this file, with times.",
        valueName: "file"),
      completion: .file())
    var traceLifecycle: String?
    @OptionGroup var data: DataOptions

    mutating func validate() {
      words = CommandLineWords.expanded(words)
    }

    func run() async throws {
      guard isatty(0) == 1, isatty(1) == 1 else {
        throw CommandFailure(
          message: "'tunnel play' needs a terminal; to print the maps once, use 'tunnel map'", status: .usage)
      }
      let placeData = try data.placeData()
      var start = TunnelViewController.defaultStart
      if !words.isEmpty {
        start = try LocationArguments.resolve(words.joined(separator: " "), data: placeData).coordinate
      }
      // Opened as a shell's '>' opens it, before the terminal is taken over.
      let trace = try traceLifecycle.map { path throws(OutputError) in
        try OutputFile.open(path, for: "the lifecycle log")
      }
      if trace?.isStandardOutput == true {
        throw CommandFailure(
          message: "the lifecycle log cannot go to standard output, which shows the maps; give a file",
          status: .usage)
      }
      let gazetteer: Gazetteer
      do {
        gazetteer = try Gazetteer(data: placeData)
      } catch {
        throw CommandFailure(error)
      }
      try await Self.play(from: start, data: placeData, gazetteer: gazetteer, ascii: ascii, trace: trace)
    }

    @MainActor
    static func play(
      from start: Coordinate, data: PlaceData, gazetteer: Gazetteer, ascii: Bool, trace: OutputFile?
    ) async throws {
      let parts = try AppParts(data: data)
      let output = TerminalOutput(asciiRequested: ascii)
      let window = Window(size: Size(width: output.columns ?? 80, height: output.rows ?? 24))
      let app = TerminalApplication(window: window)
      app.capabilities = TerminalCapabilities(colors: output.colors, charset: output.charset)
      app.reportsMouse = true
      app.quitKeys = [.interrupt]
      var log: LifecycleLog?
      // A failed write (a full disk) stops the log, never the game; it is reported once the terminal is back.
      var traceFailure: OutputError?
      func record(_ line: String) {
        guard let trace, traceFailure == nil else { return }
        do {
          try trace.write(line + "\n")
        } catch {
          traceFailure = error
        }
      }
      if trace != nil {
        let recording = LifecycleLog(clock: window.clock)
        recording.onEvent = { event in record(event.timedDescription) }
        recording.start()
        log = recording
      }
      Diagnostics.handler = { diagnostic in record("! \(diagnostic.message)") }
      let tunnel = TunnelViewController(start: start, renderer: parts.renderer, geocoder: parts.geocoder)
      let reverseGeocoder = parts.reverseGeocoder
      let play = TunnelPlay(window: window, tunnel: tunnel, gazetteer: gazetteer) { location in
        (try? reverseGeocoder.placemark(for: location, fields: PlacemarkText.shortNameFields))
          .flatMap(PlacemarkText.shortName)
      }
      window.makeKeyAndVisible()
      app.onKey = { key in
        if !play.handle(key) { app.quit() }
      }
      await app.run()
      log?.stop()
      do {
        try trace?.close()
      } catch {
        traceFailure = traceFailure ?? error
      }
      // Ended by a signal: the terminal is restored; exit as the signal would have.
      if let signal = app.stoppedBySignal { Glibc.exit(ExitStatus.signal(signal).code) }
      if let traceFailure { throw traceFailure }
    }
  }
}
