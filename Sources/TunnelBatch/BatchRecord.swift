import TunnelGeo

/// One row of a batch's input, as read: where it starts, the values that pass through to the output,
/// and its coordinate or what is wrong with it.
public struct BatchRecord: Sendable {
  /// The line (from 1) the row starts on.
  public var line: Int
  /// The point the row names; nil when it has a ``problem``.
  public var coordinate: Coordinate?
  /// For a good row of a plain CSV or TSV line (see ``DelimitedReader/nextKeepingPlainLine()``), in
  /// place of ``values``: where the line is in the input as read, and once
  /// ``BatchInput/keepLine(of:in:)`` has moved it, where it is in its chunk's lines.
  var plainLine: Range<Int>? = nil
  /// The values, names and problem; nil when there are none (a plain line), so that the rows of a chunk
  /// are copied and freed without counting references.
  private var texts: Texts?

  private final class Texts: Sendable {
    let values: [String]
    let names: [String]
    let problem: String?
    let geometry: String?

    init(values: [String], names: [String], problem: String?, geometry: String?) {
      self.values = values
      self.names = names
      self.problem = problem
      self.geometry = geometry
    }
  }

  /// The row's values in input order: field texts for CSV and TSV; the raw JSON text of each member for
  /// JSON Lines and GeoJSON (a feature's properties).
  public var values: [String] {
    get { texts?.values ?? [] }
    set { texts = Texts(values: newValue, names: names, problem: problem, geometry: geometry) }
  }

  /// For JSON rows, the members' names (CSV rows take theirs from the header).
  public var names: [String] {
    get { texts?.names ?? [] }
    set { texts = Texts(values: values, names: newValue, problem: problem, geometry: geometry) }
  }

  /// What is wrong with the row, as a sentence ("latitude 91 is outside -90…90").
  public var problem: String? {
    get { texts?.problem }
    set { texts = Texts(values: values, names: names, problem: newValue, geometry: geometry) }
  }

  /// For GeoJSON input, the feature's geometry as it came (raw JSON, whitespace between its tokens
  /// removed), written as it is to GeoJSON output; nil for other input and features without one.
  public var geometry: String? {
    get { texts?.geometry }
    set { texts = Texts(values: values, names: names, problem: problem, geometry: newValue) }
  }

  public init(
    line: Int, values: [String], names: [String] = [], coordinate: Coordinate?, problem: String?,
    geometry: String? = nil
  ) {
    self.line = line
    self.coordinate = coordinate
    texts = Texts(values: values, names: names, problem: problem, geometry: geometry)
  }

  /// A good row of a plain line.
  init(line: Int, plainLine: Range<Int>, coordinate: Coordinate) {
    self.line = line
    self.coordinate = coordinate
    self.plainLine = plainLine
  }
}

extension BatchRecord {
  /// The row's values, split from its plain line in `lines` if it has one.
  func values(lines: UnsafeBufferPointer<UInt8>, separator: UInt8) -> [String] {
    guard let plainLine else { return values }
    return DelimitedReader.fields(
      ofPlain: UnsafeBufferPointer(rebasing: lines[plainLine]), separator: separator)
  }
}
