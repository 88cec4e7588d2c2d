import SeededRandom
import Testing

@testable import TunnelContainment

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seeds each random-run test uses: `count` of them from `first`, or as many as the
/// `CONTAINMENT_PROPERTY_SEEDS` environment variable asks for, to run a long search locally.
func propertySeeds(from first: UInt64, count: Int) -> [UInt64] {
  let requested = getenv("CONTAINMENT_PROPERTY_SEEDS").flatMap { Int(String(cString: $0)) }
  let total = max(1, requested ?? count)
  return (0..<total).map { first + UInt64($0) }
}

/// Random sequences of containment operations, seeded and reproducible, checked against invariants.
@MainActor
@Suite("Random sequences keep the tree consistent")
struct PropertyTests {
  @MainActor final class World {
    let roots = [Container("Root"), Container("Spare")]
    let window = Window(size: Size(width: 40, height: 12))
    var pool: [ViewController] = []
    var rng: SplitMix64
    var history: [String] = []

    init(seed: UInt64) {
      rng = SplitMix64(seed: seed)
      for index in 0..<4 { pool.append(Container("K\(index)")) }
      for index in 0..<5 { pool.append(Probe("L\(index)")) }
      window.rootViewController = roots[0]
    }

    var all: [ViewController] { roots + pool }

    /// Whether `controller` is one of the roots or below one.
    func inTree(_ controller: ViewController) -> Bool {
      var current: ViewController? = controller
      while let candidate = current {
        if roots.contains(where: { $0 === candidate }) { return true }
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
      let choice = Int(rng.next() % (misuse ? 13 : 9))
      switch choice {
      case 0:
        guard let container = pick(containers), let child = pick(pool.filter { $0.parent == nil }),
          !(child is Container && inTree(child))
        else { return }
        history.append("add \(child) to \(container)")
        container.add(child)
      case 1:
        // Any child not itself part of a transition, even one whose own children are in one.
        guard let child = pick(pool.filter { $0.parent != nil && !$0.isInTransition }) else { return }
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
        let next = window.rootViewController === roots[0] ? roots[1] : roots[0]
        history.append("window root \(next)")
        window.rootViewController = next
      case 8:
        _ = window.render()
      case 9:
        guard let container = pick(containers), let a = pick(all), let b = pick(all) else { return }
        history.append("raw transition \(a) → \(b) in \(container)")
        container.transition(from: a, to: b, duration: 0.2, animations: nil, completion: nil)
      case 10:
        guard let container = pick(containers), let child = pick(pool) else { return }
        history.append("raw addChild \(child) to \(container)")
        container.addChild(child)
      case 11:
        guard let container = pick(containers), let stray = pick(pool) else { return }
        history.append("raw addSubview \(stray) to \(container)")
        container.containerView.addSubview(stray.view)
      default:
        // Pulled out mid-transition: a child in a transition, or any child's view alone.
        guard let child = pick(pool.filter { $0.parent != nil }) else { return }
        if child.isInTransition {
          history.append("remove \(child) in transition")
          (child.parent as? Container)?.remove(child)
        } else {
          history.append("pull out the view of \(child)")
          child.viewIfLoaded?.removeFromSuperview()
        }
      }
    }

    /// Whether the window is showing `controller`'s view through an unbroken chain of
    /// containers that forward appearance automatically.
    func isShown(_ controller: ViewController) -> Bool {
      if roots.contains(where: { $0 === controller }) {
        return window.isVisible && window.rootViewController === controller
      }
      guard let parent = controller.parent, let ownView = controller.viewIfLoaded,
        let parentView = parent.viewIfLoaded
      else { return false }
      return parent.shouldAutomaticallyForwardAppearanceMethods && isShown(parent)
        && ownView.superview != nil && ownView.isDescendant(of: parentView) && ownView.isInVisibleWindow
    }

    /// The appearance states `controller` may be in now.
    func legalStates(_ controller: ViewController) -> Set<AppearanceState> {
      let idle = !all.contains { $0.isInTransition }
      guard isShown(controller) else { return [.disappeared] }
      guard !idle, let parent = controller.parent else { return [.appeared] }
      // While a transition runs: the children follow their parent, and the children that
      // take part in a transition are on their way in or out (or stay out: an old child whose
      // view arrived while its parent was appearing never appeared).
      switch parent.appearanceState {
      case .appeared:
        return controller.isInTransition ? [.appearing, .disappearing, .disappeared] : [.appeared]
      case .appearing:
        return [.disappeared, .appearing, .appeared, .disappearing]
      case .disappearing:
        return [.disappearing, .disappeared]
      case .disappeared:
        return [.disappeared]
      }
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

  func check(_ world: World, log: LifecycleLog) {
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
        #expect(host === parent, "\(controller) \(context)")
      }
      // Callbacks balanced, never sent twice, ending in the controller's state.
      let replayed = Self.replay(log.callbacks(for: controller))
      #expect(replayed == controller.appearanceState, "\(controller) \(context)")
      // On screen exactly when it should be; in a legal state while transitions run.
      let legal = world.legalStates(controller)
      #expect(
        legal.contains(controller.appearanceState),
        "\(controller) is \(controller.appearanceState), expected one of \(legal.map(\.description).sorted()); \(context)"
      )
      // viewDidAppear only ever arrives on screen.
      if let recorder = controller as? AppearanceRecording {
        #expect(recorder.appearedOffScreen == 0, "\(controller) \(context)")
      }
    }
  }

  func run(seed: UInt64, steps: Int, misuse: Bool) -> [Diagnostic] {
    let world = World(seed: seed)
    let log = LifecycleLog()
    log.start()
    defer { log.stop() }
    let reported = Diagnostics.capture {
      for _ in 0..<steps {
        world.step(misuse: misuse)
        check(world, log: log)
      }
      world.window.clock.runUntilIdle()
      check(world, log: log)
    }
    if !misuse {
      #expect(reported.isEmpty, "\(reported) after \(world.history.joined(separator: "; "))")
    }
    return reported
  }

  @Test("Documented operations in random order", arguments: propertySeeds(from: 1, count: 40))
  func documentedOperations(seed: UInt64) {
    _ = run(seed: seed, steps: 60, misuse: false)
  }

  @Test(
    "Misuse mixed in is refused without corrupting the tree", arguments: propertySeeds(from: 101, count: 40))
  func withMisuse(seed: UInt64) {
    _ = run(seed: seed, steps: 80, misuse: true)
  }
}
