import Foundation
import Testing

/// The real binary run as a hostile tester and a new user would: bad arguments, bad input, output that cannot be
/// written, names that look like numbers. Each case says its exit status and what standard output and error hold
/// (see ``HostileCase``); the table grows whenever a way to break Tunnel is found.
@Suite struct HostileTests {
  /// Every command whose standard output cannot be written: exit 74 and one line that says so.
  static let unwritable: [HostileCase] =
    [
      ["where", "56", "8.5"], ["where", "Skjern"], ["where", "56", "8.5", "--format", "json"],
      ["antipode", "56", "8.5"], ["56", "8.5"], ["Skjern"], ["antipode", "Skjern", "--format", "json"],
      ["find", "Hamilton"], ["find", "Hamilton", "--format", "json"], ["dig", "Skjern", "to", "Wellington"],
      ["pairs"], ["pairs", "--format", "csv"], ["pairs", "--format", "json"], ["pairs", "--format", "jsonl"],
      ["pairs", "--format", "geojson"], ["map", "Skjern", "--width", "40", "--height", "12"],
      ["map", "Skjern", "--view", "geocode", "--width", "60", "--height", "20"],
      ["map", "Skjern", "--svg", "-", "--width", "40", "--height", "12"],
      ["--help"], ["--version"], ["help"], ["help", "batch"], ["where", "--help"], ["batch", "--help"],
      ["--generate-completion-script", "bash"],
    ].map { HostileCase($0, full: true, status: 74, output: .empty, errors: .line("standard output")) }
    + ["csv", "tsv", "jsonl", "geojson"].map {
      HostileCase(
        ["batch", "--format", $0], input: "56,8.5\n-33.9,18.4\n", full: true, status: 74, output: .empty,
        errors: .line("standard output"))
    }

  /// Arguments that are wrong: exit 64 and one line saying what was wrong.
  static let usage: [HostileCase] = [
    (["dig", "Paris", "to"], "to"), (["dig", "to", "Paris"], "to"), (["dig", "to", "to"], "to"),
    (["dig", "Paris"], "two ends"), (["dig"], "two ends"),
    (["--nope"], "--nope"), (["where", " "], "give a place"), (["where", "--format"], "--format"),
    (["where", "56", "8.5", "--format", "yaml"], "yaml"), (["map", "--zoom", "abc"], "--zoom"),
    (["map", "--zoom", "0"], "--zoom"), (["map", "--width", "5"], "--width"),
    (["map", "--svg"], "--svg"), (["pairs", "--within", "-1"], "--within"),
    (["pairs", "--within", "nan"], "--within"), (["pairs", "--min-population", "-5"], "--min-population"),
    (["help", "nope"], "nope"), (["nope", "--format", "json"], "nope"),
    (["batch", "--lat-column", "1", "--lon-column", "1"], "column"),
    (["batch", "--threads", "0"], "--threads"), (["batch", "--precision", "99"], "--precision"),
    (["batch", "--fields", "colour"], "colour"), (["batch", "--input-format", "xml"], "xml"),
    (["batch", "--format", "xlsx"], "xlsx"),
    (["where", "91", "0"], "91"), (["where", "-91", "0"], "-91"), (["where", "1e400", "0"], "too large"),
    (["where", "0", "1e400"], "too large"), (["where", "56", "368.5"], "368.5"),
    (["where", "56", "200E"], "200"), (["where", "nan", "0"], "nan"),
    (["where", "56", "8.5", "3"], "3"),
    (["where", "56N", "8S"], "8S"), (["where", "Xyzzyqqq"], "Xyzzyqqq"),
    (["where", "\u{1B}[31mred"], "\\u{1B}"), (["where", "Congo"], "2 countries"), (["Korea"], "2 countries"),
    (["find", ""], "find"),
  ].map { HostileCase($0.0, status: 64, output: .empty, errors: .line($0.1)) }

