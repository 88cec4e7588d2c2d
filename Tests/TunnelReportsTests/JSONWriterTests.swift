import Foundation
import Testing
import TunnelGeo
import TunnelReports

@Suite("The one JSON writer")
struct JSONWriterTests {
  /// A value of every kind, nested, with empty containers and escapes.
  static func sample(_ json: inout JSONWriter) {
    json.object { json in
      json.member("empty array") { $0.array { _ in } }
      json.member("empty object") { $0.object { _ in } }
      json.member("list") { json in
        json.array([1.5, 2, -0.25]) { json, value in json.number(value, places: 3) }
      }
      json.member("nested") { json in
        json.object { json in
          json.member("degrees") { $0.degrees(55.950000000049) }
          json.member("longitude") { $0.longitude(179.9999999999) }
          json.member("kilometres") { $0.kilometres(20003.9317520004) }
          json.member("nothing") { $0.string(nil) }
        }
      }
      json.member("text") { $0.string("a \"b\" \\ c\n\u{1}/é") }
      json.member("whole") { $0.integer(-7) }
      json.member("yes") { $0.bool(true) }
    }
  }

  @Test("Pretty text is laid out as Foundation's pretty printer lays it out, with the same values")
  func prettyAsFoundation() throws {
    var json = JSONWriter(style: .pretty, precision: .data)
    Self.sample(&json)
    // The same document made of Foundation values and printed by JSONSerialization.
    let reference: [String: Any] = [
      "empty array": [Any](), "empty object": [String: Any](), "list": [1.5, 2, -0.25],
      "nested": ["degrees": 55.95, "longitude": -180, "kilometres": 20003.931752, "nothing": NSNull()],
      "text": "a \"b\" \\ c\n\u{1}/é", "whole": -7, "yes": true,
    ]
    let parsed = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? NSDictionary
    #expect(parsed == reference as NSDictionary)
    #expect(
      json.text == """
        {
          "empty array" : [

          ],
          "empty object" : {

          },
          "list" : [
            1.5,
            2,
            -0.25
          ],
          "nested" : {
            "degrees" : 55.95,
            "longitude" : -180,
            "kilometres" : 20003.931752,
            "nothing" : null
          },
          "text" : "a \\"b\\" \\\\ c\\n\\u0001/é",
          "whole" : -7,
          "yes" : true
        }
        """)
  }

  @Test("Compact text has no space and no line break, members in the order given")
  func compact() {
    var json = JSONWriter(style: .compact, precision: try! Precision(degrees: 2))
    json.object { json in
      json.member("z") { $0.degrees(1.005) }
      json.member("a") {
        $0.array([JSONValue.null, "x", .number(0.00001, places: 5)]) { $1.writeJSON(to: &$0) }
      }
    }
    #expect(json.text == #"{"z":1,"a":[null,"x",0.00001]}"#)
  }

  @Test("A number that is not finite is null; -0 is 0")
  func specialNumbers() {
    var json = JSONWriter()
    json.array { json in
      json.number(.nan, places: 3)
      json.number(.infinity, places: 3)
      json.number(-0.0, places: 3)
      json.degrees(-0.0000000001)
    }
    #expect(json.text == "[null,null,0,0]")
  }
}

@Suite("Precision")
struct PrecisionTests {
  @Test("0 to 15 decimals of degrees, kilometres three fewer and one at least; anything else refused")
  func range() throws {
    #expect(try Precision(degrees: 0).kilometres == 1)
    #expect(try Precision(degrees: 9).kilometres == 6)
    #expect(try Precision(degrees: 15).kilometres == 12)
    #expect(Precision.text.degrees == 6 && Precision.data.degrees == 9)
    for bad in [-1, 16, 99, Int.min] {
      #expect(throws: Precision.OutOfRange(degrees: bad)) { try Precision(degrees: bad) }
    }
    #expect(try Precision.given(nil, otherwise: .text) == .text)
    #expect(try Precision.given(3, otherwise: .text).degrees == 3)
  }

  @Test("A longitude that rounds to 180 is -180, the same meridian")
  func longitude() throws {
    #expect(try Precision(degrees: 3).longitude(179.9996) == -180)
    #expect(try Precision(degrees: 3).longitude(-179.9996) == -180)
    #expect(try Precision(degrees: 3).longitude(179.9994) == 179.999)
  }

  @Test("Rounding past 2⁵⁰ rounds the exact binary value in decimal")
  func past2to50() throws {
    #expect(try Precision(degrees: 15).degrees(-4.4545019) == -4.4545019)
    #expect(try Precision(degrees: 15).degrees(-70.21937) == -70.21937)
  }
}
