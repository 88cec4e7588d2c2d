import Foundation
import Testing
import TunnelGeo

@testable import TunnelBatch

/// Which columns hold the coordinate: never guessed silently (issue 38). A header that leaves the
/// latitude or the longitude in doubt is refused, naming the candidates; the names people really write
/// are recognised; semicolons, Excel's `sep=` line and `#` comments are read.
@Suite struct ColumnChoiceTests {
  static let skjern = try! Coordinate(latitude: 56, longitude: 8.5)
  static let commandLine = CoordinateColumns.OptionNames(
    latitude: "--lat-column", longitude: "--lon-column", coordinate: "--coordinate-column")

  @Test(
    "More than one column that could be the latitude or the longitude is refused, naming them",
    arguments: [
      ("latitude,lat,lon\n10,56,8.5\n", [CoordinateColumns.Candidates(.latitude, ["latitude", "lat"])]),
      ("Lat,lat,lon\n10,56,8.5\n", [.init(.latitude, ["Lat", "lat"])]),
      ("lat,lng,lon\n56,10,8.5\n", [.init(.longitude, ["lng", "lon"])]),
      (
        "LAT,lat,Lon,lng\n10,56,8.5,9\n",
        [.init(.latitude, ["LAT", "lat"]), .init(.longitude, ["Lon", "lng"])]
      ),
      ("y,x,lat,lon\n1,2,56,8.5\n", [.init(.latitude, ["y", "lat"]), .init(.longitude, ["x", "lon"])]),
      ("Lat.,latitude (deg),lon\n10,56,8.5\n", [.init(.latitude, ["Lat.", "latitude (deg)"])]),
      ("coord,location\n56 8.5,Skjern\n", [.init(.coordinate, ["coord", "location"])]),
    ])
  func ambiguous(text: String, candidates: [CoordinateColumns.Candidates]) throws {
    let header = text.split(separator: "\n")[0].split(separator: ",").map(String.init)
    #expect(throws: BatchError.ambiguousColumns(candidates, header: header)) { try records(text) }
  }

