extension ViewController {
  /// Adds `child` as a child of this controller.
  ///
  /// If `child` has another parent it is removed from it first (`willMove(toParent: nil)`,
  /// its view taken out, ``removeFromParent()``). Then `child.willMove(toParent: self)` is
  /// sent and `child` joins ``children``. No appearance callbacks are sent unless the child's
  /// view is already in this controller's visible view tree. Adding the view and calling
  /// ``didMove(toParent:)`` is the container's job.
  ///
  /// Adding a controller that is already a child is a no-op **(pinned)**. Adding a
  /// controller to itself or to one of its descendants, or one whose view sits under another
  /// controller's view, is a hierarchy inconsistency: reported, and nothing changes.
  public func addChild(_ child: ViewController) {
    if child.parent === self { return }
    var ancestor: ViewController? = self
    while let current = ancestor {
      if current === child {
        Diagnostics.report(
          .hierarchyInconsistency,
          "child view controller: \(child) cannot be added to \(self): it is the parent or an ancestor of it")
        return
      }
      ancestor = current.parent
    }
    if let oldParent = child.parent {
      child.willMove(toParent: nil)
      if let childView = child.viewIfLoaded, childView.superview?.nearestController === oldParent {
        childView.removeFromSuperview()
      }
      child.removeFromParent()
    }
    if let host = child.viewIfLoaded?.superview?.nearestController, host !== self {
      Diagnostics.report(
        .hierarchyInconsistency,
        "child view controller: \(child) should have parent view controller: \(self) but actual parent is: \(host)"
      )
      return
    }
    child.movingFromParent = false
    child.deliver(.willMove(toParent: description)) { child.willMove(toParent: self) }
    children.append(child)
    child.parent = self
    child.movingToParent = true
    if child.viewIfLoaded?.superview != nil, child.shouldAppearByViewMovement,
      child.viewIfLoaded?.isInVisibleWindow == true
    {
      child.appearNow()
    }
  }

  /// Removes this controller from its parent: unlinks it, then sends `didMove(toParent: nil)`.
  ///
  /// Call `willMove(toParent: nil)` and take the view out of the container before this.
  /// Without a parent it does nothing.
  public func removeFromParent() {
    guard let parent else { return }
    parent.children.removeAll { $0 === self }
    self.parent = nil
    movingToParent = false
    if appearanceState == .disappeared { movingFromParent = false }
    deliver(.didMove(toParent: nil)) { didMove(toParent: nil) }
  }

  /// The hierarchy inconsistency adding `view` under `superview` would cause, if any.
  ///
  /// The nearest ancestor view that belongs to a controller must belong to the parent of each
  /// controller whose view is added. Trees not yet under any controller's view are checked
  /// when they are attached **(pinned)**.
  static func inconsistency(adding view: View, to superview: View) -> String? {
    guard let host = superview.nearestController else { return nil }
    for controller in view.topmostControllers() {
      if let parent = controller.parent, parent !== host {
        return
          "child view controller: \(controller) should have parent view controller: \(parent) but actual parent is: \(host)"
      }
    }
    return nil
  }
}
