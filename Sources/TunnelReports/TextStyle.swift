/// Bold and dim text on a terminal that shows colours; plain text otherwise.
public struct TextStyle: Sendable {
  public var colors = false

  public init(colors: Bool = false) {
    self.colors = colors
  }

  public func bold(_ text: String) -> String { colors ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
  public func dim(_ text: String) -> String { colors ? "\u{1B}[2m" + text + "\u{1B}[0m" : text }
}
