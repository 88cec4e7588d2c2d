/// What `tunnel serve` does, in the one sentence that both `tunnel --help` (which lists it) and
/// `tunnel-serve` (which runs it) show.
public enum ServeSummary {
  public static let abstract =
    "Answer over HTTP: Tunnel's own API, and Nominatim's and Photon's for existing clients."

  /// The executable that `tunnel serve` runs, installed beside `tunnel`.
  public static let executableName = "tunnel-serve"
}
