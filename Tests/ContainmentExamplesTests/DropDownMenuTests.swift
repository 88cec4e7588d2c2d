import ContainmentExamples
import Testing
import TunnelContainment

@MainActor
@Suite("Drop-down menu container")
struct DropDownMenuTests {
  func shown() -> (Window, MenuViewController) {
    let menu = MenuViewController.withThreeColors()
    let window = Window(size: Size(width: 60, height: 16))
    window.rootViewController = menu
    window.makeKeyAndVisible()
    return (window, menu)
  }

  @Test("Reading viewControllers returns a copy")
  func readingReturnsCopy() {
    let menu = MenuViewController.withThreeColors()
    var copy = menu.viewControllers
    copy.removeAll()
    #expect(menu.viewControllers.count == 3)
  }

  @Test("Setting an array without the active controller makes the first one active")
  func settingWithoutActive() {
    let (window, menu) = shown()
    let four = ColorViewController(title: "Four", color: .cyan)
    let five = ColorViewController(title: "Five", color: .white)
    let log = LifecycleLog.recording { menu.viewControllers = [four, five] }
    #expect(menu.activeViewController === four)
    #expect(menu.children.map(\.description) == ["Four"])
    #expect(
      log.lines == [
        "One: willMove(toParent: nil)",
        "One: viewWillDisappear(animated: false)",
        "One: viewDidDisappear(animated: false)",
        "One: didMove(toParent: nil)",
        "Four: willMove(toParent: Menu)",
        "Four: loadView()",
        "Four: viewDidLoad()",
        "Four: viewWillAppear(animated: false)",
        "Four: viewIsAppearing(animated: false)",
        "Four: viewDidAppear(animated: false)",
        "Four: didMove(toParent: Menu)",
      ])
    let keep = LifecycleLog.recording { menu.viewControllers = [five, four] }
    #expect(keep.events.isEmpty && menu.activeViewController === four)
    _ = window
  }

  @Test("The bar shows the active controller's title")
  func barShowsTitle() {
    let (window, menu) = shown()
    #expect(window.render().rows()[0].contains("One"))
    menu.select(2)
    window.clock.runUntilIdle()
    #expect(window.render().rows()[0].contains("Three"))
  }

  @Test("The menu opens over 0.3 s; selecting swaps the child and closes it")
  func menuOpensAndSelectionCloses() {
    let (window, menu) = shown()
    menu.handle(.character("m"))
    #expect(menu.isMenuOpen)
    window.clock.advance(by: 0.15)
    #expect(menu.menu.frame.height > 0 && menu.menu.frame.height < 3)
    window.clock.runUntilIdle()
    #expect(menu.menu.frame.height == 3)
    #expect(window.render().plainText().contains("2  Two"))
    menu.handle(.down)
    let log = LifecycleLog.recording { menu.handle(.enter) }
    #expect(
      log.lines(only: [
        "willMove", "didMove", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear",
      ])
        == [
          "One: willMove(toParent: nil)",
          "One: viewWillDisappear(animated: false)",
          "One: viewDidDisappear(animated: false)",
          "One: didMove(toParent: nil)",
          "Two: willMove(toParent: Menu)",
          "Two: viewWillAppear(animated: false)",
          "Two: viewDidAppear(animated: false)",
          "Two: didMove(toParent: Menu)",
        ])
    #expect(!menu.isMenuOpen)
    window.clock.runUntilIdle()
    #expect(menu.menu.frame.height == 0)
    #expect(menu.activeViewController?.title == "Two")
  }
}
