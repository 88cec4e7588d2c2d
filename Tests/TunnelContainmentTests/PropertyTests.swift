import Testing

@testable import TunnelContainment

/// Random sequences of containment operations, seeded and reproducible, checked against invariants.
@MainActor
@Suite("Random sequences keep the tree consistent")
struct PropertyTests {
  @MainActor final class World {
    let root = Container("Root")
    let window = Window(size: Size(width: 40, height: 12))
    var pool: [ViewController] = []
    var rng: SplitMix64
    var history: [String] = []

    init(seed: UInt64) {
      rng = SplitMix64(seed: seed)
      for index in 0..<4 { pool.append(Container("K\(index)")) }
      for index in 0..<5 { pool.append(Probe("L\(index)")) }
      window.rootViewController = root
    }

    var all: [ViewController] { [root] + pool }

    func inTree(_ controller: ViewController) -> Bool {
      var current: ViewController? = controller
      while let candidate = current {
        if candidate === root { return true }
        current = candidate.parent
      }
      return false
    }

    var containers: [Container] { all.compactMap { $0 as? Container }.filter(inTree) }

    func pick<T>(_ items: [T]) -> T? {
      items.isEmpty ? nil : items[Int(rng.next() % UInt64(items.count))]
    }

    /// One random operation; `misuse` allows calls that break the documented patterns.
    func step(misuse: Bool) {
      let choice = Int(rng.next() % (misuse ? 10 : 7))
      switch choice {
      case 0:
        guard let container = pick(containers), let child = pick(pool.filter { $0.parent == nil }),
          !(child is Container && inTree(child))
        else { return }
        history.append("add \(child) to \(container)")
        container.add(child)
      case 1:
        // Containers are torn down only when no transition is in flight.
        guard window.clock.isIdle || misuse,
          let child = pick(pool.filter { $0.parent != nil && !$0.isInTransition })
        else { return }
        history.append("remove \(child)")
        (child.parent as? Container)?.remove(child)
      case 2:
        guard let container = pick(containers),
          let old = pick(
            container.children.filter {
              $0.viewIfLoaded?.superview === container.containerView && !$0.isInTransition
            }),
          let new = pick(
            pool.filter {
              $0.parent == nil && $0.viewIfLoaded?.superview == nil && !($0 === container)
                && !$0.isInTransition
            })
        else { return }
        let duration = [0, 0.1, 0.3][Int(rng.next() % 3)]
        history.append("transition \(old) → \(new) in \(container) over \(duration)")
        new.view.frame = container.containerView.bounds
        old.willMove(toParent: nil)
        container.addChild(new)
        container.transition(
          from: old, to: new, duration: duration, options: .transitionFlipFromTop, animations: nil
        ) {
          _ in
          old.removeFromParent()
          new.didMove(toParent: container)
        }
      case 3:
        history.append(window.isVisible ? "hide" : "show")
        if window.isVisible { window.isHidden = true } else { window.makeKeyAndVisible() }
      case 4:
        let size = Size(width: 10 + Int(rng.next() % 50), height: 5 + Int(rng.next() % 20))
        history.append("resize \(size)")
        window.resize(to: size)
      case 5, 6:
        let interval = Double(rng.next() % 4) * 0.1
        history.append("advance \(interval)")
        window.clock.advance(by: interval)
      case 7:
        guard let container = pick(containers), let a = pick(all), let b = pick(all) else { return }
        history.append("raw transition \(a) → \(b) in \(container)")
        container.transition(from: a, to: b, duration: 0.2, animations: nil, completion: nil)
      case 8:
        guard let container = pick(containers), let child = pick(all) else { return }
        history.append("raw addChild \(child) to \(container)")
        container.addChild(child)
      default:
        guard let container = pick(containers), let stray = pick(pool) else { return }
        history.append("raw addSubview \(stray) to \(container)")
        container.containerView.addSubview(stray.view)
      }
    }