  /// Places that must be found as what they are.
  static let places: [HostileCase] =
    [
      (["北京"], ["China"]), (["東京"], ["Japan"]), (["三亚"], ["China"]), (["万州"], ["China"]),
      (["where", "北京"], ["China"]), (["Denmark"], ["Denmark"]), (["where", "Denmark"], ["Denmark"]),
      (["where", "DK"], ["Denmark"]), (["where", "South Korea"], ["Republic of Korea"]),
      (["Ivory Coast"], ["Côte d'Ivoire"]), (["Fiji"], ["Fiji"]), (["where", "North Pole"], ["90.000000"]),
      (["where", "South Pole"], ["-90.000000"]), (["where", "København"], ["Denmark"]),
      (["where", "Skjern"], ["Denmark"]), (["-33.9", "18.4"], ["South Africa"]),
      (["33.9S", "18.4E"], ["South Africa"]), (["geo:56,8.5"], ["Denmark"]),
      (["where", "56", "200"], ["-160"]), (["where", "-56", "188.5"], ["South Pacific", "-171.5"]),
      (["where", "56", "360"], ["North Sea"]),
    ].map { HostileCase($0.0, status: 0, output: .text(including: $0.1), errors: .silent) }
    + [
      HostileCase(
        ["Denmark"], status: 0, output: .text(excluding: ["South Carolina", "United States"]), errors: .silent
      )
    ]
    // One convention for the antimeridian: -180, however it is reached, in every format.
    + [
      ["antipode", "10", "0"], ["antipode", "10", "-1e-10"], ["antipode", "-10", "180"],
      ["where", "-10", "180"],
      ["where", "-10", "179.99999999999"], ["antipode", "10", "0", "--format", "json"],
      ["antipode", "10", "-1e-10", "--format", "csv"], ["antipode", "10", "-1e-10", "--format", "jsonl"],
      ["antipode", "10", "-1e-10", "--format", "geojson"],
    ].map {
      HostileCase(
        $0, status: 0, output: .text(including: ["-180"], excluding: [" 180.0", ",180", ":180"]),
        errors: .silent)
    }

