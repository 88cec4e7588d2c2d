import Foundation
import Testing

@testable import TunnelSystem

/// The zones of the system's database (Debian's `tzdata`) at fixed instants, and the `TZ` strings of their
/// footers on their own.
@Suite struct TimeZoneRulesTests {
  func offset(_ identifier: String, _ time: Int64) throws -> Int {
    try #require(TimeZoneRules(identifier: identifier)).secondsFromGMT(at: time)
  }

  @Test("Copenhagen: UTC+2 in summer, UTC+1 in winter, changing at 01:00 UTC on the last Sundays")
  func copenhagen() throws {
    #expect(try offset("Europe/Copenhagen", 1_751_328_000) == 7200)  // 2025-07-01 00:00 UTC
    #expect(try offset("Europe/Copenhagen", 1_736_942_400) == 3600)  // 2025-01-15 12:00 UTC
    #expect(try offset("Europe/Copenhagen", 1_743_296_400 - 1) == 3600)  // 2025-03-30 00:59:59 UTC
    #expect(try offset("Europe/Copenhagen", 1_743_296_400) == 7200)  // 01:00 UTC
    #expect(try offset("Europe/Copenhagen", 1_761_440_400 - 1) == 7200)  // 2025-10-26 00:59:59 UTC
    #expect(try offset("Europe/Copenhagen", 1_761_440_400) == 3600)
  }

  @Test("New York: EST to EDT at 07:00 UTC on 9 March 2025, back at 06:00 UTC on 2 November")
  func newYork() throws {
    #expect(try offset("America/New_York", 1_741_503_600 - 1) == -18000)
    #expect(try offset("America/New_York", 1_741_503_600) == -14400)
    #expect(try offset("America/New_York", 1_762_063_200 - 1) == -14400)
    #expect(try offset("America/New_York", 1_762_063_200) == -18000)
  }

  @Test("Half and quarter hours: Kolkata UTC+5:30, Lord Howe UTC+10:30 in winter and +11 in summer")
  func halfHours() throws {
    #expect(try offset("Asia/Kolkata", 1_751_328_000) == 19800)
    #expect(try offset("Asia/Kolkata", 1_736_942_400) == 19800)
    #expect(try offset("Australia/Lord_Howe", 1_743_865_200 - 1) == 39600)  // 2025-04-05 14:59:59 UTC
    #expect(try offset("Australia/Lord_Howe", 1_743_865_200) == 37800)
    #expect(try offset("Australia/Lord_Howe", 1_751_328_000) == 37800)
    #expect(try offset("Australia/Lord_Howe", 1_759_591_800 - 1) == 37800)  // 2025-10-04 15:29:59 UTC
    #expect(try offset("Australia/Lord_Howe", 1_759_591_800) == 39600)
    #expect(try offset("Australia/Lord_Howe", 1_736_942_400) == 39600)
  }

  @Test("Long after the last transition the footer's rule answers: 2099, 2100 and 2200")
  func footer() throws {
    #expect(try offset("Europe/Copenhagen", 4_078_429_200 - 1) == 3600)  // 2099-03-29 00:59:59 UTC
    #expect(try offset("Europe/Copenhagen", 4_078_429_200) == 7200)
    #expect(try offset("Europe/Copenhagen", 4_096_573_200 - 1) == 7200)  // 2099-10-25 00:59:59 UTC
    #expect(try offset("Europe/Copenhagen", 4_096_573_200) == 3600)
    #expect(try offset("Europe/Copenhagen", 4_118_083_200) == 7200)  // 2100-07-01
    #expect(try offset("Europe/Copenhagen", 4_103_654_400) == 3600)  // 2100-01-15
    #expect(try offset("America/New_York", 7_274_059_200) == -14400)  // 2200-07-04 12:00 UTC
    #expect(try offset("America/New_York", 7_289_049_600) == -18000)  // 2200-12-25
    #expect(try offset("Australia/Lord_Howe", 10_418_889_600) == 39600)  // 2300-03-01, summer
    #expect(try offset("Asia/Kolkata", 10_418_889_600) == 19800)
  }

  @Test("Etc/GMT+2 is two hours behind UTC (its sign is POSIX's), Etc/UTC is UTC")
  func fixedZones() throws {
    #expect(try offset("Etc/GMT+2", 1_751_328_000) == -7200)
    #expect(try offset("Etc/GMT-12", 1_751_328_000) == 43200)
    #expect(try offset("Etc/UTC", 1_751_328_000) == 0)
  }

