import TunnelContainment

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an example container in the terminal, with a console panel under it.
///
/// Interactive: the panel shows the console's last lines. With keys piped in: every console
/// line is also printed to standard output as it happens, then the last frame.
@MainActor
public enum ExampleRunner {
  /// Rows of the console panel.
  static let panelHeight = 7

  /// Shows `root` in a window with a console panel, and runs until q or the end of input; ended by a
  /// signal, exits with 128 + its number.
  public static func run(
    _ root: ViewController, console: Console, heading: String, handle: @escaping @MainActor (Key) -> Void
  ) async {
    let window = Window(size: Size(width: 72, height: 24))
    let app = TerminalApplication(window: window)
    if !app.isInteractive {
      console.sink = { line in
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
      }
    }
    window.rootViewController = root
    window.makeKeyAndVisible()
    layOut(root: root, panel: attachPanel(to: window, console: console, heading: heading), in: window)
    app.onKey = handle
    await app.run()
    // Ended by a signal: the terminal is restored; exit as the signal would have.
    if let signal = app.stoppedBySignal { exit(128 + signal) }
  }

  /// A window subview that shows the console at the bottom.
  static func attachPanel(to window: Window, console: Console, heading: String) -> ConsoleView {
    let panel = ConsoleView(console: console, heading: heading)
    window.addSubview(panel)
    return panel
  }

  /// Gives the root view all rows but the panel's, and follows window resizes.
  static func layOut(root: ViewController, panel: ConsoleView, in window: Window) {
    let height = window.bounds.height
    let panelRows = min(panelHeight, max(0, height - 4))
    root.view.frame = Rect(x: 0, y: 0, width: window.bounds.width, height: height - panelRows)
    root.view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    panel.frame = Rect(x: 0, y: height - panelRows, width: window.bounds.width, height: panelRows)
    panel.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
  }

  /// A console that receives the lifecycle log of every controller, line by line.
  public static func lifecycleConsole(clock: AnimationClock? = nil) -> (Console, LifecycleLog) {
    let console = Console()
    let log = LifecycleLog(clock: clock)
    log.onEvent = { event in console.print(event.description) }
    log.start()
    return (console, log)
  }
}
