import TunnelContainment

/// A container with a segmented control switching between a "Summary" and a "Sessions" child.
///
/// Each child is created on its first selection and kept afterwards, with its state, while
/// the other one is shown. With `usesContainment` (the default) a child is added with
/// `addChild`, its view, and `didMove(toParent:)`, and gets its appearance callbacks. Without
/// it only the child's view is added: the screen looks the same, but the appearance callbacks
/// never arrive.
public final class MasterViewController: ViewController {
  /// Whether children are added with the containment calls.
  public let usesContainment: Bool
  /// Where the children print.
  public let console: Console
  /// The segmented control at the top.
  public let segmentedControl = SegmentedControl()
  /// The summary child, once it was first selected.
  public private(set) var summaryViewController: SummaryViewController?
  /// The sessions child, once it was first selected.
  public private(set) var sessionsViewController: SessionsViewController?

  /// Creates the container; `usesContainment: false` only adds the children's views.
  public init(console: Console, usesContainment: Bool = true) {
    self.console = console
    self.usesContainment = usesContainment
    super.init()
    title = "Master"
  }

  override public func loadView() {
    let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 12))
    root.autoresizingMask = .flexibleSize
    segmentedControl.frame = Rect(x: 0, y: 0, width: 60, height: 1)
    segmentedControl.autoresizingMask = .flexibleWidth
    segmentedControl.backgroundColor = .brightBlack
    root.addSubview(segmentedControl)
    view = root
  }

  override public func viewDidLoad() {
    super.viewDidLoad()
    setupView()
  }

  private func setupView() {
    segmentedControl.titles = ["Summary", "Sessions"]
    segmentedControl.selectedSegmentIndex = 0
    updateView()
  }

  /// Selects a segment: 0 for the summary, 1 for the sessions.
  public func select(_ index: Int) {
    guard index != segmentedControl.selectedSegmentIndex, index == 0 || index == 1 else { return }
    segmentedControl.selectedSegmentIndex = index
    updateView()
  }

  private var summary: SummaryViewController {
    if let summaryViewController { return summaryViewController }
    let controller = SummaryViewController(console: console)
    summaryViewController = controller
    return controller
  }

  private var sessions: SessionsViewController {
    if let sessionsViewController { return sessionsViewController }
    let controller = SessionsViewController(console: console)
    sessionsViewController = controller
    return controller
  }

  private func updateView() {
    if segmentedControl.selectedSegmentIndex == 0 {
      if let sessionsViewController { remove(asChildViewController: sessionsViewController) }
      add(asChildViewController: summary)
    } else {
      if let summaryViewController { remove(asChildViewController: summaryViewController) }
      add(asChildViewController: sessions)
    }
  }

  private func add(asChildViewController child: ViewController) {
    if usesContainment { addChild(child) }
    child.view.frame = Rect(x: 0, y: 1, width: view.bounds.width, height: max(0, view.bounds.height - 1))
    child.view.autoresizingMask = .flexibleSize
    view.addSubview(child.view)
    if usesContainment { child.didMove(toParent: self) }
  }

  private func remove(asChildViewController child: ViewController) {
    child.willMove(toParent: nil)
    child.view.removeFromSuperview()
    child.removeFromParent()
  }

  /// Handles a key: 1/2 or ←/→/tab switch segments; ↑/↓ move in the sessions list.
  public func handle(_ key: Key) {
    switch key {
    case .character("1"), .left: select(0)
    case .character("2"), .right: select(1)
    case .tab: select(1 - segmentedControl.selectedSegmentIndex)
    case .up where segmentedControl.selectedSegmentIndex == 1: sessions.moveSelection(by: -1)
    case .down where segmentedControl.selectedSegmentIndex == 1: sessions.moveSelection(by: 1)
    default: break
    }
  }
}