    /// Whether `controller` should be on screen, when nothing is in flight.
    func expectedVisible(_ controller: ViewController) -> Bool {
      if controller === root { return window.isVisible }
      guard let parent = controller.parent, let ownView = controller.viewIfLoaded,
        let parentView = parent.viewIfLoaded
      else { return false }
      return parent.shouldAutomaticallyForwardAppearanceMethods && expectedVisible(parent)
        && ownView.superview != nil && ownView.isDescendant(of: parentView)
    }
  }

  /// Replays one controller's appearance callbacks through the state machine; nil if illegal.
  static func replay(_ callbacks: [LifecycleCallback]) -> AppearanceState? {
    var state = AppearanceState.disappeared
    for callback in callbacks {
      switch (callback, state) {
      case (.viewWillAppear, .disappeared), (.viewWillAppear, .disappearing): state = .appearing
      case (.viewIsAppearing, .appearing): break
      case (.viewDidAppear, .appearing): state = .appeared
      case (.viewWillDisappear, .appeared), (.viewWillDisappear, .appearing): state = .disappearing
      case (.viewDidDisappear, .disappearing): state = .disappeared
      case (.viewWillAppear, _), (.viewIsAppearing, _), (.viewDidAppear, _), (.viewWillDisappear, _),
        (.viewDidDisappear, _):
        return nil
      default: break
      }
    }
    return state
  }

  func check(_ world: World, log: LifecycleLog, strict: Bool) {
    let context = Comment(rawValue: world.history.joined(separator: "; "))
    for controller in world.all {
      // Parent and children agree, without duplicates or cycles.
      if let parent = controller.parent {
        #expect(parent.children.filter { $0 === controller }.count == 1, context)
      }
      for child in controller.children { #expect(child.parent === controller, context) }
      var seen: [ObjectIdentifier] = []
      var current: ViewController? = controller
      while let candidate = current {
        #expect(!seen.contains(ObjectIdentifier(candidate)), context)
        if seen.contains(ObjectIdentifier(candidate)) { break }
        seen.append(ObjectIdentifier(candidate))
        current = candidate.parent
      }
      // Views sit under their controller's parent's view.
      if let parent = controller.parent, let superview = controller.viewIfLoaded?.superview,
        let host = superview.nearestController
      {
        #expect(host === parent, "\(controller) \(world.history)")
      }
      // Callbacks balanced, never sent twice, ending in the controller's state.
      let replayed = Self.replay(log.callbacks(for: controller))
      #expect(replayed == controller.appearanceState, "\(controller) \(context)")
      // On screen exactly when it should be, once nothing is in flight.
      if strict && world.window.clock.isIdle && AnimationClock.shared.isIdle {
        #expect(
          (controller.appearanceState == .appeared) == world.expectedVisible(controller),
          "\(controller) is \(controller.appearanceState) \(context)")
      }
    }
  }

  @Test("Documented operations in random order", arguments: 1...40)
  func documentedOperations(seed: UInt64) {
    let world = World(seed: seed)
    let log = LifecycleLog()
    log.start()
    defer { log.stop() }
    let reported = Diagnostics.capture {
      for _ in 0..<60 {
        world.step(misuse: false)
        check(world, log: log, strict: true)
      }
      world.window.clock.runUntilIdle()
      check(world, log: log, strict: true)
    }
    #expect(reported.isEmpty, "\(reported) after \(world.history)")
  }

  @Test("Misuse mixed in is refused without corrupting the tree", arguments: 101...140)
  func withMisuse(seed: UInt64) {
    let world = World(seed: seed)
    let log = LifecycleLog()
    log.start()
    defer { log.stop() }
    _ = Diagnostics.capture {
      for _ in 0..<80 {
        world.step(misuse: true)
        check(world, log: log, strict: false)
      }
      world.window.clock.runUntilIdle()
      check(world, log: log, strict: false)
    }
  }
}
