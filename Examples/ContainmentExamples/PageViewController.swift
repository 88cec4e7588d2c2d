import TunnelContainment

/// One page of the page container: a label showing the page's own description.
public final class PageViewController: ViewController {
  /// The page's position, from 1.
  public let number: Int
  /// How many pages there are.
  public let count: Int

  /// Creates page `number` of `count`.
  public init(number: Int, of count: Int) {
    self.number = number
    self.count = count
    super.init()
    title = "Page \(number)"
  }

  /// What the page shows about itself.
  public var pageDescription: String {
    "<PageViewController: \(description), \(number) of \(count)>"
  }

  override public func loadView() {
    let label = Label(text: pageDescription)
    label.alignment = .center
    label.centersVertically = true
    label.autoresizingMask = .flexibleSize
    let colors: [Color] = [.blue, .magenta, .cyan, .green, .yellow]
    label.backgroundColor = colors[(number - 1) % colors.count]
    label.style = Style(foreground: .black, bold: true)
    view = label
  }
}
