/// A transition between two children's views in flight, and how its frames look.
///
/// The effect is drawn inside the container view only: a flip sweeps a fold across the
/// container's area from the edge it starts at (with a little perspective), a curl moves a
/// page edge across it, a cross-dissolve swaps cells in a fixed scattered order. Cells
/// outside the container are never touched.
@MainActor
final class TransitionState {
  let container: View
  let fromView: View
  let toView: View
  let options: View.AnimationOptions
  let start: Double
  let duration: Double
  let clock: AnimationClock

  init(
    container: View, fromView: View, toView: View, options: View.AnimationOptions,
    duration: Double, clock: AnimationClock
  ) {
    self.container = container
    self.fromView = fromView
    self.toView = toView
    self.options = options
    self.start = clock.now
    self.duration = duration
    self.clock = clock
  }

  /// Whether the transition has completed, on time or cut short.
  private(set) var isComplete = false
  /// The end of the transition (views swapped, completion, did-callbacks), given whether it
  /// ran its full duration.
  var onComplete: (@MainActor (_ finished: Bool) -> Void)?
  /// The clock item that completes the transition on time.
  var scheduledID: Int?

  /// Completes the transition now, once: on time (`finished`), or cut short.
  func complete(finished: Bool) {
    guard !isComplete else { return }
    isComplete = true
    if let scheduledID { clock.cancel(scheduledID) }
    container.activeTransitions.removeAll { $0 === self }
    let end = onComplete
    onComplete = nil
    end?(finished)
  }

  /// Completes at once, cut short, every transition in flight whose container view is `view`
  /// or inside it — and, with `includingOwnPlace`, the one `view` takes part in as a child's
  /// view. Completions may start new transitions; those are completed too.
  static func completeAll(under view: View, includingOwnPlace: Bool) {
    // Each round completes at least one transition; the bound only guards against completions
    // that start a new transition in the same place forever.
    for _ in 0..<1_000 {
      var found: [TransitionState] = []
      if includingOwnPlace, let superview = view.superview {
        found += superview.activeTransitions.filter { $0.fromView === view || $0.toView === view }
      }
      collect(in: view, into: &found)
      guard let first = found.first else { return }
      first.complete(finished: false)
    }
  }

  private static func collect(in view: View, into found: inout [TransitionState]) {
    found += view.activeTransitions
    for subview in view.subviews { collect(in: subview, into: &found) }
  }

  /// Linear progress from 0 to 1.
  var progress: Double {
    duration > 0 ? min(1, max(0, (clock.now - start) / duration)) : 1
  }

  /// Whether the effect draws the two views itself (otherwise they draw as usual).
  var drawsViews: Bool { options.transition != .transitionNone }

  /// Draws the transition's current frame over the container, whose top-left cell is at `origin`.
  func render(into canvas: inout Canvas, origin: Point, clip: Rect) {
    let size = container.frame.size
    guard !size.isEmpty else { return }
    var base = Canvas(size: size)
    for y in 0..<size.height {
      for x in 0..<size.width { base[x, y] = canvas[origin.x + x, origin.y + y] }
    }
    let whole = Rect(origin: .zero, size: size)
    var fromImage = base
    if fromView.superview === container { fromView.render(into: &fromImage, offset: .zero, clip: whole) }
    var toImage = base
    if toView.superview === container { toView.render(into: &toImage, offset: .zero, clip: whole) }
    let t = options.eased(progress)
    let frame = Self.frame(
      effect: options.transition, progress: t, size: size, from: fromImage, to: toImage, base: base)
    canvas.origin = .zero
    canvas.clip = clip
    for y in 0..<size.height {
      for x in 0..<size.width {
        canvas.put(frame[x, y], at: Point(x: origin.x + x, y: origin.y + y))
      }
    }
  }

  /// One frame of an effect at eased progress `t`.
  static func frame(
    effect: View.AnimationOptions, progress t: Double, size: Size, from: Canvas, to: Canvas,
    base: Canvas
  ) -> Canvas {
    var out = base
    let width = size.width
    let height = size.height
    switch effect {
    case .transitionCrossDissolve:
      for y in 0..<height {
        for x in 0..<width {
          out[x, y] = scatter(x, y) < t ? to[x, y] : from[x, y]
        }
      }
    case .transitionCurlUp, .transitionCurlDown:
      let up = effect == .transitionCurlUp
      let edge = Int((Double(height) * (up ? 1 - t : t)).rounded())
      for y in 0..<height {
        for x in 0..<width {
          let showsNew = up ? y >= edge : y < edge
          out[x, y] = showsNew ? to[x, y] : from[x, y]
        }
      }
      let curlRow = up ? edge - 1 : edge
      if t > 0, t < 1, curlRow >= 0, curlRow < height {
        for x in 0..<width { out[x, curlRow] = Cell("~", style: Style(dim: true)) }
      }
    case .transitionFlipFromTop, .transitionFlipFromBottom:
      fold(
        into: &out, progress: t, length: height, across: width, from: from, to: to,
        fromStart: effect == .transitionFlipFromTop, vertical: true)
    case .transitionFlipFromLeft, .transitionFlipFromRight:
      fold(
        into: &out, progress: t, length: width, across: height, from: from, to: to,
        fromStart: effect == .transitionFlipFromLeft, vertical: false)
    default:
      out = t < 1 ? from : to
    }
    return out
  }

