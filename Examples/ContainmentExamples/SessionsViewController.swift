import TunnelContainment

/// The "Sessions" child: a list with a selected row that it keeps while hidden; it prints
/// when it will appear or disappear.
public final class SessionsViewController: ViewController {
  private let console: Console
  private let list = Label()
  /// The sessions listed.
  public let sessions = ["Monday 20 min", "Tuesday 35 min", "Wednesday 15 min", "Friday 40 min"]
  /// The selected row; kept while the controller is hidden.
  public private(set) var selectedRow = 0 {
    didSet { updateList() }
  }

  /// Creates the sessions list, printing to `console`.
  public init(console: Console) {
    self.console = console
    super.init()
    title = "Sessions"
  }

  override public func loadView() {
    list.backgroundColor = .blue
    list.style = Style(foreground: .brightWhite)
    view = list
    updateList()
  }

  private func updateList() {
    list.text = sessions.enumerated().map { index, session in
      (index == selectedRow ? " ▸ " : "   ") + session
    }.joined(separator: "\n")
  }

  /// Moves the selection by `step` rows, staying within the list.
  public func moveSelection(by step: Int) {
    selectedRow = min(max(0, selectedRow + step), sessions.count - 1)
  }

  override public func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    console.print("Sessions View Controller Will Appear")
  }

  override public func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    console.print("Sessions View Controller Will Disappear")
  }
}
