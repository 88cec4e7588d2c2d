import Testing

@testable import TunnelContainment

@MainActor
@Suite("Size changes (rule 15)")
struct SizeChangeTests {
  @Test("15. A window resize reaches every controller, parent first, then views re-lay out")
  func resizeReachesEveryController() {
    let parent = Container()
    let child = Container("C")
    let grandchild = Probe("G")
    let hidden = Probe("H")
    parent.add(child)
    child.add(grandchild)
    parent.addChild(hidden)
    let window = visibleWindow(parent)
    let newSize = Size(width: 60, height: 20)
    let log = lines { window.resize(to: newSize) }
    #expect(
      log == [
        "P: viewWillTransition(to: 60×20)",
        "C: viewWillTransition(to: 60×20)",
        "G: viewWillTransition(to: 60×20)",
        "H: viewWillTransition(to: 60×20)",
      ])
    #expect(parent.view.frame == Rect(x: 0, y: 0, width: 60, height: 20))
    #expect(parent.containerView.frame == Rect(x: 2, y: 2, width: 56, height: 16))
    #expect(child.view.frame == Rect(x: 0, y: 0, width: 56, height: 16))
    #expect(grandchild.view.frame == Rect(x: 0, y: 0, width: 52, height: 12))
    #expect(grandchild.sizes == [newSize])
  }

  @Test("15. The coordinator runs alongside animations and completions after the new layout")
  func coordinatorRunsAfterLayout() {
    final class Watcher: ViewController {
      var seen: [Size] = []
      override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        coordinator.animate(alongsideTransition: { _ in self.seen.append(self.view.frame.size) }) { _ in
          self.seen.append(self.view.frame.size)
        }
      }
    }
    let watcher = Watcher()
    let window = visibleWindow(watcher)
    window.resize(to: Size(width: 10, height: 5))
    #expect(watcher.seen == [Size(width: 10, height: 5), Size(width: 10, height: 5)])
  }
}
