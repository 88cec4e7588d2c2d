import Testing

@testable import TunnelContainment

@MainActor
@Suite("Adding and removing (rules 1–5)")
struct AddingAndRemovingTests {
  @Test("1. addChild sends willMove(toParent:) itself, links the child, and sends no appearance callback")
  func addChildLinksAndSendsWillMove() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    let log = lines { parent.addChild(child) }
    #expect(log == ["C: willMove(toParent: P)"])
    #expect(child.parent === parent)
    #expect(parent.children.map(\.description) == ["C"])
    #expect(child.appearanceState == .disappeared)
    _ = window
  }

  @Test("1. addChild of a child of another parent removes it from there first")
  func addChildReparents() {
    let first = Container("First")
    let second = Container("Second")
    let root = Container("Root")
    let window = visibleWindow(root)
    root.add(first)
    root.add(second)
    let child = Probe("C")
    first.add(child)
    #expect(child.appearanceState == .appeared)
    let log = lines { second.addChild(child) }
    #expect(
      log == [
        "C: willMove(toParent: nil)",
        "C: viewWillDisappear(animated: false)",
        "C: viewDidDisappear(animated: false)",
        "C: didMove(toParent: nil)",
        "C: willMove(toParent: Second)",
      ])
    #expect(first.children.isEmpty)
    #expect(second.children.first === child)
    #expect(child.view.superview == nil)
    _ = window
  }

  @Test("1. Adding a child twice to the same parent changes nothing (pinned)")
  func addChildTwiceIsNoOp() {
    let parent = Container()
    let child = Probe("C")
    parent.addChild(child)
    let log = lines { parent.addChild(child) }
    #expect(log.isEmpty)
    #expect(parent.children.count == 1)
  }

  @Test("1. A controller cannot become a child of itself or of its descendant")
  func addChildRefusesCycles() {
    let parent = Container()
    let child = Container("C")
    parent.addChild(child)
    let reported = Diagnostics.capture {
      child.addChild(parent)
      parent.addChild(parent)
    }
    #expect(reported.map(\.kind) == [.hierarchyInconsistency, .hierarchyInconsistency])
    #expect(parent.parent == nil)
    #expect(child.children.isEmpty)
  }

  @Test("2. The first read of view runs loadView then viewDidLoad, once")
  func viewLoadsOnce() {
    let child = Probe("C")
    #expect(!child.isViewLoaded)
    let log = lines {
      _ = child.view
      _ = child.view
      child.loadViewIfNeeded()
    }
    #expect(log == ["C: loadView()", "C: viewDidLoad()"])
    #expect(child.isViewLoaded)
  }

  @Test("3. A child's view under a view of another controller is a hierarchy inconsistency")
  func viewUnderWrongControllerIsRefused() {
    let parent = Container()
    let other = Container("X")
    other.loadViewIfNeeded()
    let child = Probe("C")
    parent.addChild(child)
    let reported = Diagnostics.capture { other.containerView.addSubview(child.view) }
    #expect(
      reported == [
        Diagnostic(
          .hierarchyInconsistency,
          "child view controller: C should have parent view controller: P but actual parent is: X")
      ])
    #expect(child.view.superview == nil)
  }

  @Test("3. A controller without a parent may put its view anywhere")
  func parentlessViewIsAllowed() {
    let other = Container("X")
    let loose = Probe("Loose")
    let reported = Diagnostics.capture { other.containerView.addSubview(loose.view) }
    #expect(reported.isEmpty)
    #expect(loose.view.superview === other.containerView)
  }

  @Test("3. addChild runs the same check on a view that is already placed")
  func addChildChecksPlacedView() {
    let parent = Container()
    let other = Container("X")
    other.loadViewIfNeeded()
    let child = Probe("C")
    other.containerView.addSubview(child.view)
    let reported = Diagnostics.capture { parent.addChild(child) }
    #expect(
      reported.map(\.message) == [
        "child view controller: C should have parent view controller: P but actual parent is: X"
      ])
    #expect(child.parent == nil)
    #expect(parent.children.isEmpty)
  }

  @Test("3. A detached subtree is checked when it is attached")
  func detachedSubtreeCheckedOnAttach() {
    let parent = Container()
    let other = Container("X")
    other.loadViewIfNeeded()
    let child = Probe("C")
    parent.addChild(child)
    let holder = View()
    holder.addSubview(child.view)
    let reported = Diagnostics.capture { other.containerView.addSubview(holder) }
    #expect(reported.map(\.kind) == [.hierarchyInconsistency])
    #expect(holder.superview == nil)
  }

  @Test("3. A view cannot be added under itself")
  func viewCycleRefused() {
    let outer = View()
    let inner = View()
    outer.addSubview(inner)
    let reported = Diagnostics.capture { inner.addSubview(outer) }
    #expect(reported.map(\.message) == ["Can't add self as subview"])
    #expect(outer.superview == nil)
  }

  @Test("4. didMove(toParent:) comes from the container, after the view is in place")
  func didMoveIsTheContainersCall() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    let log = lines { parent.add(child) }
    #expect(
      log == [
        "C: willMove(toParent: P)",
        "C: loadView()",
        "C: viewDidLoad()",
        "C: viewWillAppear(animated: false)",
        "C: viewIsAppearing(animated: false)",
        "C: viewDidAppear(animated: false)",
        "C: didMove(toParent: P)",
      ])
    let withoutDidMove = lines {
      let second = Probe("D")
      parent.addChild(second)
      parent.containerView.addSubview(second.view)
    }
    #expect(!withoutDidMove.contains { $0.contains("didMove") })
    _ = window
  }

  @Test("4. didMove(toParent:) with a controller that is not the parent is reported")
  func didMoveWithWrongParent() {
    let parent = Container()
    let other = Container("X")
    other.loadViewIfNeeded()
    let child = Probe("C")
    parent.addChild(child)
    let reported = Diagnostics.capture { child.didMove(toParent: other) }
    #expect(reported.map(\.kind) == [.hierarchyInconsistency])
  }

  @Test("5. Removing: willMove(nil), the view leaves, removeFromParent unlinks then sends didMove(nil)")
  func removeSequence() {
    let parent = Container()
    let window = visibleWindow(parent)
    let child = Probe("C")
    parent.add(child)
    let log = lines { parent.remove(child) }
    #expect(
      log == [
        "C: willMove(toParent: nil)",
        "C: viewWillDisappear(animated: false)",
        "C: viewDidDisappear(animated: false)",
        "C: didMove(toParent: nil)",
      ])
    #expect(child.parent == nil)
    #expect(parent.children.isEmpty)
    #expect(child.parentAtDidMove.last! == nil)
    _ = window
  }

  @Test("5. removeFromParent without a parent does nothing")
  func removeWithoutParent() {
    let child = Probe("C")
    #expect(lines { child.removeFromParent() }.isEmpty)
  }
}