  @Test("No zone for an unknown identifier, an empty one, or one that could leave the database's folder")
  func unknown() {
    #expect(TimeZoneRules(identifier: "Mars/Olympus_Mons") == nil)
    #expect(TimeZoneRules(identifier: "") == nil)
    #expect(TimeZoneRules(identifier: "../../../etc/hostname") == nil)
    #expect(TimeZoneRules(identifier: "Europe/../Europe/Copenhagen") == nil)
    #expect(TimeZoneRules(identifier: "/usr/share/zoneinfo/Europe/Copenhagen") == nil)
    #expect(TimeZoneRules(identifier: "Europe") == nil)  // a folder
    #expect(TimeZoneRules(tzif: Array("not a zone".utf8)) == nil)
    #expect(TimeZoneRules(tzif: []) == nil)
  }

  @Test("A zone file is read from the folder given, as from the one TZDIR names")
  func otherFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tzdir-\(getpid())")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Test"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Asia/Kolkata", toPath: folder.appendingPathComponent("Test/Zone").path)
    let zone = try #require(TimeZoneRules(identifier: "Test/Zone", folder: folder.path))
    #expect(zone.secondsFromGMT(at: 0) == 19800)
    #expect(TimeZoneRules(identifier: "Test/Zone") == nil)
    #expect(TimeZoneRules.folder(tzdir: "/opt/zones") == "/opt/zones")
    #expect(TimeZoneRules.folder(tzdir: "") == "/usr/share/zoneinfo")
    #expect(TimeZoneRules.folder(tzdir: nil) == "/usr/share/zoneinfo")
  }

  /// Zones whose rules are unusual: half hours, daylight saving time in winter (Dublin), negative times
  /// in the footer (Nuuk), times past 24 hours (Jerusalem), the southern hemisphere, two hours' change
  /// (Troll), 45 minutes (Chatham).
  static let unusualZones = [
    "Australia/Lord_Howe", "Europe/Dublin", "America/Nuuk", "Asia/Jerusalem", "America/Santiago",
    "Antarctica/Troll", "Pacific/Chatham", "Asia/Tehran", "Africa/Casablanca", "America/Scoresbysund",
    "Pacific/Auckland", "America/Sao_Paulo",
  ]

  @Test(
    "The zones give the offsets zdump gives, at each transition from 1900 to 2200: every eighth zone of the database and the unusual ones"
  )
  func agreesWithZdump() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zdump") else { return }
    let all = try FileManager.default.subpathsOfDirectory(atPath: "/usr/share/zoneinfo").filter {
      $0.first!.isUppercase && !$0.contains(".") && TimeZoneRules(identifier: $0) != nil
    }.sorted()
    #expect(all.count > 300)
    let names = Set(stride(from: 0, to: all.count, by: 8).map { all[$0] } + Self.unusualZones)
    let zones = try Dictionary(
      uniqueKeysWithValues: names.map { ($0, try #require(TimeZoneRules(identifier: $0))) })
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    var checked = 0
    // "Europe/Copenhagen  Sun Mar 30 00:59:59 2025 UT = Sun Mar 30 01:59:59 2025 CET isdst=0 gmtoff=3600"
    for line in try Self.zdump(names.sorted()).split(separator: "\n") where !line.hasSuffix("NULL") {
      let words = line.split(separator: " ")
      guard words.count >= 12, let zone = zones[String(words[0])],
        let month = months.firstIndex(of: String(words[2])),
        let day = Int(words[3]), let year = Int(words[5]), let offset = Int(words.last!.dropFirst(7))
      else {
        Issue.record("zdump said \(line)")
        continue
      }
      let clock = words[4].split(separator: ":").compactMap { Int($0) }
      let time =
        CivilDate.days(year: year, month: month + 1, day: day) * 86400 + clock[0] * 3600 + clock[1] * 60
        + clock[2]
      #expect(zone.secondsFromGMT(at: Int64(time)) == offset, "\(line)")
      checked += 1
    }
    #expect(checked > 10_000)
  }

  /// What `zdump -v` says of zones from 1900 to 2200.
  static func zdump(_ names: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
    process.arguments = ["-v", "-c", "1900,2200"] + names
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
  }
}

@Suite struct PosixTimeZoneTests {
  func offset(_ rule: String, _ time: Int64) throws -> Int {
    try #require(PosixTimeZone(rule)).secondsFromGMT(at: time)
  }

  @Test("Standard time alone: names of letters or in angle brackets, signs and hh:mm:ss")
  func standardOnly() throws {
    #expect(try offset("UTC0", 0) == 0)
    #expect(try offset("<+0530>-5:30", 0) == 19800)
    #expect(try offset("<-0330>3:30", 0) == -12600)
    #expect(try offset("LMT-0:50:20", 0) == 3020)
    #expect(try offset("EST+5", 0) == -18000)
    #expect(try offset("<+14>-14", 0) == 50400)
  }

  @Test("Mm.w.d rules, the default time 02:00, given times and the fifth week as the last")
  func monthRules() throws {
    let copenhagen = "CET-1CEST,M3.5.0,M10.5.0/3"
    #expect(try offset(copenhagen, 1_743_296_400 - 1) == 3600)
    #expect(try offset(copenhagen, 1_743_296_400) == 7200)
    #expect(try offset(copenhagen, 1_761_440_400 - 1) == 7200)
    #expect(try offset(copenhagen, 1_761_440_400) == 3600)
    // No rule: the United States' second Sunday of March and first of November.
    #expect(try offset("EST5EDT", 1_741_503_600 - 1) == -18000)
    #expect(try offset("EST5EDT", 1_741_503_600) == -14400)
    #expect(try offset("EST5EDT", 1_762_063_200) == -18000)
  }

  @Test("The southern hemisphere: daylight saving time across New Year, half an hour ahead")
  func southern() throws {
    let lordHowe = "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"
    #expect(try offset(lordHowe, 1_743_865_200 - 1) == 39600)
    #expect(try offset(lordHowe, 1_743_865_200) == 37800)
    #expect(try offset(lordHowe, 1_759_591_800 - 1) == 37800)
    #expect(try offset(lordHowe, 1_759_591_800) == 39600)
    #expect(try offset(lordHowe, 1_735_689_600) == 39600)  // 2025-01-01
  }

  @Test("Negative times and times past 24 hours (RFC 8536), Julian days with and without 29 February")
  func extensions() throws {
    // Greenland: -2 all year with -1 in summer, switching at -1:00 and 0:00 local time.
    let nuuk = "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"
    #expect(try offset(nuuk, 1_743_296_400 - 1) == -7200)  // 2025-03-30 01:00 UTC is 23:00 on the 29th
    #expect(try offset(nuuk, 1_743_296_400) == -3600)
    #expect(try offset(nuuk, 1_761_440_400 - 1) == -3600)
    #expect(try offset(nuuk, 1_761_440_400) == -7200)
    // Israel: from the Friday before the last Sunday of March (day 4 of week 4, at 26:00, which is
    // Friday 02:00).
    let israel = "IST-2IDT,M3.4.4/26,M10.5.0"
    #expect(try offset(israel, 1_743_120_000 - 1) == 7200)  // 2025-03-28 00:00 UTC is 02:00 local
    #expect(try offset(israel, 1_743_120_000) == 10800)
    // Daylight saving time all year.
    #expect(try offset("EST5EDT,0/0,J365/25", 1_736_942_400) == -14400)
    #expect(try offset("EST5EDT,0/0,J365/25", 1_751_328_000) == -14400)
    // J60 is 1 March in every year; 59 (zero-based) is 29 February in a leap year, 1 March otherwise.
    let julian = "AAA0BBB,J60/0,J61/0"
    #expect(try offset(julian, 951_868_800) == 3600)  // 2000-03-01
    #expect(try offset(julian, 951_782_400) == 0)  // 2000-02-29
    let zeroBased = "AAA0BBB,59/0,60/0"
    #expect(try offset(zeroBased, 951_782_400) == 3600)  // 2000-02-29
    #expect(try offset(zeroBased, 951_868_800) == 0)  // 2000-03-01
    #expect(try offset(zeroBased, 983_404_800) == 3600)  // 2001-03-01
  }

  @Test("Text that is no TZ string")
  func malformed() {
    for text in [
      "", "C", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+05", "CET-25",
      "CET-1CEST,M3.6.0,M10.5.0",
    ] {
      #expect(PosixTimeZone(text) == nil, "\(text)")
    }
  }
}
