import TunnelContainment

/// A container with a bar showing the active child's title and a drop-down menu to switch children.
///
/// Setting ``viewControllers`` to an array that lacks the active controller makes the first
/// one active. Changing the active controller swaps the children the documented way:
/// `willMove(toParent: nil)`, the view removed, `removeFromParent()` for the old one;
/// `addChild`, the view added, `didMove(toParent:)` for the new one. The menu opens and closes
/// over 0.3 s; selecting an item swaps the child and closes the menu.
public final class MenuViewController: ViewController {
  private var viewControllerArray: [ViewController] = []
  /// The area the active child's view fills, below the bar.
  public let activeViewContainer = View()
  /// The bar at the top.
  public let bar = Label()
  /// The drop-down list.
  public let menu = MenuListView()
  /// Whether the menu is open (or opening).
  public private(set) var isMenuOpen = false
  /// How long opening or closing the menu takes, in seconds.
  public var menuDuration = 0.3

  /// Creates an empty menu container.
  override public init() {
    super.init()
    title = "Menu"
  }

  /// The controllers the menu offers; reading returns a copy.
  public var viewControllers: [ViewController] {
    get {
      let copy = viewControllerArray
      return copy
    }
    set {
      viewControllerArray = newValue
      if activeViewController == nil || !newValue.contains(where: { $0 === activeViewController }) {
        activeViewController = newValue.first
      }
    }
  }

  /// The child on screen.
  public private(set) var activeViewController: ViewController? {
    didSet {
      guard oldValue !== activeViewController else { return }
      removeInactiveViewController(oldValue)
      updateActiveViewController()
    }
  }

  override public func loadView() {
    let root = View(frame: Rect(x: 0, y: 0, width: 60, height: 16))
    root.autoresizingMask = .flexibleSize
    bar.frame = Rect(x: 0, y: 0, width: 60, height: 1)
    bar.autoresizingMask = .flexibleWidth
    bar.backgroundColor = .white
    bar.style = Style(foreground: .black, background: .white, bold: true)
    bar.alignment = .center
    root.addSubview(bar)
    activeViewContainer.frame = Rect(x: 0, y: 1, width: 60, height: 15)
    activeViewContainer.autoresizingMask = .flexibleSize
    activeViewContainer.backgroundColor = .magenta
    root.addSubview(activeViewContainer)
    menu.frame = Rect(x: 0, y: 1, width: 24, height: 0)
    root.addSubview(menu)
    view = root
  }

  override public func viewDidLoad() {
    super.viewDidLoad()
    menu.frame.size.height = 0
    updateActiveViewController()
  }

  private func removeInactiveViewController(_ inactive: ViewController?) {
    guard isViewLoaded, let inactive else { return }
    inactive.willMove(toParent: nil)
    inactive.view.removeFromSuperview()
    inactive.removeFromParent()
  }

  private func updateActiveViewController() {
    guard isViewLoaded, let active = activeViewController else { return }
    addChild(active)
    active.view.frame = activeViewContainer.bounds
    active.view.autoresizingMask = .flexibleSize
    activeViewContainer.addSubview(active.view)
    bar.text = "☰ Menu (m)   \(active.title ?? "")"
    active.didMove(toParent: self)
  }

  /// Opens the menu if it is closed, closes it if it is open.
  public func toggleMenu() {
    isMenuOpen ? hideMenu() : showMenu()
  }

  /// Makes the controller at `index` active and closes the menu.
  public func select(_ index: Int) {
    guard viewControllerArray.indices.contains(index) else { return }
    activeViewController = viewControllerArray[index]
    hideMenu()
  }

  private func showMenu() {
    isMenuOpen = true
    menu.items = viewControllerArray.map { $0.title ?? "" }
    menu.highlightedIndex = viewControllerArray.firstIndex { $0 === activeViewController } ?? 0
    animateMenu(to: viewControllerArray.count)
  }

  private func hideMenu() {
    isMenuOpen = false
    animateMenu(to: 0)
  }

  private func animateMenu(to height: Int) {
    let start = menu.frame.height
    let clock = view.window?.clock ?? AnimationClock.shared
    clock.animate(duration: menuDuration) { [menu] progress in
      menu.frame.size.height = start + Int((Double(height - start) * progress).rounded())
    }
  }

  /// Handles a key: m toggles the menu; with the menu open ↑/↓ move, return or a digit selects.
  public func handle(_ key: Key) {
    switch key {
    case .character("m"):
      toggleMenu()
    case .escape where isMenuOpen:
      hideMenu()
    case .up where isMenuOpen:
      menu.highlightedIndex = max(0, menu.highlightedIndex - 1)
    case .down where isMenuOpen:
      menu.highlightedIndex = min(viewControllerArray.count - 1, menu.highlightedIndex + 1)
    case .enter where isMenuOpen:
      select(menu.highlightedIndex)
    case .enter:
      toggleMenu()
    case .character(let digit) where digit.isWholeNumber:
      if let number = digit.wholeNumberValue { select(number - 1) }
    default:
      break
    }
  }

  /// A menu container with three coloured controllers, One, Two and Three, as in the example.
  public static func withThreeColors() -> MenuViewController {
    let menu = MenuViewController()
    menu.viewControllers = [
      ColorViewController(title: "One", color: .red),
      ColorViewController(title: "Two", color: .green),
      ColorViewController(title: "Three", color: .blue),
    ]
    return menu
  }
}