  /// Every machine-readable format parses, and holds no key or column twice.
  static let formats: [HostileCase] = [
    HostileCase(["where", "56", "8.5", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(["where", "-56", "-171.5", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(["antipode", "Skjern", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(["find", "Hamilton", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(
      ["dig", "Skjern", "Wellington", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(
      ["pairs", "--within", "10", "--format", "csv"], status: 0, output: .csv(rows: 111), errors: .silent),
    HostileCase(
      ["pairs", "--within", "10", "--format", "jsonl"], status: 0, output: .jsonLines(rows: 111),
      errors: .silent),
    HostileCase(
      ["pairs", "--within", "10", "--format", "geojson"], status: 0, output: .geoJSON(features: 111),
      errors: .silent),
    HostileCase(
      ["pairs", "--within", "10", "--format", "json"], status: 0, output: .json(), errors: .silent),
    HostileCase(
      ["map", "Skjern", "--svg", "-", "--width", "40", "--height", "12"], status: 0, output: .svg,
      errors: .silent),
  ]

  /// Tunnels of every length: one fall time on the uniform Earth, and `to` between the ends or not at all.
  static let tunnels: [HostileCase] =
    [
      ["dig", "56", "8.5", "56.00001", "8.5"], ["dig", "56", "8.5", "56.000001", "8.5"],
      ["dig", "56", "8.5", "56.0000001", "8.5"], ["dig", "56", "8.5", "57", "8.5"],
      ["dig", "56", "8.5", "to", "-56", "-171.5"], ["dig", "51.5", "-0.13", "-33.9", "151.2"],
      ["dig", "Skjern", "Wellington"], ["dig", "Skjern", "to", "Wellington"], ["dig", "0", "0", "0", "180"],
    ].map { HostileCase($0, status: 0, output: .text(including: ["42 min 10 s"]), errors: .silent) }
    + [
      HostileCase(
        ["dig", "51.5", "-0.13", "-33.9", "151.2"], status: 0, output: .text(including: ["-33.9", "151.2"]),
        errors: .silent),
      HostileCase(
        ["dig", "56", "8.5", "56", "8.5"], status: 0, output: .text(including: ["no tunnel", "42 min 10 s"]),
        errors: .silent),
      HostileCase(
        ["dig", "90", "0", "to", "90", "100"], status: 0, output: .text(including: ["no tunnel"]),
        errors: .silent),
    ]

  /// The data folder wrong in every way a person gets it wrong: exit 66 and one line naming it.
  static let dataFolders: [HostileCase] = [
    ["where", "56", "8.5", "--data", "/no/such/folder"], ["map", "--data", "/no/such/folder"],
    ["batch", "--data", "/no/such/folder"], ["where", "56", "8.5", "--data", "/etc/hostname"],
    ["pairs", "--data", "/no/such/folder"], ["find", "Skjern", "--data", "/no/such/folder"],
  ].map { HostileCase($0, input: "56,8.5\n", status: 66, output: .empty, errors: .line("/")) }

  /// A row of numbers in every notation, and two hundred rows in all, for the formats.
  static let goodRows =
    (0..<200).map { "\(Double($0) * 0.9 - 89.5),\(Double($0) * 1.8 - 179.5)" }
    .joined(separator: "\n") + "\n"

  /// `tunnel batch` on input that is strange, broken or hostile: every row read is a row written.
  static let batches: [HostileCase] = [
    HostileCase(
      ["batch", "--fields", "country"], input: "", status: 0, output: .csv(rows: 0), errors: .silent),
    HostileCase(
      ["batch", "--fields", "country"], input: "lat,lon\n", status: 0, output: .csv(rows: 0), errors: .silent),
    HostileCase(
      ["batch", "--fields", "nearestPlace"], input: goodRows, status: 0, output: .csv(rows: 200),
      errors: .silent),
    HostileCase(
      ["batch", "--fields", "nearestPlace", "--format", "tsv"], input: goodRows, status: 0,
      output: .tsv(rows: 200), errors: .silent),
    HostileCase(
      ["batch", "--format", "jsonl"], input: goodRows, status: 0, output: .jsonLines(rows: 200),
      errors: .silent),
    HostileCase(
      ["batch", "--format", "geojson", "--antipode"], input: goodRows, status: 0,
      output: .geoJSON(features: 200), errors: .silent),
    HostileCase(
      ["batch", "--fields", "country"], input: "\u{FEFF}lat,lon\r\n56,8.5\r\n\r\n-33.9,18.4\r\n", status: 0,
      output: .csv(rows: 2, including: ["DK", "ZA"]), errors: .silent),
    // Bad rows are written with their problem.
    HostileCase(
      ["batch", "--fields", "country"], input: "lat,lon\n91,0\nnan,0\n1e400,0\n56,x\n56\n\"56,8.5\n",
      status: 65, output: .csv(rows: 6), errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "country"],
      input: "lat,lon\n56,8.5\n" + String(repeating: "9", count: 1_100_000)
        + ",0\n-33.9,18.4\n", status: 65, output: .csv(rows: 3), errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "country", "--format", "jsonl"], input: "{\"lat\":56,\"lon\":8.5,\"lat\":1}\n",
      status: 65, output: .jsonLines(rows: 1), errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "country", "--format", "jsonl"],
      bytes: Data("{\"lat\":56,\"lon\":8.5,\"note\":\"".utf8) + Data([0xFF, 0xFE]) + Data("\"}\n".utf8),
      status: 65, output: .jsonLines(rows: 1), errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "country", "--input-format", "jsonl"],
      bytes: Data("{\"lat\":56,\"lon\":8.5,\"".utf8) + Data([0xC3]) + Data("\":1}\n".utf8),
      status: 65, output: .jsonLines(rows: 1), errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "country"],
      bytes: Data("lat,lon,note\n56,8.5,".utf8) + Data([0xFF]) + Data("\n".utf8),
      status: 65, output: .csv(rows: 1, bytesAsTheyCame: true), errors: .lines(endingWith: "bad")),
    // Input names that are Tunnel's own never give a column or key twice.
    HostileCase(
      ["batch", "--fields", "land,country"], input: "lat,lon,land,error,country_code\n56,8.5,yes,none,XX\n",
      status: 0, output: .csv(rows: 1), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land,country", "--format", "jsonl"],
      input: "lat,lon,land,error,country\n56,8.5,yes,none,XX\n", status: 0, output: .jsonLines(rows: 1),
      errors: .silent),
    HostileCase(
      ["batch", "--fields", "land", "--format", "geojson"], input: "lat,lon,land\n56,8.5,yes\n", status: 0,
      output: .geoJSON(features: 1), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land", "--lat-column", "lat", "--lon-column", "lon"],
      input: "lat,lon,lat\n56,8.5,1\n", status: 65, output: .empty, errors: .line("both named 'lat'")),
    HostileCase(
      ["batch", "--fields", "land", "--format", "jsonl"], input: "lat,lon,,\n56,8.5,,x\n", status: 0,
      output: .jsonLines(rows: 1, including: ["\"column4\":\"x\""]), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon,,\n56,8.5,,x\n", status: 0,
      output: .csv(rows: 1, including: ["column3,column4"]), errors: .silent),
    // Each coordinate column keeps to its own axis; hexadecimal is no number of degrees.
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon\n56,8N\n5e,0\n0x10,0x20\nN56,E8.5\n", status: 65,
      output: .csv(rows: 4, including: ["swapped", "N56,E8.5,true"]), errors: .lines(endingWith: "3 of 4")),
    // Names are compared as JSON compares them, by their bytes: café composed and decomposed are two.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl"],
      input: "{\"lat\":56,\"lon\":8.5,\"caf\u{E9}\":1,\"cafe\u{301}\":2}\n", status: 0,
      output: .jsonLines(rows: 1), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon,,column3\n56,8.5,1,2\n", status: 0,
      output: .csv(rows: 1, including: ["lat,lon,tunnel_column3,column3"]), errors: .silent),
    // CSV columns from JSON rows come from a good row, or the batch says why it cannot.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl", "--format", "csv"],
      input: String(repeating: "{\"q\":1}\n", count: 16_384) + "{\"lat\":56,\"lon\":8.5}\n", status: 65,
      output: .empty, errors: .line("--format jsonl")),
    // JSON Lines into CSV: a member the first row lacks is not dropped silently; its row is bad and names it.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl", "--format", "csv"],
      input: "{\"lat\":56,\"lon\":8.5}\n{\"lat\":1,\"lon\":2,\"note\":\"kept\"}\n", status: 65,
      output: .csv(rows: 2, including: ["note"]), errors: .lines(endingWith: "bad")),
    // GeoJSON geometry comes out as it went in, for bad rows too.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson", "--format", "geojson"],
      input: """
        {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[200,56]},"properties":{}},{"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,95]},"properties":{}}]}
        """, status: 65, output: .geoJSON(features: 2, including: ["[200,56]", "[8.5,95]"]),
      errors: .lines(endingWith: "bad")),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson", "--format", "jsonl"],
      input: "{\"type\":\"FeatureCollection\",\"features\":[", status: 65, output: .jsonLines(rows: 0),
      errors: .line("ends")),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson"], input: "[1,2,3]", status: 65,
      output: .empty,
      errors: .line("GeoJSON")),
    // TSV: no quoting in or out, so every line is one row.
    HostileCase(
      ["batch", "--fields", "country", "--format", "tsv"], input: "lat,lon,note\n56,8.5,\"a, \"\"b\"\"\"\n",
      status: 0, output: .tsv(rows: 1), errors: .silent),
    HostileCase(
      ["batch", "--fields", "country", "--format", "tsv"], input: "lat,lon,note\n56,8.5,\"two\nlines\"\n",
      status: 0, output: .tsv(rows: 1), errors: .silent),
    HostileCase(
      ["batch", "--fields", "country", "--input-format", "tsv", "--format", "tsv"],
      input: "lat\tlon\tnote\n56\t8.5\t\"quoted\n-33.9\t18.4\tplain\n", status: 0, output: .tsv(rows: 2),
      errors: .silent),
    // Longitudes past 180, one rule with `where`.
    HostileCase(
      ["batch", "--fields", "country"], input: "lat,lon\n56,368.5\n56,-181\n", status: 65,
      output: .csv(rows: 2),
      errors: .lines(endingWith: "bad")),
    // Nothing the input gave is lost: a GeoJSON feature's id and point in every format, with --skip-invalid too.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson", "--format", "csv", "--skip-invalid"],
      input: """
        {"type":"Feature","id":"f1","geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{"latitude":1}}
        {"type":"Feature","id":"f2","geometry":{"type":"Point","coordinates":[8.5,95]},"properties":{"latitude":2}}
        {"type":"Feature","id":"f3","geometry":{"type":"Point","coordinates":[18.4,-33.9]},"properties":{"latitude":3}}

        """, status: 0,
      output: .csv(
        rows: 2, including: ["id,tunnel_latitude,tunnel_longitude,latitude,land\n", "f3,-33.9,18.4,3,true"]),
      errors: .lines(endingWith: "left out")),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson", "--format", "jsonl"],
      input:
        #"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{"id":1}}"#,
      status: 0,
      output: .jsonLines(rows: 1, including: [#""tunnel_id":7,"latitude":56,"longitude":8.5,"id":1"#]),
      errors: .silent),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "geojson", "--format", "geojson"],
      input: """
        {"type":"FeatureCollection","name":"n","crs":{"type":"name"},"features":[{"type":"Feature","id":7,"bbox":[8.5,56,8.5,56],"geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{}}],"name":"again"}
        """, status: 0,
      output: .geoJSON(
        features: 1, including: [#""name":"n","crs":{"type":"name"}"#, #""id":7,"bbox":[8.5,56,8.5,56]"#]),
      errors: .silent),
    // A bad JSON row written as CSV keeps its values.
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl", "--format", "csv"],
      input: "{\"lat\":56,\"lon\":8.5}\n{\"lat\":56,\"lon\":8.5,\"lat\":1,\"note\":\"kept\"}\n", status: 65,
      output: .csv(rows: 2, including: ["\"\"note\"\":\"\"kept\"\""]), errors: .lines(endingWith: "bad")),
    // Extra fields are named apart from the header's own names.
    HostileCase(
      ["batch", "--fields", "land", "--format", "jsonl"], input: "lat,lon,column4\n56,8.5,a,b,c\n",
      status: 65,
      output: .jsonLines(rows: 1, including: [#""column4":"a","tunnel_column4":"b","column5":"c""#]),
      errors: .lines(endingWith: "bad")),
    // Line ends: CR alone says what it is; a stray CR in CRLF lines joins no rows; a JSON array says what to do.
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon\r56,8.5\r-33.9,18.4\r", status: 65, output: .empty,
      errors: .line("carriage return alone")),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl"],
      input: "{\"lat\":56,\"lon\":8.5}\r{\"lat\":1,\"lon\":2}\r",
      status: 65, output: .empty, errors: .line("carriage return alone")),
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon\r\n56,8.5\r-33.9,18.4\r\n", status: 0,
      output: .csv(rows: 2, including: ["56,8.5,true", "-33.9,18.4,true"]), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land"], input: "[{\"lat\":56,\"lon\":8.5}]\n", status: 65, output: .empty,
      errors: .line("jq -c")),
    HostileCase(
      ["batch", "--fields", "land", "--input-format", "jsonl"], input: "[\n{\"lat\":56,\"lon\":8.5}\n]\n",
      status: 65,
      output: .empty, errors: .line("JSON array")),
    // A NUL never reaches CSV or TSV raw.
    HostileCase(
      ["batch", "--fields", "land"], input: "lat,lon,note\n56,8.5,a\u{0}b\n", status: 0,
      output: .csv(rows: 1, including: ["a\u{2400}b"]), errors: .silent),
    HostileCase(
      ["batch", "--fields", "land", "--format", "tsv"], input: "lat,lon,note\n56,8.5,a\u{0}b\n", status: 0,
      output: .tsv(rows: 1), errors: .silent),
    // Garbage.
    HostileCase(
      ["batch", "--fields", "country"], bytes: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }),
      status: 65, output: .empty, errors: .line("the header")),
  ]

  /// Cache folders that cannot be trusted or used: the batch answers all the same, building its indexes in
  /// memory, and says once why the folder was not used.
  static let cacheFolders: [HostileCase] = {
    let folders = CacheFolders.hostile
    var cases = [
      (folders.writableByOthers, "others can write in it (mode 777)"),
      (folders.groupWritable, "others can write in it (mode 770)"),
      (folders.file, "cannot be opened as a folder (Not a directory)"),
      (folders.file + "/cache", "cannot be made (Not a directory)"),
    ]
    if let other = folders.otherOwners { cases.append((other, "belongs to user 65534")) }
    return cases.map { folder, message in
      HostileCase(
        ["batch", "--fields", "country"], input: "lat,lon\n56,8.5\n-33.9,18.4\n",
        environment: ["TUNNEL_CACHE_DIR": folder], status: 0,
        output: .csv(rows: 2, including: ["Denmark", "South Africa"]), errors: .line(message))
    } + [
      HostileCase(
        ["batch", "--fields", "country"], input: "lat,lon\n56,8.5\n", environment: ["TUNNEL_CACHE_DIR": ""],
        status: 0, output: .csv(rows: 1, including: ["Denmark"]), errors: .silent)
    ]
  }()

  /// Columns are never guessed silently (issue 38): a header in doubt is refused naming its candidates,
  /// the names people write are recognised, and a separator that is not read is named.
  static let columns: [HostileCase] =
    [
      ("latitude,lat,lon\n10,56,8.5\n", "('latitude', 'lat'); choose one with --lat-column"),
      ("Lat,lat,lon\n10,56,8.5\n", "('Lat', 'lat'); choose one with --lat-column"),
      ("lat,lng,lon\n56,10,8.5\n", "('lng', 'lon'); choose one with --lon-column"),
      ("y,lon\n10,8.5\n", "cannot tell which columns"),
      ("coord,location\n56 8.5,Skjern\n", "choose one with --coordinate-column"),
      ("lat|lon\n56|8.5\n", "split at commas"),
    ].map {
      HostileCase(
        ["batch", "--fields", "country"], input: $0.0, status: 65, output: .empty, errors: .line($0.1))
    }
    + [
      "Lat.,Lon.\n56,8.5\n", "latitude (deg),longitude (deg)\n56,8.5\n", "LATITUDE_DD,LONGITUDE_DD\n56,8.5\n",
      "latitud,longitud\n56,8.5\n", "Breite,Länge\n56,8.5\n", "широта,долгота\n56,8.5\n", "緯度,経度\n56,8.5\n",
      "lat;lon\n56;8.5\n", "sep=;\nlat;lon\n56;8.5\n", "# from the logger\nlat,lon\n56,8.5\n",
      "x,y\n8.5,56\n",
    ].map {
      HostileCase(
        ["batch", "--fields", "country"], input: $0, status: 0, output: .csv(rows: 1, including: ["Denmark"]),
        errors: .silent)
    }
    + [
      HostileCase(
        ["batch", "--fields", "country", "--input-format", "jsonl"],
        input: "{\"latitude\":10,\"lat\":56,\"lon\":8.5}\n", status: 65,
        output: .jsonLines(rows: 1, including: ["choose one with --lat-column"]),
        errors: .lines(endingWith: "bad")),
      HostileCase(
        ["batch", "--fields", "country", "--input-format", "jsonl", "--lat-column", "lat"],
        input: "{\"latitude\":10,\"lat\":56,\"lon\":8.5}\n", status: 0,
        output: .jsonLines(rows: 1, including: ["Denmark"]), errors: .silent),
      HostileCase(
        ["batch", "--fields", "country", "--input-format", "geojson"],
        input:
          #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"latitude":10,"lat":56,"lon":8.5}},{"type":"Feature","geometry":null,"properties":{"Breite":56,"Länge":8.5}}]}"#,
        status: 65, output: .geoJSON(features: 2, including: ["choose one with --lat-column", "Denmark"]),
        errors: .lines(endingWith: "bad")),
    ]

  static let all =
    unwritable + usage + places + formats + tunnels + dataFolders + batches + cacheFolders + columns

  @Test("The hostile cases", arguments: all)
  func hostile(_ hostileCase: HostileCase) throws {
    let result = try Self.run(hostileCase)
    #expect(result.status == hostileCase.status, "stderr: \(result.standardError)")
    checkErrors(result.standardError, hostileCase.errors)
    try checkOutput(result.standardOutput, hostileCase.output)
  }

  @Test(
    "Standard error that cannot be written: the batch still ends with its own status, not a trap",
    arguments: ["lat,lon\n91,0\n56,8.5\n", ""])
  func unwritableStandardError(input: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputPath = folder.appendingPathComponent("in.csv").path
    FileManager.default.createFile(atPath: inputPath, contents: Data(input.utf8))
    // A bad row's line, the count of bad rows, or the notice for a terminal: each a write that fails.
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c", "\"$0\" batch --fields land \"$1\" > \"$1.out\" 2>/dev/full", TunnelProcess.executable.path,
      inputPath,
    ]
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationReason == .exit)
    #expect(shell.terminationStatus == (input.isEmpty ? 0 : 65))
    let written = try String(contentsOfFile: inputPath + ".out", encoding: .utf8)
    #expect(written.split(separator: "\n").count == (input.isEmpty ? 1 : 3))
  }

  @Test(
    "A reader that goes away with SIGPIPE ignored ends every command quietly, with status 0",
    arguments: [
      ["pairs", "--min-population", "0", "--within", "100"], ["batch", "--fields", "nearestPlace"],
    ])
  func readerGone(arguments: [String]) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0..<200_000).map { "\(Double($0 % 1800) / 10 - 89.95),\(Double($0 % 3600) / 10 - 179.95)\n" }
    FileManager.default.createFile(
      atPath: folder.appendingPathComponent("in.csv").path, contents: Data(rows.joined().utf8))
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/bash")
    shell.currentDirectoryURL = folder
    shell.arguments =
      [
        "-c",
        "trap '' PIPE; \"$0\" \"$@\" < in.csv 2> err | head -c 10 > out; echo \"${PIPESTATUS[0]}\" > status",
        TunnelProcess.executable.path,
      ] + arguments
    try shell.run()
    shell.waitUntilExit()
    let status = try String(contentsOf: folder.appendingPathComponent("status"), encoding: .utf8)
    let error = try String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)
    #expect(status == "0\n" && error.isEmpty, "status \(status), standard error: \(error)")
  }

  /// Runs `tunnel` for `hostileCase` in a folder of its own, so that no output lands in the checkout.
  static func run(_ hostileCase: HostileCase) throws -> TunnelProcess.Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let full = hostileCase.outputToFullDevice ? FileHandle(forWritingAtPath: "/dev/full") : nil
    defer { try? full?.close() }
    let result = try TunnelProcess.run(
      hostileCase.arguments, environment: hostileCase.environment, input: hostileCase.input ?? Data(),
      output: full, directory: folder)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left.isEmpty, "files written beside the command: \(left)")
    return result
  }

  func checkErrors(_ text: String, _ expected: HostileCase.Errors) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(text.isEmpty || text.hasSuffix("\n"), "standard error ends without a newline")
    for line in lines {
      #expect(line.hasPrefix("tunnel: "), "a line of standard error not Tunnel's own: \(line)")
    }
    switch expected {
    case .silent:
      #expect(text.isEmpty, "standard error: \(text)")
    case .line(let fragment):
      #expect(lines.count == 1, "not one line: \(text)")
      #expect(text.contains(fragment), "'\(fragment)' not in: \(text)")
    case .lines(let fragment):
      #expect(!lines.isEmpty && lines.last?.contains(fragment) == true, "'\(fragment)' not last in: \(text)")
    }
  }

  func checkOutput(_ text: String, _ expected: HostileCase.Output) throws {
    if case .csv(_, _, bytesAsTheyCame: true) = expected {
    } else {
      #expect(!text.contains("\u{FFFD}"), "standard output is not UTF-8")
    }
    func holds(_ fragments: [String]) {
      for fragment in fragments {
        #expect(text.contains(fragment), "'\(fragment)' not in: \(text.prefix(2000))")
      }
    }
    switch expected {
    case .empty:
      #expect(text.isEmpty, "standard output: \(text.prefix(2000))")
    case .text(let including, let excluding):
      holds(including)
      for fragment in excluding {
        #expect(!text.contains(fragment), "'\(fragment)' in: \(text.prefix(2000))")
      }
    case .json(let including):
      #expect(throws: Never.self) { try StrictJSON.check(Substring(text)) }
      holds(including)
    case .csv(let rows, let including, _):
      #expect(!text.contains("\u{0}"), "a raw NUL in CSV: \(text.prefix(2000))")
      let table = CSVTable(text).rows
      try #require(!table.isEmpty, "no header")
      #expect(table.count - 1 == rows, "\(table.count - 1) rows for \(rows): \(text.prefix(2000))")
      #expect(Set(table[0]).count == table[0].count, "a column named twice: \(table[0])")
      for row in table { #expect(row.count == table[0].count, "row of \(row.count) fields: \(row)") }
      holds(including)
    case .tsv(let rows):
      #expect(!text.contains("\u{0}"), "a raw NUL in TSV: \(text.prefix(2000))")
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      try #require(!lines.isEmpty, "no header")
      #expect(lines.count - 1 == rows, "\(lines.count - 1) lines for \(rows) rows: \(text.prefix(2000))")
      let header = lines[lines.startIndex].split(separator: "\t", omittingEmptySubsequences: false)
      #expect(Set(header).count == header.count, "a column named twice: \(header)")
      for line in lines {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).count
        #expect(fields == header.count, "line of \(fields) fields: \(line)")
      }
    case .jsonLines(let rows, let including):
      let lines = text.split(separator: "\n")
      #expect(lines.count == rows, "\(lines.count) lines for \(rows) rows: \(text.prefix(2000))")
      for line in lines {
        #expect(throws: Never.self, "\(line)") { try StrictJSON.check(line) }
        #expect(line.hasPrefix("{"), "not an object: \(line)")
      }
      holds(including)
    case .geoJSON(let features, let including):
      #expect(throws: Never.self) { try StrictJSON.check(Substring(text)) }
      let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      #expect(document?["type"] as? String == "FeatureCollection")
      #expect((document?["features"] as? [Any])?.count == features, "\(text.prefix(2000))")
      holds(including)
    case .svg:
      #expect(text.contains("<svg") && text.hasSuffix("</svg>\n"), "not an SVG document: \(text.prefix(200))")
    }
  }
}
