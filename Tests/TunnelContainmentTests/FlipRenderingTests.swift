import Testing

@testable import TunnelContainment

/// A view that fills its bounds with one character.
@MainActor
final class Filled: View {
  let character: Character

  init(_ character: Character) {
    self.character = character
    super.init()
  }

  override func draw(in canvas: inout Canvas) {
    canvas.fill(bounds, with: character)
  }
}

/// A controller whose view is filled with one character.
@MainActor
final class FilledController: ViewController {
  let character: Character

  init(_ character: Character) {
    self.character = character
    super.init()
    title = String(character)
  }

  override func loadView() { view = Filled(character) }
}

@MainActor
@Suite("Flip frames")
struct FlipRenderingTests {
  /// The frames before, half-way through and after a 0.2 s linear flip of a container whose
  /// old child is all "A" and new child all "B", inside a parent drawn with ".".
  func frames(
    _ effect: View.AnimationOptions, at fraction: Double = 0.5
  ) -> (
    before: Canvas, middle: Canvas, after: Canvas, area: Rect
  ) {
    let parent = Container()
    let window = visibleWindow(parent)
    let backdrop = Filled(".")
    backdrop.frame = parent.view.bounds
    parent.view.insertSubview(backdrop, at: 0)
    let old = FilledController("A")
    let new = FilledController("B")
    parent.add(old)
    new.view.frame = parent.containerView.bounds
    parent.addChild(new)
    let before = window.render()
    parent.transition(
      from: old, to: new, duration: 0.2, options: [effect, .curveLinear], animations: nil, completion: nil)
    window.clock.advance(by: 0.2 * fraction)
    let middle = window.render()
    window.clock.runUntilIdle()
    return (before, middle, window.render(), parent.containerView.frame)
  }

  /// The rows (in the container's coordinates) where `character` shows inside `area`.
  func rows(of character: Character, in canvas: Canvas, area: Rect) -> [Int] {
    (area.minY..<area.maxY).filter { y in
      (area.minX..<area.maxX).contains { canvas[$0, y].character == character }
    }.map { $0 - area.minY }
  }

  /// Whether the cells outside `area` are the same in both canvases.
  func sameOutside(_ first: Canvas, _ second: Canvas, area: Rect) -> Bool {
    (0..<first.size.height).allSatisfy { y in
      (0..<first.size.width).allSatisfy { x in
        area.contains(Point(x: x, y: y)) || first[x, y] == second[x, y]
      }
    }
  }

  @Test(
    "Mid-flip, only the container's area changes",
    arguments: [
      View.AnimationOptions.transitionFlipFromTop, .transitionFlipFromBottom, .transitionFlipFromLeft,
      .transitionFlipFromRight,
    ])
  func onlyTheContainerChanges(effect: View.AnimationOptions) {
    let (before, middle, after, area) = frames(effect)
    #expect(sameOutside(before, middle, area: area) && sameOutside(before, after, area: area))
    #expect(middle != before && middle != after)
    #expect(rows(of: "A", in: after, area: area).isEmpty && rows(of: "B", in: before, area: area).isEmpty)
  }

  @Test("A flip from the top folds from the top edge down; one from the bottom from the bottom edge up")
  func topAndBottomSweepOppositeWays() {
    let top = frames(.transitionFlipFromTop)
    let bottom = frames(.transitionFlipFromBottom)
    let area = top.area
    #expect(top.middle != bottom.middle)
    // From the top: the new view has come in above the fold, the old one is still below it.
    let topNew = rows(of: "B", in: top.middle, area: area)
    let topOld = rows(of: "A", in: top.middle, area: area)
    #expect(!topNew.isEmpty && !topOld.isEmpty)
    #expect(topNew.first == 0 && topOld.last == area.height - 1)
    #expect(topNew.max()! < topOld.min()!)
    // From the bottom: the other way round.
    let bottomNew = rows(of: "B", in: bottom.middle, area: area)
    let bottomOld = rows(of: "A", in: bottom.middle, area: area)
    #expect(!bottomNew.isEmpty && !bottomOld.isEmpty)
    #expect(bottomOld.first == 0 && bottomNew.last == area.height - 1)
    #expect(bottomOld.max()! < bottomNew.min()!)
    // Half-way, each view has half the rows; the fold goes on sweeping the same way.
    #expect(topNew.count == area.height / 2 && bottomNew.count == area.height / 2)
    let laterTop = frames(.transitionFlipFromTop, at: 0.75)
    let laterBottom = frames(.transitionFlipFromBottom, at: 0.75)
    #expect(rows(of: "B", in: laterTop.middle, area: area).count > topNew.count)
    #expect(rows(of: "B", in: laterTop.middle, area: area).first == 0)
    #expect(rows(of: "B", in: laterBottom.middle, area: area).count > bottomNew.count)
    #expect(rows(of: "B", in: laterBottom.middle, area: area).last == area.height - 1)
  }

  @Test("Each half of a flip is seen in perspective: narrower towards the container's edge")
  func perspective() {
    let (_, middle, _, area) = frames(.transitionFlipFromTop, at: 0.25)
    func width(row: Int) -> Int {
      (area.minX..<area.maxX).filter { "AB".contains(middle[$0, area.minY + row].character) }.count
    }
    // The new view's rows (above the fold) widen towards the fold; the old ones narrow away from it.
    let newRows = rows(of: "B", in: middle, area: area)
    let oldRows = rows(of: "A", in: middle, area: area)
    #expect(width(row: newRows.first!) < width(row: newRows.last!))
    #expect(width(row: oldRows.first!) > width(row: oldRows.last!))
    #expect(width(row: oldRows.last!) < area.width)
  }

  @Test(
    "A flip frame squeezes a line of text by its blanks: every letter stays, in order, while the line fits",
    arguments: [
      View.AnimationOptions.transitionFlipFromTop, .transitionFlipFromBottom, .transitionFlipFromLeft,
      .transitionFlipFromRight,
    ], [0.25, 0.5])
  func squeezeKeepsLetters(effect: View.AnimationOptions, fraction: Double) {
    let text = "Skjern, Midtjylland, Denmark"
    // A flip from the top or bottom narrows each row it shows: every row holds the text. One from the
    // side narrows the line itself: a single row.
    let vertical = effect == .transitionFlipFromTop || effect == .transitionFlipFromBottom
    let size = Size(width: 60, height: vertical ? 5 : 1)
    var image = Canvas(size: size)
    for y in 0..<size.height {
      for (offset, character) in text.enumerated() { image[16 + offset, y] = Cell(character) }
    }
    let blank = Canvas(size: size)
    let frame = TransitionState.frame(
      effect: effect, progress: fraction, size: size, from: image, to: blank, base: blank)
    var rows = 0
    for y in 0..<size.height {
      let row = String((0..<size.width).map { frame[$0, y].character })
      let letters = row.filter { $0 != " " }
      guard !letters.isEmpty else { continue }
      rows += 1
      #expect(letters == text.filter { $0 != " " }, "row \(y) at \(fraction): '\(row)'")
    }
    #expect(rows >= 1, "the text shows at \(fraction)")
  }

  @Test("Squeezing drops repeated blanks first, then single ones, then the rest evenly")
  func squeezeOrder() {
    let cells = Array("  ab  c d  ").map { Cell($0) }
    let kept = { (width: Int) in
      String(TransitionState.squeezed(cells, into: width).map { cells[$0].character })
    }
    #expect(kept(11) == "  ab  c d  ")
    #expect(kept(7) == "ab c d ")
    #expect(kept(4) == "abcd")
    #expect(kept(2).count == 2)
    #expect(kept(0).isEmpty)
  }
}
