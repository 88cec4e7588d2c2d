import TunnelSystem

/// What a pasted link points at.
enum MapLinkTarget: Equatable, Sendable {
  /// A position read from the link, not yet checked against the ranges of latitude and longitude.
  case coordinate(latitude: Double, longitude: Double)
  /// A place the link names without coordinates (`?q=Skjern`, `/place/Skjern/` without `@…`), decoded.
  case name(String)
}

/// A link Tunnel recognises but cannot read offline, with the sentence to show the user.
struct UnreadableLink: Error, Equatable {
  /// What was wrong with the link and what to do instead, as one plain sentence.
  let reason: String
}

/// Reads the links people copy from map websites.
///
/// Understood, with or without `https://`, `http://` and `www.`, on any country domain, percent-encoded
/// or not, with white space around:
/// - Google Maps: `google.com/maps/@56.55,8.32,12z`, `google.com/maps?q=56.55,8.32`,
///   `maps.google.com/?q=…`, `google.com/maps/place/Skjern/@56.0,8.5,13z/data=…!3d56.1!4d8.6`,
///   `google.com/maps/search/56.55,+8.32`, `?ll=`, `?center=`, `?query=`;
/// - OpenStreetMap: `openstreetmap.org/#map=12/56.55/8.32`, `openstreetmap.org/?mlat=56.55&mlon=8.32`,
///   `openstreetmap.org/search?lat=56.55&lon=8.32`, `openstreetmap.org/search?query=Skjern`;
/// - Apple Maps: `maps.apple.com/?ll=56.55,8.32`, `maps.apple.com/place?coordinate=56.55,8.32&name=…`,
///   `?q=`, `?address=`, `?center=`, `?sll=`;
/// - Bing Maps: `bing.com/maps?cp=56.55~8.32&lvl=12`, `?q=`, `?where1=`;
/// - `geo:` URIs with a query: `geo:56.55,8.32?z=12`, `geo:0,0?q=56.55,8.32(Label)`, `geo:0,0?q=Skjern`.
///
/// When a link holds several positions, the place's own wins over the map's centre: Google's
/// `!3d…!4d…` over a searched coordinate over `ll=` over `@…` over `center=`; OpenStreetMap's marker over
/// `lat=`/`lon=` over a searched coordinate over `#map=`; Apple's `coordinate=` over `ll=` over a searched
/// coordinate over `center=`; Bing's searched coordinate over `cp=`. Any coordinate wins over a name, and a
/// name over Apple's `sll=`, which only says where a search was made.
///
/// Coordinates are read as two finite numbers and not checked against the ranges of latitude and
/// longitude: the caller does that and says what was wrong.
enum MapLink {
  /// The place a pasted link points at.
  ///
  /// - Parameter text: What the user pasted; surrounding white space is ignored.
  /// - Returns: The coordinate or name the link points at, or nil when the text is not a map link at all
  ///   (plain text, coordinates, another website, a `geo:` URI without a `?` part).
  /// - Throws: ``UnreadableLink`` for a map link that cannot be read offline (short links, directions,
  ///   what3words, OpenStreetMap objects) or whose coordinate part is malformed.
  static func target(of text: String) throws(UnreadableLink) -> MapLinkTarget? {
    let link = text.trimmingWhitespace()
    guard !link.isEmpty else { return nil }
    if isWhat3words(link) { throw what3words(link) }
    if link.utf8.prefix(4).map({ $0 | 0x20 }).elementsEqual("geo:".utf8) {
      return try geoURI(link)
    }
    guard let parts = LinkParts(link) else { return nil }
    let labels = parts.host.split(separator: ".", omittingEmptySubsequences: false)
    switch parts.host {
    case "maps.app.goo.gl":
      throw shortLink(link)
    case "goo.gl":
      guard parts.segments.first == "maps" else { return nil }
      throw shortLink(link)
    case "maps.apple":
      throw shortLink(link)
    case "maps.apple.com":
      return try apple(link, parts)
    case "openstreetmap.org", "osm.org":
      return try openStreetMap(link, parts)
    case "what3words.com", "map.what3words.com", "w3w.co":
      guard parts.segments.count == 1, let words = parts.segments.first, isThreeWords(words[...]) else {
        return nil
      }
      throw what3words(link)
    default:
      break
    }
    if labels.first == "maps", labels.count > 1, labels[1] == "google", isCountryDomain(labels.dropFirst(2)) {
      let segments = parts.segments.first == "maps" ? parts.segments.dropFirst() : parts.segments[...]
      return try google(link, parts, segments: segments)
    }
    if labels.first == "google", isCountryDomain(labels.dropFirst()) {
      guard parts.segments.first == "maps" else { return nil }
      return try google(link, parts, segments: parts.segments.dropFirst())
    }
    if labels.first == "bing", isCountryDomain(labels.dropFirst()) {
      guard parts.segments.first == "maps" || parts.segments.first == "maps.aspx" else { return nil }
      return try bing(link, parts)
    }
    return nil
  }

