import ContainmentExamples
import Testing
import TunnelContainment

@MainActor
@Suite("Segmented master container")
struct SegmentedMasterTests {
  func shown(usesContainment: Bool) -> (Window, MasterViewController, Console) {
    let console = Console()
    let master = MasterViewController(console: console, usesContainment: usesContainment)
    let window = Window(size: Size(width: 60, height: 12))
    window.rootViewController = master
    window.makeKeyAndVisible()
    return (window, master, console)
  }

  @Test("It prints Summary Will Appear, then on switching Summary Will Disappear / Sessions Will Appear")
  func messages() {
    let (window, master, console) = shown(usesContainment: true)
    defer { withExtendedLifetime(window) {} }
    #expect(console.lines == ["Summary View Controller Will Appear"])
    master.select(1)
    #expect(
      console.lines == [
        "Summary View Controller Will Appear",
        "Summary View Controller Will Disappear",
        "Sessions View Controller Will Appear",
      ])
  }

  @Test("Children are created on first selection and kept, with their state")
  func lazyAndKept() {
    let (window, master, _) = shown(usesContainment: true)
    defer { withExtendedLifetime(window) {} }
    #expect(master.summaryViewController != nil)
    #expect(master.sessionsViewController == nil)
    master.select(1)
    let sessions = master.sessionsViewController
    master.handle(.down)
    master.handle(.down)
    master.select(0)
    #expect(master.children.map(\.description) == ["Summary"])
    master.select(1)
    #expect(master.sessionsViewController === sessions)
    #expect(sessions?.selectedRow == 2)
    #expect(sessions?.appearanceState == .appeared)
  }

  @Test("Without the containment calls the appearance messages do not arrive")
  func withoutContainment() {
    let (window, master, console) = shown(usesContainment: false)
    master.select(1)
    master.select(0)
    #expect(console.lines.isEmpty)
    #expect(master.children.isEmpty)
    #expect(master.summaryViewController?.appearanceState == .disappeared)
    // The screen looks the same all the same.
    #expect(window.render().plainText().contains("12 sessions"))
  }
}
