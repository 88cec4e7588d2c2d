import TunnelContainment

/// The "Summary" child: totals of the sessions; it prints when it will appear or disappear.
public final class SummaryViewController: ViewController {
  private let console: Console

  /// Creates the summary, printing to `console`.
  public init(console: Console) {
    self.console = console
    super.init()
    title = "Summary"
  }

  override public func loadView() {
    let label = Label(text: "Summary\n\n12 sessions · 3 h 20 min\nlongest streak: 5 days")
    label.alignment = .center
    label.centersVertically = true
    label.backgroundColor = .yellow
    label.style = Style(foreground: .black)
    view = label
  }

  override public func viewWillAppear(_ animated: Bool) {
    super.viewWillAppear(animated)
    console.print("Summary View Controller Will Appear")
  }

  override public func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    console.print("Summary View Controller Will Disappear")
  }
}