  // MARK: Sites

  /// Google Maps, from the path after `/maps`: the `!3d…!4d…` position in `data=` wins over a coordinate
  /// searched for (`/place/…`, `/search/…`, `q=`, `query=`) over `ll=` over the `@…` centre over `center=`
  /// over a name.
  private static func google(
    _ link: String, _ parts: LinkParts, segments: ArraySlice<String>
  ) throws(UnreadableLink) -> MapLinkTarget? {
    let segments = Array(segments)
    if segments.first == "dir"
      || ["saddr", "daddr", "destination", "origin"].contains(where: { parts[$0] != nil })
    {
      throw directions(link)
    }
    var place: (Double, Double)?
    var centre: (Double, Double)?
    var searched: [String] = []
    for (index, segment) in segments.enumerated() {
      if segment.hasPrefix("@") {
        guard segment.count > 1 else { continue }
        let fields = segment.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 2, let value = pair(fields[0], fields[1]) else {
          throw malformed(link, part: segment, example: "@56.55,8.32,12z")
        }
        centre = value
      } else if segment.hasPrefix("data=") {
        place = try dataPosition(link, segment) ?? place
      } else if index > 0, segments[index - 1] == "place" || segments[index - 1] == "search" {
        searched.append(segment)
      }
    }
    searched += ["q", "query"].compactMap { parts[$0] }
    let read = searched.compactMap { coordinateOrName($0) }
    let found =
      firstCoordinate([
        place,
        read.lazy.compactMap(position).first,
        try strictPair(link, parts, key: "ll", separator: ",", example: "ll=56.55,8.32"),
        centre,
        try strictPair(link, parts, key: "center", separator: ",", example: "center=56.55,8.32"),
      ]) ?? read.first { position($0) == nil }
    guard let found else { throw noPlace(link, site: "Google Maps") }
    return found
  }

