/// A view that shows text, wrapped at word boundaries to its width.
///
///     let label = Label(text: "Summary")
///     label.alignment = .center
open class Label: View {
  /// How lines sit between the left and right edges.
  public enum Alignment: Hashable, Sendable {
    case left, center, right
  }

  /// The text; newlines start new lines.
  public var text: String
  /// How lines are aligned.
  public var alignment: Alignment = .left
  /// The style of the text.
  public var style: Style = .plain
  /// Whether the block of lines is centred vertically.
  public var centersVertically = false
  /// How lines longer than the label break, as UILabel's `lineBreakMode`.
  public var lineBreakMode: LineBreakMode = .byWordWrapping

  /// How a label breaks its lines.
  public enum LineBreakMode: Hashable, Sendable {
    /// At word boundaries, runs of spaces between words shown as one.
    case byWordWrapping
    /// Only at the text's own newlines, every space kept (columns stay aligned); what does not fit is
    /// cut off.
    case byClipping
  }

  /// Creates a label.
  public init(text: String = "", frame: Rect = .zero) {
    self.text = text
    super.init(frame: frame)
  }

  /// The text broken into lines no wider than `width`.
  public func lines(width: Int) -> [String] {
    guard width > 0 else { return [] }
    if lineBreakMode == .byClipping {
      return text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.prefix(width)) }
    }
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        var word = String(word)
        while word.count > width {
          if !line.isEmpty {
            result.append(line)
            line = ""
          }
          result.append(String(word.prefix(width)))
          word = String(word.dropFirst(width))
        }
        if line.isEmpty {
          line = word
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          result.append(line)
          line = word
        }
      }
      result.append(line)
    }
    return result
  }

  override open func draw(in canvas: inout Canvas) {
    let shown = lines(width: bounds.width).prefix(bounds.height)
    let top = centersVertically ? max(0, (bounds.height - shown.count) / 2) : 0
    for (row, line) in shown.enumerated() {
      let x: Int
      switch alignment {
      case .left: x = 0
      case .center: x = max(0, (bounds.width - line.count) / 2)
      case .right: x = max(0, bounds.width - line.count)
      }
      canvas.write(line, at: Point(x: x, y: top + row), style: style)
    }
  }
}
