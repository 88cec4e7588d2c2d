extension View {
  /// Draws this view and its visible subviews into `canvas`.
  ///
  /// - Parameters:
  ///   - offset: The absolute position of the superview's top-left cell.
  ///   - clip: The absolute cells the view may draw into (its superview's visible area).
  func render(into canvas: inout Canvas, offset: Point, clip: Rect) {
    guard !isHidden else { return }
    let absolute = Rect(origin: offset + frame.origin, size: frame.size)
    let visible = clip.intersection(absolute)
    guard !visible.isEmpty else { return }
    canvas.origin = absolute.origin
    canvas.clip = visible
    if let backgroundColor { canvas.fill(bounds, style: Style(background: backgroundColor)) }
    draw(in: &canvas)
    renderSubviews(into: &canvas, origin: absolute.origin, clip: visible)
  }

  /// Draws the subviews, and any transition in flight among them, over this view.
  func renderSubviews(into canvas: inout Canvas, origin: Point, clip: Rect) {
    let effects = activeTransitions.filter(\.drawsViews)
    let drawnByEffects = Set(
      effects.flatMap { [ObjectIdentifier($0.fromView), ObjectIdentifier($0.toView)] })
    for subview in subviews where !drawnByEffects.contains(ObjectIdentifier(subview)) {
      subview.render(into: &canvas, offset: origin, clip: clip)
    }
    for effect in effects {
      effect.render(into: &canvas, origin: origin, clip: clip)
    }
  }
}
