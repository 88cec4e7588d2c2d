/// How a view follows its superview's bounds when they change size.
///
/// A flexible component takes part of the change; when several are flexible
/// they share it in proportion to their current sizes, as in UIKit.
///
///     child.autoresizingMask = [.flexibleWidth, .flexibleHeight]
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
  public let rawValue: Int

  /// Creates a mask from its raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The left margin takes part of a width change.
  public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
  /// The width takes part of a width change.
  public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
  /// The right margin takes part of a width change.
  public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
  /// The top margin takes part of a height change.
  public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
  /// The height takes part of a height change.
  public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
  /// The bottom margin takes part of a height change.
  public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)

  /// Width and height both follow the superview: the view keeps its margins.
  public static let flexibleSize: AutoresizingMask = [.flexibleWidth, .flexibleHeight]

  /// The frame `frame` should take when its superview's size changes from `old` to `new`.
  public func resize(_ frame: Rect, from old: Size, to new: Size) -> Rect {
    let (x, width) = Self.distribute(
      delta: new.width - old.width,
      before: frame.minX, length: frame.width, after: old.width - frame.maxX,
      flexible: (contains(.flexibleLeftMargin), contains(.flexibleWidth), contains(.flexibleRightMargin)))
    let (y, height) = Self.distribute(
      delta: new.height - old.height,
      before: frame.minY, length: frame.height, after: old.height - frame.maxY,
      flexible: (contains(.flexibleTopMargin), contains(.flexibleHeight), contains(.flexibleBottomMargin)))
    return Rect(x: x, y: y, width: width, height: height)
  }

  /// Shares `delta` among the flexible parts of one axis; returns the new start and length.
  private static func distribute(
    delta: Int, before: Int, length: Int, after: Int, flexible: (Bool, Bool, Bool)
  ) -> (Int, Int) {
    guard delta != 0 else { return (before, length) }
    let parts = [(flexible.0, before), (flexible.1, length), (flexible.2, after)]
    let flexibleParts = parts.filter { $0.0 }
    guard !flexibleParts.isEmpty else { return (before, length) }
    let total = flexibleParts.reduce(0) { $0 + max(0, $1.1) }
    var shares = [0, 0, 0]
    for index in 0..<3 where parts[index].0 {
      let weight =
        total > 0
        ? Double(max(0, parts[index].1)) / Double(total) : 1.0 / Double(flexibleParts.count)
      shares[index] = Int((Double(delta) * weight).rounded())
    }
    // Give any rounding remainder to the last flexible part so the sum stays exact.
    let remainder = delta - shares.reduce(0, +)
    if let last = (0..<3).last(where: { parts[$0].0 }) { shares[last] += remainder }
    return (before + shares[0], max(0, length + shares[1]))
  }
}