  /// OpenStreetMap: the marker (`mlat=`, `mlon=`) wins over `lat=`, `lon=` over a searched coordinate
  /// (`query=`) over the map's centre (`#map=zoom/lat/lon`) over a searched name. Short links, objects by
  /// number and directions are refused.
  private static func openStreetMap(
    _ link: String, _ parts: LinkParts
  ) throws(UnreadableLink) -> MapLinkTarget? {
    switch parts.segments.first {
    case "go":
      throw UnreadableLink(
        reason: "\(EchoedText.quoted(link)) is an OpenStreetMap short link (osm.org/go/…), which Tunnel does "
          + "not read: open it in a browser and copy the long link (with #map=…) from the address bar")
    case "node", "way", "relation":
      let kind = parts.segments[0]
      throw UnreadableLink(
        reason:
          "\(EchoedText.quoted(link)) names an OpenStreetMap \(kind) by its number, and finding where it "
          + "is needs OpenStreetMap's service: paste the place's coordinates instead (right-click it on the map "
          + "and choose 'Show address')")
    case "directions":
      throw directions(link)
    default:
      break
    }
    var centre: (Double, Double)?
    for field in parts.fragment.split(separator: "&") where field.hasPrefix("map=") {
      let fields = field.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
      guard fields.count == 3, number(fields[0]) != nil, let value = pair(fields[1], fields[2]) else {
        throw malformed(link, part: String(field), example: "#map=12/56.55/8.32")
      }
      centre = value
    }
    let searched = parts["query"].flatMap { coordinateOrName($0) }
    let found =
      firstCoordinate([
        try strictPair(link, parts, keys: ("mlat", "mlon"), example: "mlat=56.55&mlon=8.32"),
        try strictPair(link, parts, keys: ("lat", "lon"), example: "lat=56.55&lon=8.32"),
        searched.flatMap(position),
        centre,
      ]) ?? searched
    guard let found else { throw noPlace(link, site: "OpenStreetMap") }
    return found
  }

  /// Apple Maps: `coordinate=` wins over `ll=` over a searched coordinate (`q=`, `query=`) over `center=`
  /// over a name (`q=`, `query=`, `name=`, `address=`) over `sll=`. A place known only by Apple's identifier
  /// (`place-id=`, `auid=`) and directions are refused.
  private static func apple(_ link: String, _ parts: LinkParts) throws(UnreadableLink) -> MapLinkTarget? {
    if parts.segments.first == "directions"
      || ["saddr", "daddr", "destination", "source"].contains(where: { parts[$0] != nil })
    {
      throw directions(link)
    }
    let read = ["q", "query", "name", "address"].compactMap { parts[$0] }.compactMap { coordinateOrName($0) }
    let found =
      firstCoordinate([
        try strictPair(link, parts, key: "coordinate", separator: ",", example: "coordinate=56.55,8.32"),
        try strictPair(link, parts, key: "ll", separator: ",", example: "ll=56.55,8.32"),
        read.lazy.compactMap(position).first,
        try strictPair(link, parts, key: "center", separator: ",", example: "center=56.55,8.32"),
      ]) ?? read.first { position($0) == nil }
    if let found { return found }
    if let value = try strictPair(link, parts, key: "sll", separator: ",", example: "sll=56.55,8.32") {
      return .coordinate(latitude: value.0, longitude: value.1)
    }
    if parts["place-id"] != nil || parts["auid"] != nil {
      throw UnreadableLink(
        reason:
          "\(EchoedText.quoted(link)) names an Apple Maps place by its identifier, and finding where it is "
          + "needs Apple Maps' service: paste the place's coordinates or its address instead")
    }
    throw noPlace(link, site: "Apple Maps")
  }

  /// Bing Maps: a searched coordinate (`q=`, `where1=`) wins over the map's centre (`cp=lat~lon`) over a
  /// searched name. Directions (`rtp=`) are refused.
  private static func bing(_ link: String, _ parts: LinkParts) throws(UnreadableLink) -> MapLinkTarget? {
    if parts["rtp"] != nil { throw directions(link) }
    let read = ["q", "where1", "where"].compactMap { parts[$0] }.compactMap { coordinateOrName($0) }
    let found =
      firstCoordinate([
        read.lazy.compactMap(position).first,
        try strictPair(link, parts, key: "cp", separator: "~", example: "cp=56.55~8.32"),
      ]) ?? read.first { position($0) == nil }
    guard let found else { throw noPlace(link, site: "Bing Maps") }
    return found
  }

