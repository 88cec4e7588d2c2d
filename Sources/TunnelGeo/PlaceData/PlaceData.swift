import TunnelSystem

/// Tunnel's bundled place data: one folder of memory-mapped layer files, each opened on first use.
///
/// ```swift
/// let data = try PlaceData()  // finds Data/ (see PlaceDataLocation)
/// let places = try data.places()
/// places.matches(forName: "Skjern").first.map { places.place(at: $0.place).population }  // 7145
/// ```
///
/// Opening a layer maps its file and checks its header, section table and header checksum; nothing
/// is parsed or copied, so a command that needs only places never touches the time zones, and opening
/// every layer takes well under a millisecond. Each block of a file's content is checked against its
/// own checksum the first time it is read, and ``checkIntact()`` reports a damaged one; ``verify()``
/// reads every byte and checks them all. A `PlaceData` is `Sendable`: share one across threads; layers stay mapped as long
/// as anyone holds them.
public final class PlaceData: Sendable {
  /// The folder the layers are read from.
  public let directory: String
  /// The layers opened so far, one typed slot each: a geocoder asks for several layers per query, so
  /// asking costs a lock and a field, no lookup by name and no cast.
  private let opened = Locked(OpenedLayers())
  /// Raised by the first layer file to find a damaged block.
  private let damage = DamageSignal()

  private struct OpenedLayers: Sendable {
    var places: PlaceLayer?
    var countries: CountryLayer?
    var marine: MarineLayer?
    var coastlineHigh: CoastlineLayer?
    var coastlineLow: CoastlineLayer?
    var timeZones: TimeZoneLayer?
    var islands: IslandLayer?
    var lakes: LakeLayer?
    var regions: RegionLayer?
    var subregions: SubregionLayer?
    /// The files of the layers above, in the order they were opened.
    var files: [DataFile] = []
  }

  /// The layer files, in the order ``verify()`` checks them.
  public static let fileNames = [
    "places.tunnel", "countries.tunnel", "marine.tunnel", "coastline-h.tunnel", "coastline-l.tunnel",
    "timezones.tunnel", "islands.tunnel", "regions.tunnel", "lakes.tunnel",
    "subregions.tunnel",
  ]

  /// Uses the data folder at `directory`, or finds one (``PlaceDataLocation/find(explicit:environment:)``).
  ///
  /// Nothing is opened yet; a missing or damaged layer is reported when it is first asked for.
  public init(directory: String? = nil) throws(PlaceDataError) {
    self.directory = try PlaceDataLocation.find(explicit: directory)
  }

  /// Uses exactly this folder, without searching or checking that it exists.
  public init(uncheckedDirectory directory: String) {
    self.directory = directory
  }

  /// The layer in a slot, opening it with `make` first if no one has yet. `read` and `store` name the slot:
  /// plain closures, which the compiler inlines, where a key path would be looked up on every call.
  private func layer<Layer: Sendable>(
    _ read: (borrowing OpenedLayers) -> Layer?, _ store: (inout OpenedLayers, Layer) -> Void,
    _ fileName: @autoclosure () -> String, kind: String, _ make: (DataFile) throws(PlaceDataError) -> Layer
  ) throws(PlaceDataError) -> Layer {
    if let cached = opened.withLock({ read($0) }) { return cached }
    let file = try DataFile(path: directory + "/" + fileName(), expectedKind: kind, signal: damage)
    let layer = try make(file)
    return opened.withLock { cache in
      if let existing = read(cache) { return existing }
      store(&cache, layer)
      cache.files.append(file)
      return layer
    }
  }

  /// The populated places (`places.tunnel`).
  public func places() throws(PlaceDataError) -> PlaceLayer {
    try layer({ $0.places }, { $0.places = $1 }, "places.tunnel", kind: "PLCS") {
      file throws(PlaceDataError) in
      try PlaceLayer(file: file)
    }
  }

  /// The country polygons (`countries.tunnel`).
  public func countries() throws(PlaceDataError) -> CountryLayer {
    try layer({ $0.countries }, { $0.countries = $1 }, "countries.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      CountryLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// The named oceans and seas (`marine.tunnel`).
  public func marine() throws(PlaceDataError) -> MarineLayer {
    try layer({ $0.marine }, { $0.marine = $1 }, "marine.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      MarineLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// A coastline layer (`coastline-h.tunnel` or `coastline-l.tunnel`).
  public func coastline(_ resolution: CoastlineResolution) throws(PlaceDataError) -> CoastlineLayer {
    let make = { (file: DataFile) throws(PlaceDataError) in
      CoastlineLayer(polygons: try PolygonLayer(file: file), resolution: resolution)
    }
    switch resolution {
    case .high:
      return try layer(
        { $0.coastlineHigh }, { $0.coastlineHigh = $1 }, resolution.fileName, kind: "POLY", make)
    case .low:
      return try layer({ $0.coastlineLow }, { $0.coastlineLow = $1 }, resolution.fileName, kind: "POLY", make)
    }
  }

  /// The time zone polygons (`timezones.tunnel`).
  public func timeZones() throws(PlaceDataError) -> TimeZoneLayer {
    try layer({ $0.timeZones }, { $0.timeZones = $1 }, "timezones.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      TimeZoneLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// The named islands (`islands.tunnel`).
  public func islands() throws(PlaceDataError) -> IslandLayer {
    try layer({ $0.islands }, { $0.islands = $1 }, "islands.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      IslandLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// The names of the lakes (`lakes.tunnel`).
  public func lakes() throws(PlaceDataError) -> LakeLayer {
    try layer({ $0.lakes }, { $0.lakes = $1 }, "lakes.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      LakeLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// The first-level regions as polygons (`regions.tunnel`).
  public func regions() throws(PlaceDataError) -> RegionLayer {
    try layer({ $0.regions }, { $0.regions = $1 }, "regions.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      RegionLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// The second-level regions as polygons (`subregions.tunnel`).
  public func subregions() throws(PlaceDataError) -> SubregionLayer {
    try layer({ $0.subregions }, { $0.subregions = $1 }, "subregions.tunnel", kind: "POLY") {
      file throws(PlaceDataError) in
      SubregionLayer(polygons: try PolygonLayer(file: file))
    }
  }

  /// Throws if a layer opened so far has shown damage: a block read since it was opened did not match its
  /// checksum, so an answer that used it may be wrong. Call it after answering and before giving the
  /// answer out (``ReverseGeocoder`` does, for everything it returns).
  public func checkIntact() throws(PlaceDataError) {
    // One load while no file has found damage (every answer asks); the files only once one has.
    guard damage.isRaised else { return }
    for file in opened.withLock({ $0.files }) { try file.checkIntact() }
  }

  /// Opens every layer (header checks only), reporting the first problem.
  public func openAll() throws(PlaceDataError) {
    _ = try places()
    _ = try countries()
    _ = try marine()
    for resolution in CoastlineResolution.allCases { _ = try coastline(resolution) }
    _ = try timeZones()
    _ = try islands()
    _ = try regions()
    _ = try lakes()
    _ = try subregions()
  }

  /// Opens every layer and checks the CRC-32 of every byte of every file (tens of milliseconds).
  public func verify() throws(PlaceDataError) {
    try openAll()
    for fileName in PlaceData.fileNames {
      try DataFile(
        path: directory + "/" + fileName, expectedKind: fileName == "places.tunnel" ? "PLCS" : "POLY"
      )
      .verifyPayload()
    }
  }
}
