/// What open water a marine feature is: one of the oceans, or a smaller sea within one.
///
/// Natural Earth classes each marine polygon (its `featurecla`); the source ``MarineLayer`` is built
/// from keeps the names alone, so the class of its seven oceans is kept here, by their whole names.
///
/// ```swift
/// MarineKind(featureNamed: "South Pacific Ocean")  // .ocean
/// MarineKind(featureNamed: "Tasman Sea")           // .sea
/// ```
public enum MarineKind: Sendable, Hashable {
  /// An ocean (Natural Earth splits the Atlantic and the Pacific at the equator).
  case ocean
  /// A sea, gulf, bay, strait or channel: part of an ocean, with a name of its own.
  case sea

  /// The marine layer's features that Natural Earth classes as oceans.
  public static let oceanNames: Set<String> = [
    "Arctic Ocean", "Southern Ocean", "North Atlantic Ocean", "South Atlantic Ocean", "North Pacific Ocean",
    "South Pacific Ocean", "Indian Ocean",
  ]

  /// The kind of the marine feature named `name` (a name ``MarineLayer/name(_:)`` gives).
  public init(featureNamed name: String) {
    self = Self.oceanNames.contains(name) ? .ocean : .sea
  }
}