  /// A `geo:` URI with a query (`geo:56.55,8.32?z=12`, `geo:0,0?q=56.55,8.32(Label)`, `geo:0,0?q=Skjern`);
  /// nil without a `?`, which ``Coordinate/init(parsing:)`` reads. A coordinate in `q=` wins; a name in
  /// `q=` wins over the position `0,0`, which says there is none, but not over any other.
  private static func geoURI(_ link: String) throws(UnreadableLink) -> MapLinkTarget? {
    let scalars = link.unicodeScalars.dropFirst(4)
    guard let mark = scalars.firstIndex(of: "?") else { return nil }
    let body = Substring(scalars[..<mark])
    let path = body.prefix { $0 != ";" }
    let fields = path.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count == 2 || fields.count == 3, let centre = pair(fields[0], fields[1]) else {
      throw malformed(link, part: "geo:" + body, example: "geo:56.55,8.32?z=12")
    }
    let query = LinkParts.fields(Substring(scalars[scalars.index(after: mark)...]).prefix { $0 != "#" })
    let searched = query.first { $0.key == "q" }.flatMap { coordinateOrName($0.value) }
    if let searched, position(searched) != nil || (centre.0 == 0 && centre.1 == 0) { return searched }
    return .coordinate(latitude: centre.0, longitude: centre.1)
  }

  // MARK: Parts of links

  /// The position in Google's `data=` path segment: the last `!3d<latitude>!4d<longitude>`, the place's own
  /// position; nil when there is none.
  private static func dataPosition(
    _ link: String, _ segment: String
  ) throws(UnreadableLink) -> (Double, Double)? {
    var found: (Double, Double)?
    let fields = segment.split(separator: "!")
    for (index, field) in fields.enumerated() where field.hasPrefix("3d") && index + 1 < fields.count {
      let next = fields[index + 1]
      guard next.hasPrefix("4d") else { continue }
      guard let value = pair(field.dropFirst(2), next.dropFirst(2)) else {
        throw malformed(link, part: "!" + field + "!" + next, example: "!3d56.55!4d8.32")
      }
      found = value
    }
    return found
  }

  /// The two numbers in the query field `key`, split at `separator`; nil when the field is absent or empty.
  private static func strictPair(
    _ link: String, _ parts: LinkParts, key: String, separator: Character, example: String
  ) throws(UnreadableLink) -> (Double, Double)? {
    guard let text = parts[key], !text.allSatisfy(\.isWhitespace) else { return nil }
    let fields = text.split(separator: separator, omittingEmptySubsequences: false)
    guard fields.count == 2, let value = pair(fields[0], fields[1]) else {
      throw malformed(link, part: key + "=" + text, example: example)
    }
    return value
  }

  /// The numbers in the query fields `keys.0` (latitude) and `keys.1` (longitude); nil when both are absent.
  private static func strictPair(
    _ link: String, _ parts: LinkParts, keys: (String, String), example: String
  ) throws(UnreadableLink) -> (Double, Double)? {
    let latitude = parts[keys.0]
    let longitude = parts[keys.1]
    guard latitude != nil || longitude != nil else { return nil }
    guard let value = pair((latitude ?? "")[...], (longitude ?? "")[...]) else {
      let part = [latitude.map { keys.0 + "=" + $0 }, longitude.map { keys.1 + "=" + $0 }].compactMap { $0 }
      throw malformed(link, part: part.joined(separator: "&"), example: example)
    }
    return value
  }

  /// A searched text read as a coordinate (`56.55,8.32`, `56.55, 8.32`, `loc:56.55,8.32`,
  /// `56.55,8.32(Label)`) or else as a name; nil when it is empty.
  private static func coordinateOrName(_ text: String) -> MapLinkTarget? {
    let name = text.trimmingWhitespace()
    guard !name.isEmpty else { return nil }
    var value = name[...]
    if value.lowercased().hasPrefix("loc:") { value = value.dropFirst(4) }
    if value.hasSuffix(")"), let open = value.firstIndex(of: "(") { value = value[..<open] }
    let fields = value.split(separator: ",", omittingEmptySubsequences: false)
    if fields.count == 2, let position = pair(fields[0], fields[1]) {
      return .coordinate(latitude: position.0, longitude: position.1)
    }
    return .name(name)
  }

