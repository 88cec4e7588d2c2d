import Foundation
import Testing
import TunnelGeo
import TunnelReports

/// The time zones the data names, as the text formats write them.
@Suite struct TimeZoneTextTests {
  @Test("Every zone of the time zone polygons and of the places has its file in the system's zone database")
  func everyZoneIsKnown() throws {
    let data = try PlaceData()
    let zones = try data.timeZones()
    let places = try data.places()
    var identifiers = Set((0..<zones.polygons.featureCount).map(zones.identifier))
    for place in 0..<places.count { identifiers.insert(places.timeZone(at: place)) }
    identifiers.remove("")
    #expect(identifiers.count > 300)
    for identifier in identifiers.sorted() {
      #expect(PlaceText.timeZone(identifier) != identifier, "\(identifier)")
    }
  }

  @Test("Offsets at fixed instants: whole hours, half hours, summer time, Etc/GMT's reversed sign")
  func offsets() {
    let summer = Date(timeIntervalSince1970: 1_751_328_000)  // 2025-07-01
    let winter = Date(timeIntervalSince1970: 1_736_942_400)  // 2025-01-15
    #expect(PlaceText.timeZone("Europe/Copenhagen", at: summer) == "Europe/Copenhagen (UTC+2)")
    #expect(PlaceText.timeZone("Europe/Copenhagen", at: winter) == "Europe/Copenhagen (UTC+1)")
    #expect(PlaceText.timeZone("America/St_Johns", at: winter) == "America/St_Johns (UTC\u{2212}3:30)")
    #expect(PlaceText.timeZone("Australia/Lord_Howe", at: summer) == "Australia/Lord_Howe (UTC+10:30)")
    #expect(PlaceText.timeZone("Etc/GMT+2", at: summer) == "Etc/GMT+2 (UTC\u{2212}2)")
    #expect(PlaceText.timeZone("Mars/Olympus_Mons", at: summer) == "Mars/Olympus_Mons")
    #expect(PlaceText.timeZone("", at: summer) == "")
  }
}
