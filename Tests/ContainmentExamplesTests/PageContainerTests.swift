import ContainmentExamples
import Testing
import TunnelContainment

@MainActor
@Suite("Page container")
struct PageContainerTests {
  func shown() -> (Window, PageContainerViewController) {
    let container = PageContainerViewController.withFivePages()
    let window = Window(size: Size(width: 60, height: 16))
    window.rootViewController = container
    window.makeKeyAndVisible()
    return (window, container)
  }

  @Test("The first page is added when the container appears, and appears with it")
  func firstPageAppears() {
    let container = PageContainerViewController.withFivePages()
    let window = Window(size: Size(width: 60, height: 16))
    window.rootViewController = container
    let log = LifecycleLog.recording { window.makeKeyAndVisible() }
    #expect(
      log.lines == [
        "Pages: viewWillAppear(animated: false)",
        "Page 1: loadView()",
        "Page 1: viewDidLoad()",
        "Page 1: willMove(toParent: Pages)",
        "Page 1: didMove(toParent: Pages)",
        "Page 1: viewWillAppear(animated: false)",
        "Pages: viewIsAppearing(animated: false)",
        "Page 1: viewIsAppearing(animated: false)",
        "Pages: viewDidAppear(animated: false)",
        "Page 1: viewDidAppear(animated: false)",
      ])
    #expect(window.render().plainText().contains("<PageViewController: Page 1, 1 of 5>"))
  }

  @Test("Swiping left curls to the next page with balanced will/did messages")
  func swipeLeftBalanced() {
    let (window, container) = shown()
    let log = LifecycleLog.recording {
      container.swipeLeft()
      window.clock.runUntilIdle()
    }
    #expect(
      log.lines == [
        "Page 2: loadView()",
        "Page 2: viewDidLoad()",
        "Page 1: willMove(toParent: nil)",
        "Page 2: willMove(toParent: Pages)",
        "Page 1: viewWillDisappear(animated: true)",
        "Page 2: viewWillAppear(animated: true)",
        "Page 2: viewIsAppearing(animated: true)",
        "Pages: transition completion(finished: true)",
        "Page 2: didMove(toParent: Pages)",
        "Page 1: didMove(toParent: nil)",
        "Page 1: viewDidDisappear(animated: true)",
        "Page 2: viewDidAppear(animated: true)",
      ])
    #expect(container.children.map(\.description) == ["Page 2"])
    #expect(window.render().plainText().contains("Page 2, 2 of 5"))
  }

  @Test("No wrapping: right at the first page and left at the last do nothing")
  func noWrapping() {
    let (window, container) = shown()
    #expect(LifecycleLog.recording { container.swipeRight() }.events.isEmpty)
    for _ in 0..<6 {
      container.swipeLeft()
      window.clock.runUntilIdle()
    }
    #expect(container.selectedViewController?.description == "Page 5")
    #expect(LifecycleLog.recording { container.swipeLeft() }.events.isEmpty)
    container.swipeRight()
    window.clock.runUntilIdle()
    #expect(container.selectedViewController?.description == "Page 4")
  }

  @Test("Every page's appearance callbacks pair up over a walk through all pages")
  func balancedOverWalk() {
    let container = PageContainerViewController.withFivePages()
    let window = Window(size: Size(width: 60, height: 16))
    window.rootViewController = container
    let log = LifecycleLog.recording {
      window.makeKeyAndVisible()
      for key in [Key.left, .left, .left, .right, .left, .left, .right, .right] {
        container.handle(key)
        window.clock.advance(by: 0.5)
        container.handle(key)  // ignored while the page turns
        window.clock.runUntilIdle()
      }
    }
    #expect(log.events.allSatisfy { if case .diagnostic = $0.callback { false } else { true } })
    for page in container.subViewControllers {
      let names = log.callbacks(for: page).map(\.name).filter {
        $0.hasPrefix("viewWill") || $0.hasPrefix("viewDid")
      }
      .filter { $0 != "viewDidLoad" }
      var expectAppear = true
      for name in names {
        let isAppear = name.hasSuffix("Appear")
        #expect(isAppear == expectAppear, "\(page): \(names)")
        if name.hasPrefix("viewDid") { expectAppear.toggle() }
      }
    }
  }

  @Test("Half-way through a curl, only the container's area changes")
  func curlFramesStayInContainer() throws {
    let (window, container) = shown()
    let before = window.render()
    container.swipeLeft()
    window.clock.advance(by: 0.5)
    let middle = window.render()
    window.clock.runUntilIdle()
    let after = window.render()
    let area = container.containerView.frame
    var changedInside = false
    for y in 0..<before.size.height {
      for x in 0..<before.size.width {
        if area.contains(Point(x: x, y: y)) {
          if middle[x, y] != before[x, y] && middle[x, y] != after[x, y] { changedInside = true }
        } else {
          #expect(middle[x, y] == before[x, y])
        }
      }
    }
    #expect(changedInside || middle != before)
    #expect(middle != before && middle != after)
  }
}
