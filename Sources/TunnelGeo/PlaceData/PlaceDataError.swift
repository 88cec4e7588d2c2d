/// Why bundled place data could not be used.
///
/// Every case names the file or folder involved; ``description`` also says what was expected and how to
/// get good data back (`Scripts/build-data` regenerates `Data/`; `Scripts/build-data --check` verifies it).
/// The words are the library's: a folder is chosen with ``PlaceData/init(directory:)`` or `TUNNEL_DATA`; a
/// program that takes the folder some other way (a command-line option) phrases the cases that say so itself.
public enum PlaceDataError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No folder with Tunnel's data was found; `searched` lists where it was looked for, in order: the folder
  /// asked for (``PlaceData/init(directory:)``'s argument or `TUNNEL_DATA`) alone, or else every folder of
  /// ``PlaceDataLocation/searchPath()``.
  case dataNotFound(searched: [String])
  /// The folder was found but this layer's file is not in it.
  case fileMissing(path: String)
  /// The file exists but could not be opened or mapped.
  case unreadable(path: String, reason: String)
  /// The file is shorter (or longer) than its header says.
  case sizeMismatch(path: String, expected: Int, actual: Int)
  /// The file does not start with Tunnel's magic bytes.
  case badMagic(path: String)
  /// The file was written in a format version this build cannot read.
  case unsupportedVersion(path: String, found: UInt32, supported: UInt32)
  /// The file holds another kind of layer than the one asked for.
  case wrongKind(path: String, expected: String, found: String)
  /// The header or its section table does not match its checksum.
  case headerChecksumMismatch(path: String)
  /// The payload does not match its checksum (found by ``PlaceData/verify()``).
  case payloadChecksumMismatch(path: String)
  /// A block of the content does not match its checksum: found when it was first read, so the answer
  /// that read it was not given.
  case damaged(path: String, offset: Int, byteCount: Int)
  /// The header is intact but describes sections that do not fit together.
  case malformed(path: String, detail: String)
  /// The folder or file is a symbolic link that leads, directly or through others, back to itself.
  case linkLoop(path: String)

  /// The file or folder the error is about.
  public var path: String {
    switch self {
    case .dataNotFound(let searched): searched.first ?? "Data"
    case .fileMissing(let path), .unreadable(let path, _), .sizeMismatch(let path, _, _),
      .badMagic(let path), .unsupportedVersion(let path, _, _), .wrongKind(let path, _, _),
      .headerChecksumMismatch(let path), .payloadChecksumMismatch(let path), .damaged(let path, _, _),
      .malformed(let path, _), .linkLoop(let path):
      path
    }
  }

  public var description: String {
    let rebuild = "regenerate it with Scripts/build-data (or restore Data/ from the repository)"
    switch self {
    case .dataNotFound(let searched):
      return "place data not found; looked in \(searched.joined(separator: ", ")); "
        + "pass its folder to PlaceData(directory:) or set TUNNEL_DATA to the Data folder"
    case .fileMissing(let path):
      return "\(path): missing; expected one of Tunnel's data files here; \(rebuild)"
    case .unreadable(let path, let reason):
      return "\(path): cannot be read (\(reason)); \(rebuild)"
    case .sizeMismatch(let path, let expected, let actual):
      return "\(path): \(actual) bytes, expected \(expected) (truncated or damaged); \(rebuild)"
    case .badMagic(let path):
      return "\(path): not a Tunnel data file (expected the magic bytes TUNLDATA); \(rebuild)"
    case .unsupportedVersion(let path, let found, let supported):
      return "\(path): data format version \(found), expected \(supported); \(rebuild) "
        + "with the Scripts/build-data of this version of Tunnel"
    case .wrongKind(let path, let expected, let found):
      return "\(path): holds a \(found) layer, expected \(expected); \(rebuild)"
    case .headerChecksumMismatch(let path):
      return "\(path): header checksum mismatch (damaged); \(rebuild)"
    case .payloadChecksumMismatch(let path):
      return "\(path): content checksum mismatch (damaged); \(rebuild)"
    case .damaged(let path, let offset, let byteCount):
      return
        "\(path): bytes \(offset)..<\(offset + byteCount) do not match their checksum (damaged); \(rebuild)"
    case .malformed(let path, let detail):
      return "\(path): malformed (\(detail)); \(rebuild)"
    case .linkLoop(let path):
      return "\(path): its symbolic links go round in a loop; point them at Tunnel's Data folder, "
        + "or pass that folder to PlaceData(directory:) or in TUNNEL_DATA"
    }
  }
}
