/// The time transitions and timers run on, in seconds.
///
/// Nothing advances on its own: tests call ``advance(by:)`` to step through a transition
/// frame by frame, and a ``TerminalApplication`` advances it by the real time that passed.
/// Work due at the same moment runs in the order it was scheduled.
///
///     window.clock.advance(by: 0.1)   // half-way through a 0.2 s flip
///     let frame = window.render()
///     window.clock.runUntilIdle()      // finish everything
@MainActor
public final class AnimationClock {
  /// The clock used by transitions of controllers that are not in a window.
  public static let shared = AnimationClock()

  /// The current time in seconds since the clock was created.
  public private(set) var now: Double = 0

  private struct Item {
    let id: Int
    let deadline: Double
    let action: @MainActor () -> Void
  }

  private struct Animation {
    let id: Int
    let start: Double
    let duration: Double
    let update: @MainActor (Double) -> Void
  }

  private var items: [Item] = []
  private var animations: [Animation] = []
  private var nextID = 0

  /// Creates a clock at time zero.
  public init() {}

  /// Whether nothing is scheduled.
  public var isIdle: Bool { items.isEmpty }

  /// The time the next scheduled work is due, if any.
  public var nextDeadline: Double? { items.map(\.deadline).min() }

  /// Runs `action` once `delay` seconds have passed on this clock.
  public func schedule(after delay: Double, _ action: @escaping @MainActor () -> Void) {
    scheduleItem(after: delay, action)
  }

  /// Schedules `action` and returns its number, for ``cancel(_:)``.
  @discardableResult
  func scheduleItem(after delay: Double, _ action: @escaping @MainActor () -> Void) -> Int {
    nextID += 1
    items.append(Item(id: nextID, deadline: now + max(0, delay), action: action))
    return nextID
  }

  /// Drops scheduled work that has not run yet.
  func cancel(_ id: Int) {
    items.removeAll { $0.id == id }
  }

  /// Runs an animation: `update` receives the linear progress from 0 to 1 each time the
  /// clock advances, and `completion` runs once `duration` has passed (after `update(1)`).
  public func animate(
    duration: Double, update: @escaping @MainActor (Double) -> Void,
    completion: (@MainActor () -> Void)? = nil
  ) {
    update(0)
    nextID += 1
    let id = nextID
    animations.append(Animation(id: id, start: now, duration: duration, update: update))
    schedule(after: duration) { [weak self] in
      self?.animations.removeAll { $0.id == id }
      update(1)
      completion?()
    }
  }

  /// Moves time forward by `interval` seconds, running whatever falls due, in order.
  public func advance(by interval: Double) {
    advance(to: now + max(0, interval))
  }

  /// Moves time forward to `time`, running whatever falls due, in order.
  public func advance(to time: Double) {
    while let index = dueIndex(before: time) {
      let item = items.remove(at: index)
      now = max(now, item.deadline)
      item.action()
    }
    now = max(now, time)
    for animation in animations where animation.duration > 0 {
      animation.update(min(1, (now - animation.start) / animation.duration))
    }
  }

  /// Advances until nothing is scheduled (at most `limit` rounds, against timers that reschedule forever).
  public func runUntilIdle(limit: Int = 10_000) {
    var rounds = 0
    while let deadline = nextDeadline, rounds < limit {
      advance(to: deadline)
      rounds += 1
    }
  }

  private func dueIndex(before time: Double) -> Int? {
    var best: Int?
    for (index, item) in items.enumerated() where item.deadline <= time {
      if let current = best {
        let other = items[current]
        if item.deadline < other.deadline || (item.deadline == other.deadline && item.id < other.id) {
          best = index
        }
      } else {
        best = index
      }
    }
    return best
  }
}