  /// Draws a flip: a fold line sweeps across the container from the edge the flip starts at
  /// (the top edge down for a flip from the top, the bottom edge up for one from the bottom).
  /// Behind the fold the new view turns into place, ahead of it the old view turns away; each
  /// is squeezed into its part and seen at an angle — full width at the fold, narrower
  /// towards the container's edge, the more so the more it is squeezed.
  private static func fold(
    into out: inout Canvas, progress t: Double, length: Int, across: Int, from: Canvas, to: Canvas,
    fromStart: Bool, vertical: Bool
  ) {
    let swept = min(length, max(0, Int((Double(length) * t).rounded())))
    let line = fromStart ? swept : length - swept
    // The part before the line and the part after it; the fold is at the end of the first
    // and at the start of the second.
    face(
      into: &out, image: fromStart ? to : from, range: 0..<line, foldAtStart: false, length: length,
      across: across, vertical: vertical)
    face(
      into: &out, image: fromStart ? from : to, range: line..<length, foldAtStart: true,
      length: length, across: across, vertical: vertical)
  }

  /// Draws all of `image` squeezed into `range` along the flip's axis, in perspective.
  ///
  /// Each line of cells is squeezed on its own (``squeezed(_:into:)``): blank cells go before any
  /// letter does, so a line of text narrows by its margins and its gaps and reads whole for as
  /// long as it fits.
  private static func face(
    into out: inout Canvas, image: Canvas, range: Range<Int>, foldAtStart: Bool, length: Int,
    across: Int, vertical: Bool
  ) {
    let band = range.count
    guard band > 0 else { return }
    let squeeze = Double(band) / Double(length)
    let tilt = 0.4 * (1 - squeeze * squeeze).squareRoot()
    // The cells kept of a line of the image when it is squeezed to a width, by line and width.
    var kept: [Int: [Int: [Int]]] = [:]
    func keptCells(line: Int, lineLength: Int, width: Int, cell: (Int) -> Cell) -> [Int] {
      if let found = kept[line]?[width] { return found }
      let cells = (0..<lineLength).map(cell)
      let found = squeezed(cells, into: width)
      kept[line, default: [:]][width] = found
      return found
    }
    for position in range {
      let inBand = position - range.lowerBound
      let relative = (Double(inBand) + 0.5) / Double(band)
      let distance = foldAtStart ? relative : 1 - relative
      let extent = max(1, Int((Double(across) * (1 - tilt * distance)).rounded()))
      let offset = (across - extent) / 2
      if vertical {
        // Rows are the flip's lines: a row is shown or left out whole; each row shown narrows.
        let source = inBand * length / band
        let columns = keptCells(line: source, lineLength: across, width: extent) { image[$0, source] }
        for index in offset..<(offset + extent) {
          out[index, position] = image[columns[index - offset], source]
        }
      } else {
        // Columns are the flip's lines: each row of the image narrows into the band on its own.
        for index in offset..<(offset + extent) {
          let row = (index - offset) * across / extent
          let columns = keptCells(line: row, lineLength: length, width: band) { image[$0, row] }
          out[position, index] = image[columns[inBand], row]
        }
      }
    }
  }

  /// Which of `cells` to keep, in order, to show them in `width` cells: blank cells in a run of
  /// blanks go first (one of each run stays), then single blanks, then the rest evenly spread.
  static func squeezed(_ cells: [Cell], into width: Int) -> [Int] {
    let count = cells.count
    guard width < count else { return Array(0..<count) }
    guard width > 0 else { return [] }
    var drop = count - width
    var dropped = [Bool](repeating: false, count: count)
    func isBlank(_ index: Int) -> Bool { cells[index].character == " " && cells[index].dots == 0 }
    // Blanks after another blank: margins and wide gaps narrow first, evenly across the line.
    let repeats = (0..<count).filter { $0 > 0 && isBlank($0) && isBlank($0 - 1) }
    let singles = (0..<count).filter { isBlank($0) && !($0 > 0 && isBlank($0 - 1)) }
    for group in [repeats, singles] where drop > 0 {
      let taken = min(drop, group.count)
      for step in 0..<taken { dropped[group[(step * group.count) / taken]] = true }
      drop -= taken
    }
    if drop > 0 {
      let rest = (0..<count).filter { !dropped[$0] }
      for step in 0..<drop { dropped[rest[(step * rest.count) / drop]] = true }
    }
    return (0..<count).filter { !dropped[$0] }
  }

  /// A fixed pseudo-random number in [0, 1) for a cell, so dissolves are deterministic.
  static func scatter(_ x: Int, _ y: Int) -> Double {
    var hash = UInt64(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
    hash ^= hash >> 13
    hash = hash &* 0x5bd1_e995
    hash ^= hash >> 15
    return Double(hash % 10_000) / 10_000
  }
}
