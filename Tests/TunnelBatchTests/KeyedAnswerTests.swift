import Foundation
import Testing
import TunnelGeo

@testable import TunnelBatch

/// A batch is answered by key (`PlacemarkKey`, ``KeyedColumns``), and with the nearest place too, by key
/// and the nearest places beside the keys; its output is byte for byte the one whole placemarks give, in
/// every format, on every kind of input.
@Suite struct KeyedAnswerTests {
  /// The output of a batch of `text`, answered by key or by whole placemarks.
  func output(
    _ text: String, format: BatchInputFormat? = nil, options: BatchRun.Options, byKey: Bool
  ) throws -> String {
    var options = options
    options.answersByKey = byKey
    #expect((options.keyedOnly || options.keyedWithNearestPlace) == byKey)
    return try BatchRunTests().run(text, options: options, format: format).output
  }

  static let keyedFields: [[PlacemarkField]] = [
    [.land], [.country], [.timeZone], [.sea], [.region], [.subregion], [.timeZone, .land, .country],
    [.nearestPlace, .timeZone], [.land, .country, .nearestPlace, .timeZone],
    [.sea, .land, .timeZone, .nearestPlace],
    [.region, .subregion, .country, .nearestPlace], [.boundaryKm], [.region, .boundaryKm, .timeZone],
    [.boundaryKm, .country, .nearestPlace, .sea], [.nearestLand], [.nearestLand, .sea, .land, .country],
    [.nearestLand, .nearestPlace], PlacemarkField.allCases,
  ]

  /// Points where each rule of the four fields decides: uniform, just off coasts and country borders
  /// (the tolerances), Xinjiang (two zones overlap), the open sea on both sides of a nautical zone's
  /// meridian and of the antimeridian, the poles, an enclave (the Vatican) and an atoll no outline holds
  /// (Nukunonu), lakes of one name and of several (Michigan and Huron), water GSHHG draws as sea (the
  /// IJsselmeer, the Vistula Lagoon), the sea far from every named one, and regions: US counties, French
  /// départements, Central Serbia (no ISO code), the Isle of Man, the sea just off a coast; with bad rows
  /// between them.
  static let points: String = {
    var text = "lat,lon\n"
    for (latitude, longitude) in [
      ("43.8", "87.6"), ("39.5", "76.0"), ("0", "7.4999"), ("0", "7.5001"), ("-10", "179.9999"),
      ("-10", "-179.9999"), ("90", "0"), ("-90", "0"), ("41.9029", "12.4534"), ("-9.17", "-171.84"),
      ("47.7", "-87.5"), ("45.78", "-85.05"), ("45.8", "-84.6"), ("40", "50"), ("52.75", "5.4"),
      ("54.4", "19.7"), ("-60", "-140"), ("40.015", "-105.27"), ("39.1", "-94.6"), ("48.85", "2.35"),
      ("44.0", "20.9"), ("54.2", "-4.5"), ("55.68", "12.62"), ("95", "0"), ("", "1"), ("x", "y"),
    ] {
      text += "\(latitude),\(longitude)\n"
    }
    let rows = BatchRunTests.wholeBatch.text.split(separator: "\n").dropFirst()
    return text + rows.joined(separator: "\n") + "\n"
  }()

