import TunnelContainment
import TunnelMaps

/// How a terminal shows a map's marker.
extension MapAnnotation {
  /// The marker's character: a face for the digger, a heavy X for the target.
  public func glyph(_ charset: Charset) -> Character {
    switch (self, charset) {
    case (.digger, .unicode): "☻"
    case (.digger, .ascii): "@"
    case (.target, .unicode): "✖"
    case (.target, .ascii): "X"
    }
  }

  /// The marker's colour.
  public var color: Color {
    switch self {
    case .digger: .brightYellow
    case .target: .brightRed
    }
  }
}
