/// The members of a GeoJSON input's FeatureCollection that GeoJSON output keeps (its `name`, `crs` and
/// `bbox`), each as raw JSON, in the order and on the side of `features` they came.
///
/// A name is kept once: a member given again (before `features` and after, say) is left out, so that
/// the output's collection never holds a name twice.
public struct CollectionMembers: Sendable {
  /// The members before `features`: written in the output's opening.
  public var before: [(name: String, json: String)] = []
  /// The members after `features`: written in its closing.
  public var after: [(name: String, json: String)] = []

  public init(before: [(name: String, json: String)] = [], after: [(name: String, json: String)] = []) {
    self.before = before
    self.after = after
  }

  /// `after` without the names `before` already has (or that come twice in it).
  var afterNotBefore: [(name: String, json: String)] {
    var seen = Set(before.map(\.name))
    return after.filter { seen.insert($0.name).inserted }
  }
}
