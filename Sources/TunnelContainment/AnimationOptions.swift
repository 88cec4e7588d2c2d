extension View {
  /// Options of an animated transition: the visual effect and the timing curve.
  ///
  /// At most one transition effect (flip, curl, cross-dissolve) applies; it animates only
  /// the container view the two children's views sit in.
  public struct AnimationOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt

    /// Creates options from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Slow at the start and the end (the default curve).
    public static let curveEaseInOut = AnimationOptions([])
    /// Slow at the start.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    /// Slow at the end.
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    /// Constant speed.
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// No transition effect: the new view simply replaces the old one at the end.
    public static let transitionNone = AnimationOptions([])
    /// The container turns over around its vertical axis, left edge coming forward: the fold
    /// sweeps from the left edge to the right.
    public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
    /// The container turns over around its vertical axis, right edge coming forward: the fold
    /// sweeps from the right edge to the left.
    public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
    /// The old view curls up from the bottom, revealing the new one.
    public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
    /// The new view curls down from the top over the old one.
    public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
    /// The new view fades in cell by cell.
    public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    /// The container turns over around its horizontal axis, top edge coming forward: the fold
    /// sweeps from the top edge down, the new view filling in above it.
    public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
    /// The container turns over around its horizontal axis, bottom edge coming forward: the
    /// fold sweeps from the bottom edge up, the new view filling in below it.
    public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

    /// The transition effect among the options.
    public var transition: AnimationOptions { AnimationOptions(rawValue: rawValue & (7 << 20)) }

    /// The timing curve among the options.
    public var curve: AnimationOptions { AnimationOptions(rawValue: rawValue & (3 << 16)) }

    /// Maps linear progress (0…1) through the timing curve.
    public func eased(_ t: Double) -> Double {
      let t = min(1, max(0, t))
      switch curve {
      case .curveLinear: return t
      case .curveEaseIn: return t * t
      case .curveEaseOut: return 1 - (1 - t) * (1 - t)
      default: return t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)
      }
    }
  }
}
