import TunnelGeo

/// A place given as text (a coordinate such as `56.55 8.32` or `33°54′S 18°24′E`, or a name such as
/// `Springfield, IL`), resolved as every command and `tunnel serve` resolve it.
public enum LocationLookup {
  /// Why text names no location.
  public enum Problem: Error, Sendable {
    /// The text is wrong: the message says what was wrong and how to write it.
    case badInput(String)
    /// The place data cannot be read.
    case data(PlaceDataError)
  }

  /// The location `text` names; the place layer is opened only for names.
  public static func resolve(_ text: String, data: PlaceData) throws(Problem) -> LocationQuery {
    let query: LocationQuery
    do {
      query = try LocationQuery(text) { () throws(PlaceDataError) in try Gazetteer(data: data) }
    } catch .coordinate(.unparsable(text: let text, reason: let reason, example: nil)) {
      // No example of the notation meant: one of the common ones.
      throw .badInput(
        "cannot read \(EchoedText.quoted(text)) as a coordinate: \(reason); write it as e.g. '56.55 8.32' or '56°33′N 8°19′E'"
      )
    } catch .data(let error) {
      throw .data(error)
    } catch {
      throw .badInput(error.description)
    }
    do {
      try data.checkIntact()
    } catch {
      throw .data(error)
    }
    return query
  }
}