  /// Two finite numbers, or nil.
  private static func pair(_ first: Substring, _ second: Substring) -> (Double, Double)? {
    guard let latitude = number(first), let longitude = number(second) else { return nil }
    return (latitude, longitude)
  }

  /// A plain decimal number (`-33.9`, `+8`, `.5`, `1e-3`), spaces around allowed, finite; nil otherwise.
  private static func number(_ text: Substring) -> Double? {
    let text = text.trimmingWhitespace()
    var digits = 0
    var index = text.startIndex
    if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
    var seenPoint = false
    while index < text.endIndex, text[index].isASCII,
      text[index].isNumber || (text[index] == "." && !seenPoint)
    {
      if text[index] == "." { seenPoint = true } else { digits += 1 }
      index = text.index(after: index)
    }
    guard digits > 0 else { return nil }
    if index < text.endIndex, text[index] == "e" || text[index] == "E" {
      index = text.index(after: index)
      if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
      let start = index
      while index < text.endIndex, text[index].isASCII, text[index].isNumber {
        index = text.index(after: index)
      }
      guard index > start else { return nil }
    }
    guard index == text.endIndex, let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// The position of a coordinate target; nil for a name.
  private static func position(_ target: MapLinkTarget) -> (Double, Double)? {
    guard case .coordinate(let latitude, let longitude) = target else { return nil }
    return (latitude, longitude)
  }

  /// The first position given, as a target.
  private static func firstCoordinate(_ candidates: [(Double, Double)?]) -> MapLinkTarget? {
    guard let found = candidates.lazy.compactMap({ $0 }).first else { return nil }
    return .coordinate(latitude: found.0, longitude: found.1)
  }

  /// True for a country's domain after a site's name: `com`, `de`, `co.uk`, `com.au`.
  private static func isCountryDomain(_ labels: ArraySlice<Substring>) -> Bool {
    (1...2).contains(labels.count)
      && labels.allSatisfy { (2...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }
  }

  /// True for a what3words address: three lowercase words joined by dots, after `///` or alone. Alone,
  /// text that reads as a web address (`www.` or `maps.` first, or a domain such as `com` or `de` last) is
  /// not taken for one.
  private static func isWhat3words(_ text: String) -> Bool {
    if text.hasPrefix("///") { return isThreeWords(text.dropFirst(3)) }
    guard isThreeWords(text[...]) else { return false }
    let words = text.split(separator: ".")
    let webWords: Set<Substring> = ["com", "org", "net", "edu", "gov", "info", "app", "dev", "apple", "gl"]
    return words[0] != "www" && words[0] != "maps" && words[2].count > 2 && !webWords.contains(words[2])
  }

  /// True for three words of lowercase letters joined by dots.
  private static func isThreeWords(_ text: Substring) -> Bool {
    let words = text.split(separator: ".", omittingEmptySubsequences: false)
    return words.count == 3
      && words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter && $0.isLowercase } }
  }

  // MARK: Messages

  /// A short link that only the site's server can expand.
  private static func shortLink(_ link: String) -> UnreadableLink {
    UnreadableLink(
      reason:
        "\(EchoedText.quoted(link)) is a short link; Tunnel works offline and cannot follow it: open it in "
        + "a browser and copy the full address from the address bar")
  }

  /// A what3words address, which only its service can turn into a position.
  private static func what3words(_ link: String) -> UnreadableLink {
    UnreadableLink(
      reason: "\(EchoedText.quoted(link)) is a what3words address; what3words addresses need their service "
        + "(what3words.com): paste the coordinates it shows instead")
  }

  /// A directions link, which holds several places.
  private static func directions(_ link: String) -> UnreadableLink {
    UnreadableLink(
      reason:
        "\(EchoedText.quoted(link)) is a directions link: a directions link has several places; copy the "
        + "link of one place")
  }