  @Test(
    "The keys' rows are the whole placemarks' rows: uniform points, coasts, borders, overlaps, bad rows",
    arguments: BatchOutputFormat.allCases, keyedFields)
  func sameBytes(format: BatchOutputFormat, fields: [PlacemarkField]) throws {
    for (antipode, skipInvalid) in [(false, false), (true, false), (true, true)] {
      let options = BatchRun.Options(
        fields: fields, antipode: antipode, format: format, skipInvalid: skipInvalid, chunkSize: 700)
      let byKey = try output(Self.points, options: options, byKey: true)
      let whole = try output(Self.points, options: options, byKey: false)
      #expect(byKey.split(separator: "\n").count > 1_000)
      #expect(byKey == whole, "antipode \(antipode), skipInvalid \(skipInvalid)")
      // The zones a key holds whole (two polygons overlap in Xinjiang) are among them.
      if fields.contains(.timeZone) { #expect(byKey.contains("Asia/Urumqi")) }
      // Lakes of each kind, water GSHHG draws as sea, and a sea named from afar are among them.
      if fields.contains(.sea) {
        for name in [
          "Lake Superior", "Lake Michigan", "Lake Huron", "Caspian Sea", "IJsselmeer", "Vistula Lagoon",
        ] {
          #expect(byKey.contains(name), "\(name)")
        }
      }
    }
  }

  @Test(
    "The keys' rows are the whole placemarks' rows on hostile input: names the fields take, quotes, TSV, GeoJSON",
    arguments: BatchOutputFormat.allCases)
  func hostileInput(format: BatchOutputFormat) throws {
    let inputs: [(String, BatchInputFormat)] = [
      // Members named as the fields are: the row's own keep their names, Tunnel's go to tunnel_….
      (
        """
        {"lat":56,"lon":8.5,"timeZone":"mine","land":1,"country_code":"x"}
        {"lat":43.8,"lon":87.6,"tunnel_timeZone":null}
        {"lat":"a","lon":2}
        {"lon":-171.84,"lat":-9.17,"extra":[1,{"timeZone":2}]}

        """, .jsonl
      ),
      (
        "id,latitude,longitude,time_zone,land,country_code\n1,\"56\",8.5,\"a,\"\"b\",x,y\n2,0,7.5,,,\n3,91,0,,,\n",
        .csv
      ),
      ("lat\tlon\tnote\n41.9029\t12.4534\tVatican\n-90\t0\tpole\n", .tsv),
      (
        """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[87.6,43.8]},"properties":{"timeZone":1}},
        {"type":"Feature","geometry":null,"properties":{}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-179.9999,-10]},"properties":{"land":true}}
        ]}

        """, .geojson
      ),
    ]
    for (text, inputFormat) in inputs {
      for fields in Self.keyedFields {
        let options = BatchRun.Options(fields: fields, antipode: true, format: format)
        let byKey = try output(text, format: inputFormat, options: options, byKey: true)
        let whole = try output(text, format: inputFormat, options: options, byKey: false)
        #expect(!byKey.isEmpty)
        #expect(byKey == whole, "\(inputFormat) input, \(fields)")
      }
    }
  }

  @Test("Each set of keyed columns is made once in a process for a geocoder, and kept for the next batch")
  func columnsMadeOnce() throws {
    let geocoder = BatchRunTests.geocoder
    let csv = PlaceColumns.Format.delimited(separator: UInt8(ascii: ","))
    let fields: [PlacemarkField] = [.region, .subregion]
    let first = try KeyedColumns.shared(geocoder: geocoder, fields: fields, format: csv, precision: .data)
    let again = try KeyedColumns.shared(geocoder: geocoder, fields: fields, format: csv, precision: .data)
    #expect(first === again)
    // Another set of fields, format or precision, or another geocoder, makes its own.
    let others = [
      try KeyedColumns.shared(geocoder: geocoder, fields: [.region], format: csv, precision: .data),
      try KeyedColumns.shared(geocoder: geocoder, fields: fields, format: .json, precision: .data),
      try KeyedColumns.shared(geocoder: geocoder, fields: fields, format: csv, precision: .text),
      try KeyedColumns.shared(
        geocoder: ReverseGeocoder(data: try PlaceData()), fields: fields, format: csv, precision: .data),
    ]
    for other in others { #expect(other !== first) }
  }

  @Test(
    "Every field is answered by key, with or without the nearest place")
  func keyedFieldsOnly() {
    #expect(BatchRun.Options(fields: [.timeZone, .land]).keyedOnly)
    #expect(BatchRun.Options(fields: [.sea]).keyedOnly)
    #expect(BatchRun.Options(fields: [.sea, .region, .subregion]).keyedOnly)
    #expect(!BatchRun.Options(fields: [.timeZone, .nearestPlace]).keyedOnly)
    #expect(BatchRun.Options(fields: [.timeZone, .nearestPlace]).keyedWithNearestPlace)
    #expect(BatchRun.Options(fields: [.timeZone, .nearestPlace, .sea, .region]).keyedWithNearestPlace)
    #expect(!BatchRun.Options(fields: [.nearestPlace]).keyedWithNearestPlace)
    #expect(BatchRun.Options(fields: [.timeZone, .nearestPlace, .nearestLand]).keyedWithNearestPlace)
    #expect(BatchRun.Options(fields: PlacemarkField.allCases).keyedWithNearestPlace)
    #expect(!BatchRun.Options(fields: [.timeZone]).keyedWithNearestPlace)
    #expect(BatchRun.Options(fields: [.sea, .boundaryKm]).keyedOnly)
    #expect(BatchRun.Options(fields: [.boundaryKm, .nearestPlace]).keyedWithNearestPlace)
    #expect(BatchRun.Options(fields: [.sea, .nearestLand]).keyedOnly)
    #expect(BatchRun.Options(fields: [.boundaryKm, .nearestLand]).keyedOnly)
    #expect(!BatchRun.Options(fields: []).keyedOnly)
  }
}
