/// The root of a view tree: shows a root view controller and renders everything into a ``Canvas``.
///
/// A window starts hidden. ``makeKeyAndVisible()`` installs the root controller's view
/// (sized to the window, following its size) and sends the appearance callbacks, parent
/// first: all will-callbacks, then all `viewIsAppearing`, then all did-callbacks.
/// ``resize(to:)`` sends ``ViewController/viewWillTransition(to:with:)`` to every controller
/// and re-lays out the tree. Transitions of the controllers in this window run on ``clock``.
///
///     let window = Window(size: Size(width: 80, height: 24))
///     window.rootViewController = container
///     window.makeKeyAndVisible()
///     print(window.render().plainText())
@MainActor
open class Window: View {
  /// The clock transitions in this window run on.
  public let clock: AnimationClock

  /// Whether the window was made visible and is not hidden.
  public private(set) var isVisible = false

  /// Whether ``makeKeyAndVisible()`` was called.
  public private(set) var isKeyWindow = false

  /// The characters the window is shown with; views that have a plain-ASCII form of their content
  /// read it while drawing (a ``TerminalApplication`` sets it from its terminal).
  public var charset: Charset = .unicode

  /// Creates a hidden window of the given size.
  public init(size: Size, clock: AnimationClock = AnimationClock()) {
    self.clock = clock
    super.init(frame: Rect(origin: .zero, size: size))
  }

  /// Creates a hidden window with a frame, as `UIWindow(frame:)` does.
  public override convenience init(frame: Rect) {
    self.init(size: frame.size)
    self.frame.origin = frame.origin
  }

  /// Creates a hidden window of no size, as `UIWindow()` does; give it a size with ``resize(to:)``.
  public convenience init() {
    self.init(size: .zero)
  }

  /// Whether the window is hidden; hiding a visible window makes its controllers disappear.
  override open var isHidden: Bool {
    get { !isVisible }
    set { newValue ? hide() : show() }
  }

  /// The controller whose view fills the window.
  ///
  /// Replacing it while the window is visible makes the old one disappear and the new one appear.
  public var rootViewController: ViewController? {
    didSet {
      guard oldValue !== rootViewController else { return }
      if let old = oldValue, let oldView = old.viewIfLoaded, oldView.superview === self {
        if isVisible { old.beginAppearance(false, animated: false) }
        oldView.removeFromSuperview()
        if isVisible { old.endAppearance() }
      }
      guard let root = rootViewController else { return }
      if isVisible {
        present(root)
      } else {
        install(root)
      }
    }
  }

  /// Makes the window key and visible; the root controller appears.
  public func makeKeyAndVisible() {
    isKeyWindow = true
    show()
  }

  private func show() {
    guard !isVisible else { return }
    isVisible = true
    if let root = rootViewController { present(root) }
  }

  private func hide() {
    guard isVisible else { return }
    guard let root = rootViewController else {
      isVisible = false
      return
    }
    root.beginAppearance(false, animated: false)
    isVisible = false
    root.endAppearance()
  }

  /// Puts the root controller's view in the window and runs its appearance.
  private func present(_ root: ViewController) {
    root.beginAppearance(true, animated: false)
    install(root)
    root.sendIsAppearing()
    root.endAppearance()
  }

  /// Puts the root controller's view in the window, sized to it, without appearance callbacks.
  private func install(_ root: ViewController) {
    let rootView = root.view
    guard rootView.superview !== self else { return }
    rootView.frame = bounds
    rootView.autoresizingMask = .flexibleSize
    addSubview(rootView)
  }

  /// Changes the window's size (a terminal resize, the old "rotation").
  ///
  /// Every controller in the tree gets ``ViewController/viewWillTransition(to:with:)``, parent
  /// first; then the views re-lay out to their containers' bounds; then the coordinator's
  /// alongside animations and completions run.
  public func resize(to size: Size) {
    guard size != frame.size else { return }
    let coordinator = TransitionCoordinator(from: frame.size, to: size)
    if let root = rootViewController {
      for controller in Self.preorder(root) {
        controller.deliver(.viewWillTransition(to: size)) {
          controller.viewWillTransition(to: size, with: coordinator)
        }
      }
    }
    frame.size = size
    coordinator.finish()
  }

  /// Every controller under `root`, parent first, depth first.
  static func preorder(_ root: ViewController) -> [ViewController] {
    [root] + root.children.flatMap { preorder($0) }
  }

  /// Draws the whole view tree, including transitions in flight at the clock's current time.
  public func render() -> Canvas {
    var canvas = Canvas(size: frame.size)
    let whole = Rect(origin: .zero, size: frame.size)
    if let backgroundColor { canvas.fill(whole, style: Style(background: backgroundColor)) }
    draw(in: &canvas)
    renderSubviews(into: &canvas, origin: .zero, clip: whole)
    canvas.origin = .zero
    canvas.clip = whole
    return canvas
  }
}