  /// A map link with no place in it.
  private static func noPlace(_ link: String, site: String) -> UnreadableLink {
    let article = site.first == "A" ? "an" : "a"
    return UnreadableLink(
      reason:
        "\(EchoedText.quoted(link)) is \(article) \(site) link with no place in it: open the place on the map "
        + "and copy its link, or paste its coordinates")
  }

  /// A link whose coordinate part is not two numbers.
  private static func malformed(_ link: String, part: String, example: String) -> UnreadableLink {
    UnreadableLink(
      reason:
        "in the link \(EchoedText.quoted(link)) the part \(EchoedText.quoted(part)) should hold a latitude "
        + "and a longitude as two numbers, as \(EchoedText.quoted(example)): copy the whole link again or paste "
        + "the coordinates instead")
  }

  // MARK: Splitting links

  /// A web address split by hand into host, decoded path segments, decoded query fields and raw fragment.
  private struct LinkParts {
    /// The host in lowercase, without `www.`, a port or a trailing dot.
    let host: String
    /// The path's segments, percent-decoded with `+` as a space, empty ones left out.
    let segments: [String]
    /// The query's fields as decoded name and value, names in lowercase.
    let query: [(key: String, value: String)]
    /// The text after `#`, as written.
    let fragment: Substring

    /// Splits a link with or without `https://` or `http://`; nil for another scheme or no host.
    init?(_ link: String) {
      var rest = link[...]
      let lowered = link.prefix(8).lowercased()
      if lowered.hasPrefix("https://") {
        rest = rest.dropFirst(8)
      } else if lowered.hasPrefix("http://") {
        rest = rest.dropFirst(7)
      } else if link.containsBytes("://") {
        return nil
      }
      let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      rest = rest[authority.endIndex...]
      var host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
      host = host.prefix { $0 != ":" }
      if host.hasSuffix(".") { host = host.dropLast() }
      var name = host.lowercased()
      if name.hasPrefix("www.") { name = String(name.dropFirst(4)) }
      guard name.contains("."), !name.contains(where: \.isWhitespace) else { return nil }
      self.host = name

      let fragmentStart = rest.firstIndex(of: "#") ?? rest.endIndex
      fragment = fragmentStart < rest.endIndex ? rest[rest.index(after: fragmentStart)...] : ""
      rest = rest[..<fragmentStart]
      let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
      query = queryStart < rest.endIndex ? Self.fields(rest[rest.index(after: queryStart)...]) : []
      segments = rest[..<queryStart].split(separator: "/").map { Self.decoded($0) }
    }

    /// The decoded value of the first query field named `key`.
    subscript(key: String) -> String? {
      query.first { $0.key == key }?.value
    }

    /// The fields of a query (`a=1&b=2`), decoded, names in lowercase.
    static func fields(_ query: Substring) -> [(key: String, value: String)] {
      query.split(whereSeparator: { $0 == "&" || $0 == ";" }).map { field in
        let key = field.prefix { $0 != "=" }
        let value = key.endIndex < field.endIndex ? field[field.index(after: key.endIndex)...] : ""
        return (decoded(key).lowercased(), decoded(value))
      }
    }

    /// The text with `+` as a space and `%XX` as the byte it names, read as UTF-8; a `%` not followed by two
    /// hexadecimal digits is kept as written, and bytes that are not UTF-8 become U+FFFD.
    static func decoded(_ text: Substring) -> String {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(text.utf8.count)
      let source = Array(text.utf8)
      var index = 0
      while index < source.count {
        let byte = source[index]
        if byte == UInt8(ascii: "%"), index + 2 < source.count,
          let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
        {
          bytes.append(high << 4 | low)
          index += 3
        } else {
          bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
          index += 1
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of one hexadecimal digit, or nil.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }
  }
}
