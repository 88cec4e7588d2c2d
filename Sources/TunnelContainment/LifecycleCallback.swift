/// One callback a view controller received, with its arguments.
///
/// Parent arguments are given by the parent's description (see ``ViewController/description``).
public enum LifecycleCallback: Hashable, Sendable, CustomStringConvertible {
  case loadView
  case viewDidLoad
  case willMove(toParent: String?)
  case didMove(toParent: String?)
  case viewWillAppear(animated: Bool)
  case viewIsAppearing(animated: Bool)
  case viewDidAppear(animated: Bool)
  case viewWillDisappear(animated: Bool)
  case viewDidDisappear(animated: Bool)
  case viewWillTransition(to: Size)
  /// The completion handler of `transition(from:to:duration:options:animations:completion:)`,
  /// recorded for the parent that started the transition.
  case transitionCompletion(finished: Bool)
  /// A ``Diagnostic`` reported at this point.
  case diagnostic(String)

  /// The callback's name without arguments, such as `viewWillAppear`.
  public var name: String {
    switch self {
    case .loadView: "loadView"
    case .viewDidLoad: "viewDidLoad"
    case .willMove: "willMove"
    case .didMove: "didMove"
    case .viewWillAppear: "viewWillAppear"
    case .viewIsAppearing: "viewIsAppearing"
    case .viewDidAppear: "viewDidAppear"
    case .viewWillDisappear: "viewWillDisappear"
    case .viewDidDisappear: "viewDidDisappear"
    case .viewWillTransition: "viewWillTransition"
    case .transitionCompletion: "completion"
    case .diagnostic: "diagnostic"
    }
  }

  /// The callback written as a call, such as `viewWillAppear(animated: true)`.
  public var description: String {
    switch self {
    case .loadView, .viewDidLoad: "\(name)()"
    case .willMove(let parent), .didMove(let parent): "\(name)(toParent: \(parent ?? "nil"))"
    case .viewWillAppear(let animated), .viewIsAppearing(let animated),
      .viewDidAppear(let animated), .viewWillDisappear(let animated),
      .viewDidDisappear(let animated):
      "\(name)(animated: \(animated))"
    case .viewWillTransition(let size): "viewWillTransition(to: \(size))"
    case .transitionCompletion(let finished): "transition completion(finished: \(finished))"
    case .diagnostic(let message): "diagnostic: \(message)"
    }
  }
}