  @Test("The refusal names the candidates and the option that chooses, as the front end calls it")
  func ambiguityMessage() {
    let latitude = BatchError.ambiguousColumns([.init(.latitude, ["latitude", "lat"])], header: [])
    #expect(
      latitude.description(naming: Self.commandLine)
        == "more than one column could be the latitude ('latitude', 'lat'); choose one with --lat-column")
    let both = BatchError.ambiguousColumns(
      [.init(.latitude, ["Lat", "lat"]), .init(.longitude, ["lon", "lng"])], header: [])
    #expect(
      both.description(naming: .init(latitude: "lat_column", longitude: "lon_column", coordinate: "c"))
        == "more than one column could be the latitude ('Lat', 'lat'), and more than one could be the longitude ('lon', 'lng'); choose them with lat_column and lon_column"
    )
    let whole = BatchError.ambiguousColumns([.init(.coordinate, ["coord", "location"])], header: [])
    #expect(
      whole.description(naming: Self.commandLine)
        == "more than one column could hold the whole coordinate ('coord', 'location'); choose one with --coordinate-column, or a latitude and a longitude with --lat-column and --lon-column"
    )
    // The library's own words name its own API, never a command's flag.
    #expect(!latitude.description.contains("--") && latitude.description.contains("CoordinateColumns.Names"))
  }

  @Test("A column named by the user settles the doubt; the other is still found by its name")
  func chosen() throws {
    let latitude = try records("latitude,lat,lon\n10,56,8.5\n", columns: .init(latitude: "lat"))
    #expect(latitude.rows.map(\.coordinate) == [Self.skjern])
    let longitude = try records("lat,lng,lon\n56,10,8.5\n", columns: .init(longitude: "lon"))
    #expect(longitude.rows.map(\.coordinate) == [Self.skjern])
    #expect(
      throws: BatchError.ambiguousColumns(
        [.init(.longitude, ["lng", "lon"])], header: ["lat", "lng", "lon"])
    ) {
      try records("lat,lng,lon\n56,10,8.5\n", columns: .init(latitude: "lat"))
    }
  }

  @Test(
    "The names people write are recognised, in any case, with a full stop, a unit or a degrees suffix",
    arguments: [
      "Lat.,Lon.", "latitude (deg),longitude (deg)", "LATITUDE_DD,LONGITUDE_DD", "latitud,longitud",
      "Breite,Länge", "BREITE,LÄNGE", "широта,долгота", "Широта,Долгота", "緯度,経度", "lat [°],lon [°]",
      "Latitude_deg,Longitude_deg", "Y,X", "decimalLatitude,decimalLongitude",
    ])
  func recognised(header: String) throws {
    let (input, rows) = try records("id," + header + "\n1,56,8.5\n")
    #expect(input.columnNames == ["id"] + header.split(separator: ",").map(String.init))
    #expect(rows.map(\.coordinate) == [Self.skjern])
  }

  @Test("y and x are a latitude and a longitude only as a pair")
  func pairOnly() throws {
    for header in ["y,lon", "lat,x", "y,long"] {
      #expect(
        throws: BatchError.noCoordinateColumns(
          header: header.split(separator: ",").map(String.init), separator: UInt8(ascii: ","))
      ) {
        try records(header + "\n56,8.5\n")
      }
    }
    #expect(try records("x,y\n8.5,56\n").rows.map(\.coordinate) == [Self.skjern])
  }

  @Test("One column holding the whole coordinate; a latitude and a longitude are used before it")
  func wholeCoordinate() throws {
    for name in ["coordinates", "Coord", "LOCATION"] {
      #expect(try records("id,\(name)\n1,56 8.5\n").rows.map(\.coordinate) == [Self.skjern])
    }
    // A location beside a latitude and a longitude is as often a place's name.
    let named = try records("location,lat,lon\nSkjern,56,8.5\n")
    #expect(named.rows.map(\.coordinate) == [Self.skjern])
  }

  @Test("JSON Lines members: the same rule, a row in doubt is a bad row naming its candidates")
  func jsonLines() throws {
    let text = "{\"latitude\":10,\"lat\":56,\"lon\":8.5}\n{\"lat\":56,\"lon\":8.5}\n"
    let (_, rows) = try records(text, columns: .init(options: Self.commandLine))
    #expect(
      rows[0].coordinate == nil
        && rows[0].problem
          == "more than one member could be the latitude ('latitude', 'lat'); choose one with --lat-column"
    )
    #expect(rows[1].coordinate == Self.skjern && rows[1].problem == nil)
    let chosen = try records(text, columns: .init(latitude: "lat"))
    #expect(chosen.rows.map(\.coordinate) == [Self.skjern, Self.skjern])
    let foreign = try records("{\"Breite\":56,\"Länge\":8.5}\n{\"緯度\":56,\"経度\":8.5}\n")
    #expect(foreign.rows.map(\.coordinate) == [Self.skjern, Self.skjern])
  }

  @Test("GeoJSON: a feature without a geometry has its coordinate from its properties, by the same rule")
  func geoJSONProperties() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":null,"properties":{"Lat.":56,"Lon.":8.5}},
      {"type":"Feature","properties":{"latitude":10,"lat":56,"lon":8.5}},
      {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,56]},"properties":{"latitude":10,"lat":1,"lon":2}},
      {"type":"Feature","geometry":null,"properties":{"name":"Skjern"}}
      ]}
      """
    let (_, rows) = try records(text, columns: .init(options: Self.commandLine))
    #expect(rows.count == 4)
    #expect(rows[0].coordinate == Self.skjern && rows[0].problem == nil)
    #expect(
      rows[1].coordinate == nil
        && rows[1].problem
          == "the feature has no geometry, and more than one property could be the latitude ('latitude', 'lat'); choose one with --lat-column"
    )
    // A Point geometry is the coordinate, whatever the properties say.
    #expect(rows[2].coordinate == Self.skjern && rows[2].problem == nil)
    #expect(rows[3].coordinate == nil && rows[3].problem?.hasPrefix("the feature has no geometry") == true)
    let chosen = try records(text, columns: .init(latitude: "lat"))
    #expect(chosen.rows[1].coordinate == Self.skjern)
  }

  @Test(
    "Semicolons, Excel's sep= line and # comment lines before the header are read; lines keep their numbers",
    arguments: [
      ("lat;lon;name\n56;8.5;Skjern\n", ";", 2),
      ("sep=;\nlat;lon;name\n56;8.5;Skjern\n", ";", 3),
      ("\u{FEFF}sep=;\r\nlat;lon;name\r\n56;8.5;Skjern\r\n", ";", 3),
      ("\"sep=;\"\nlat;lon;name\n56;8.5;Skjern\n", ";", 3),
      ("sep=,\nlat,lon,name\n56,8.5,Skjern\n", ",", 3),
      ("# exported 2024-05-01\n# WGS84\nlat,lon,name\n56,8.5,Skjern\n", ",", 4),
      ("# exported; by hand\nlat;lon;name\n56;8.5;Skjern\n", ";", 3),
      ("# a comment, with commas\nlat\tlon\tname\n56\t8.5\tSkjern\n", "\t", 3),
    ])
  func separators(text: String, separator: String, line: Int) throws {
    let (input, rows) = try records(text)
    #expect(input.separator == UInt8(ascii: separator.unicodeScalars.first!))
    #expect(input.columnNames == ["lat", "lon", "name"])
    #expect(rows.map(\.values) == [["56", "8.5", "Skjern"]] && rows.map(\.line) == [line])
    #expect(rows.map(\.coordinate) == [Self.skjern])
  }

  @Test("A # line after the header is a row; a separator not read is named in the refusal")
  func separatorNamed() throws {
    let (_, rows) = try records("lat,lon\n# 1,2\n56,8.5\n")
    #expect(rows.count == 2 && rows[0].problem != nil && rows[1].coordinate == Self.skjern)
    let error = BatchError.noCoordinateColumns(header: ["lat|lon"], separator: UInt8(ascii: ","))
    #expect(throws: error) { try records("lat|lon\n56|8.5\n") }
    #expect(
      error.description(naming: Self.commandLine)
        == "cannot tell which columns hold the coordinates (the header, split at commas, is 'lat|lon'); name them with --lat-column and --lon-column, or --coordinate-column"
    )
    // Semicolons beside commas: the commas separate, and the message says so.
    #expect(
      throws: BatchError.noCoordinateColumns(
        header: ["lat;lon;note", " with a comma"], separator: UInt8(ascii: ","))
    ) {
      try records("lat;lon;note, with a comma\n56;8.5;x\n")
    }
  }
}
