import TunnelContainment

/// A controller whose view is a coloured area showing its title.
public final class ColorViewController: ViewController {
  /// The background colour.
  public let color: Color

  /// Creates a controller with a title and a colour.
  public init(title: String, color: Color) {
    self.color = color
    super.init()
    self.title = title
  }

  override public func loadView() {
    let label = Label(text: title ?? "")
    label.alignment = .center
    label.centersVertically = true
    label.backgroundColor = color
    label.style = Style(foreground: .black, bold: true)
    view = label
  }
}
