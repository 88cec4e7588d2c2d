import TunnelContainment

/// A label whose text is made when it is drawn, for the characters its window can show: in an
/// ASCII window the text is converted with ``ASCIIText``.
@MainActor
final class CharsetLabel: Label {
  /// Makes the text for a character set.
  var content: (Charset) -> String = { _ in "" }

  override func draw(in canvas: inout Canvas) {
    let charset = window?.charset ?? .unicode
    let made = content(charset)
    text = charset == .ascii ? ASCIIText.converted(made) : made
    super.draw(in: &canvas)
  }
}
