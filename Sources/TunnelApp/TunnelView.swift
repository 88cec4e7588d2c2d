import TunnelContainment

/// The Tunnel's view: two container views of 42 % of the height each, the radar in the gap.
@MainActor
final class TunnelView: View {
  let top: View
  let bottom: View
  let radar: Label

  init(top: View, bottom: View, radar: Label) {
    self.top = top
    self.bottom = bottom
    self.radar = radar
    super.init()
    for view in [top, bottom, radar] { addSubview(view) }
  }

  override func layoutSubviews() {
    let height = bounds.height
    let share = Int((Double(height) * TunnelViewController.containerShare).rounded())
    top.frame = Rect(x: 0, y: 0, width: bounds.width, height: share)
    bottom.frame = Rect(x: 0, y: height - share, width: bounds.width, height: share)
    let gap = max(0, height - 2 * share)
    radar.frame = Rect(x: 0, y: share + max(0, gap - 1) / 2, width: bounds.width, height: min(1, gap))
    // Each child's view fills its container view (two of them while a flip runs).
    for container in [top, bottom] {
      for child in container.subviews { child.frame = container.bounds }
    }
  }
}
