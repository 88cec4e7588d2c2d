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
    let contents: Contents

    init(_ contents: Contents) { self.contents = contents }
  }

  private struct Contents: Sendable {
    var values: [String] = []
    var names: [String] = []
    var problem: String?
    var geometry: String?
    var source: String?
    var feature: Feature?
  }

  private var contents: Contents { texts?.contents ?? Contents() }
  // The getters below read through `texts` without making an empty `Contents` for a plain line: making
  // and dropping one for every row (as `problem` is asked of every row) was a release of each of its
  // members, 3 % of a batch of one cheap field.

  private mutating func change(_ body: (inout Contents) -> Void) {
    var changed = contents
    body(&changed)
    texts = Texts(changed)
  }

  /// The row's values in input order: field texts for CSV and TSV; the raw JSON text of each member for
  /// JSON Lines and GeoJSON (a feature's properties).
  public var values: [String] {
    get { texts?.contents.values ?? [] }
    set { change { $0.values = newValue } }
  }

  /// For JSON rows, the members' names (CSV rows take theirs from the header).
  public var names: [String] {
    get { texts?.contents.names ?? [] }
    set { change { $0.names = newValue } }
  }

  /// What is wrong with the row, as a sentence ("latitude 91 is outside -90…90").
  public var problem: String? {
    get { texts?.contents.problem }
    set { change { $0.problem = newValue } }
  }

  /// For GeoJSON input, the feature's geometry as it came (raw JSON, whitespace between its tokens
  /// removed), written as it is to GeoJSON output; nil for other input and features without one.
  public var geometry: String? {
    get { texts?.contents.geometry }
    set { change { $0.geometry = newValue } }
  }

  /// For a bad row of JSON input that an output may not hold whole otherwise, the row's text as it came
  /// (a JSON Lines line whose members could not be read; any bad GeoJSON feature), written as `input`
  /// (its column or member); nil for every other row, and for one that is not UTF-8 (it would be changed).
  public var source: String? {
    get { texts?.contents.source }
    set { change { $0.source = newValue } }
  }

  /// For GeoJSON input, what the feature holds besides its properties and geometry; nil for other input
  /// and for a feature that could not be read.
  public var feature: Feature? {
    get { texts?.contents.feature }
    set { change { $0.feature = newValue } }
  }

  /// The members of a GeoJSON feature that are not properties, each as raw JSON, so that every output
  /// can carry them: CSV, TSV and JSON Lines as columns or members, GeoJSON as the feature's own.
  public struct Feature: Sendable, Equatable {
    /// The feature's `id` (a string or a number, RFC 7946 §3.2).
    public var id: String?
    /// The feature's `bbox`.
    public var bbox: String?
    /// The Point's latitude and longitude as the input wrote them (`56.50` stays `56.50`); nil when the
    /// geometry is not a Point of two numbers.
    public var latitude: String?
    public var longitude: String?

    public init(id: String? = nil, bbox: String? = nil, latitude: String? = nil, longitude: String? = nil) {
      self.id = id
      self.bbox = bbox
      self.latitude = latitude
      self.longitude = longitude
    }
  }

  public init(
    line: Int, values: [String], names: [String] = [], coordinate: Coordinate?, problem: String?,
    geometry: String? = nil, source: String? = nil, feature: Feature? = nil
  ) {
    self.line = line
    self.coordinate = coordinate
    texts = Texts(
      Contents(
        values: values, names: names, problem: problem, geometry: geometry, source: source, feature: feature))
  }

  /// A good row of a plain line.
  init(line: Int, plainLine: Range<Int>, coordinate: Coordinate) {
    self.line = line
    self.coordinate = coordinate
    self.plainLine = plainLine
  }

  /// A row whose text (a plain line, a JSON line, a GeoJSON feature) is not read yet (``isUnread``): it is
  /// read by ``LineRows`` once the text is in its chunk's lines.
  init(line: Int, unreadPlainLine: Range<Int>) {
    self.line = line
    plainLine = unreadPlainLine
  }

  /// Whether the row is a plain line (or JSON line, or GeoJSON feature) whose fields have not been read
  /// yet: neither good nor bad until ``ChunkReader`` reads it. (Read, a plain line is a good row, with its
  /// coordinate.)
  var isUnread: Bool { plainLine != nil && coordinate == nil }
}

extension BatchRecord {
  /// The row's values, split from its plain line in `lines` if it has one.
  func values(lines: UnsafeBufferPointer<UInt8>, separator: UInt8) -> [String] {
    guard let plainLine else { return values }
    return DelimitedReader.fields(
      ofPlain: UnsafeBufferPointer(rebasing: lines[plainLine]), separator: separator)
  }
}
