/// Describes a size change in progress to ``ViewController/viewWillTransition(to:with:)``.
///
/// Terminal resizes are immediate: ``transitionDuration`` is zero, and the alongside
/// animations and completions run right after the new size has been laid out **(pinned)**.
@MainActor
public final class TransitionCoordinator {
  /// How long the size change takes, in seconds.
  public let transitionDuration: Double
  /// The size before the change.
  public let oldSize: Size
  /// The size after the change.
  public let newSize: Size

  private var alongside: [@MainActor (TransitionCoordinator) -> Void] = []
  private var completions: [@MainActor (TransitionCoordinator) -> Void] = []

  /// Creates a coordinator for a change from `oldSize` to `newSize`.
  public init(from oldSize: Size, to newSize: Size, duration: Double = 0) {
    self.oldSize = oldSize
    self.newSize = newSize
    self.transitionDuration = duration
  }

  /// Runs `animation` along with the size change and `completion` once it is done.
  @discardableResult
  public func animate(
    alongsideTransition animation: (@MainActor (TransitionCoordinator) -> Void)?,
    completion: (@MainActor (TransitionCoordinator) -> Void)? = nil
  ) -> Bool {
    if let animation { alongside.append(animation) }
    if let completion { completions.append(completion) }
    return true
  }

  /// Runs the alongside animations, then the completions.
  func finish() {
    for animation in alongside { animation(self) }
    for completion in completions { completion(self) }
    alongside.removeAll()
    completions.removeAll()
  }
}
