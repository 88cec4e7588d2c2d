import TunnelGeo

/// One row of a batch's input, as read: where it starts, the values that pass through to the output,
/// and its coordinate or what is wrong with it.
public struct BatchRecord: Sendable {
  /// The line (from 1) the row starts on.
  public var line: Int
  /// The row's values in input order: field texts for CSV and TSV; the raw JSON text of each member for
  /// JSON Lines and GeoJSON (a feature's properties).
  public var values: [String]
  /// For JSON rows, the members' names (CSV rows take theirs from the header).
  public var names: [String]
  /// The point the row names; nil when it has a ``problem``.
  public var coordinate: Coordinate?
  /// What is wrong with the row, as a sentence ("latitude 91 is outside -90…90").
  public var problem: String?

  public init(
    line: Int, values: [String], names: [String] = [], coordinate: Coordinate?, problem: String?
  ) {
    self.line = line
    self.values = values
    self.names = names
    self.coordinate = coordinate
    self.problem = problem
  }
}
