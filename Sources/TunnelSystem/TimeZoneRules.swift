#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A time zone's offsets from UTC, read from its file in the system's time zone database: the TZif
/// format of RFC 8536, which the `tzdata` package installs in `/usr/share/zoneinfo` (or the folder `TZDIR`
/// names).
///
/// The offset at an instant is that of the last transition at or before it, that of the first local time
/// type before the first transition, and after the last one what the file's footer says: a POSIX `TZ`
/// string such as `CET-1CEST,M3.5.0,M10.5.0/3` (standard time and daylight saving time, and the rules
/// that switch between them each year).
///
///     let copenhagen = TimeZoneRules(identifier: "Europe/Copenhagen")
///     copenhagen?.secondsFromGMT(at: 1_751_328_000)  // 7200: 1 July 2025, summer time
///
/// Leap-second records (the `right/` zones) are skipped: the times are read as POSIX times.
package struct TimeZoneRules: Sendable, Equatable {
  /// The instants (seconds since 1970 UTC) at which the offset changes, ascending.
  private var transitions: [Int64]
  /// The offset from each transition on, in seconds east of UTC: `transitions.count` of them.
  private var offsets: [Int32]
  /// The offset before the first transition (and always, when there are none and no footer).
  private var initialOffset: Int32
  /// The footer's rule, for instants after the last transition.
  private var footer: PosixTimeZone?

  /// The zone of an IANA identifier ("Europe/Copenhagen", "Etc/GMT+2") from the database's folder
  /// (``folder(tzdir:)``): nil when it has no file there, the file is not TZif, or the identifier
  /// could name a file outside the folder (it begins with `/` or holds `..`).
  package init?(identifier: String) {
    self.init(identifier: identifier, folder: Self.folder(tzdir: environmentVariable("TZDIR")))
  }

  /// The zone of an identifier from the database in `folder`.
  package init?(identifier: String, folder: String) {
    guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.containsBytes("..") else { return nil }
    guard let bytes = readFile(folder + "/" + identifier, limit: 1 << 20) else { return nil }
    self.init(tzif: bytes)
  }

  /// The database's folder: the one `TZDIR` names, as the C library reads it, else `/usr/share/zoneinfo`.
  package static func folder(tzdir: String?) -> String {
    guard let named = tzdir, !named.isEmpty else { return "/usr/share/zoneinfo" }
    return named
  }

  /// The zone a TZif file's bytes describe; nil when they are not one.
  package init?(tzif bytes: [UInt8]) {
    var reader = TZifReader(bytes: bytes)
    guard reader.text(4) == "TZif", let version = reader.byte() else { return nil }
    reader.skip(15)
    guard let first = reader.header() else { return nil }
    var header = first
    var timeSize = 4
    if version >= UInt8(ascii: "2") {
      // The version 1 data, with 32-bit times, then a second header and the same data with 64-bit times,
      // then the footer.
      reader.skip(first.dataSize(timeSize: 4))
      guard reader.text(4) == "TZif" else { return nil }
      reader.skip(16)
      guard let second = reader.header() else { return nil }
      header = second
      timeSize = 8
    }
    guard header.typeCount > 0 else { return nil }
    var transitions: [Int64] = []
    transitions.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      guard let time = reader.signed(timeSize) else { return nil }
      transitions.append(time)
    }
    var typeIndices: [Int] = []
    typeIndices.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      guard let index = reader.byte(), Int(index) < header.typeCount else { return nil }
      typeIndices.append(Int(index))
    }
    var typeOffsets: [Int32] = []
    for _ in 0..<header.typeCount {
      guard let offset = reader.signed(4) else { return nil }
      reader.skip(2)  // whether it is daylight saving time, and its abbreviation
      typeOffsets.append(Int32(offset))
    }
    reader.skip(
      header.characterCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
    guard !reader.isPastEnd else { return nil }
    var footer: PosixTimeZone?
    if timeSize == 8, reader.byte() == UInt8(ascii: "\n"), let line = reader.line(), !line.isEmpty {
      footer = PosixTimeZone(line)
    }
    self.transitions = transitions
    offsets = typeIndices.map { typeOffsets[$0] }
    initialOffset = typeOffsets[0]
    self.footer = footer
  }

  /// The zone's offset from UTC at `time` (seconds since 1970 UTC), in seconds east of UTC: 7200 for
  /// UTC+2, -18000 for UTC−5.
  package func secondsFromGMT(at time: Int64) -> Int {
    guard let last = transitions.last else { return footer?.secondsFromGMT(at: time) ?? Int(initialOffset) }
    if time > last, let footer { return footer.secondsFromGMT(at: time) }
    guard time >= transitions[0] else { return Int(initialOffset) }
    // The last transition at or before `time`.
    var low = 0
    var high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle] <= time { low = middle } else { high = middle - 1 }
    }
    return Int(offsets[low])
  }
}

/// The fields of a TZif header that size its data.
private struct TZifHeader {
  var utcCount: Int
  var standardCount: Int
  var leapCount: Int
  var transitionCount: Int
  var typeCount: Int
  var characterCount: Int

  /// The bytes of the data block after this header, for times of `timeSize` bytes.
  func dataSize(timeSize: Int) -> Int {
    transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
      + standardCount + utcCount
  }
}

/// Reads a TZif file's bytes front to back, big-endian; a read past the end gives nil.
private struct TZifReader {
  let bytes: [UInt8]
  var offset = 0

  var isPastEnd: Bool { offset > bytes.count }

  mutating func skip(_ count: Int) { offset += count }

  mutating func byte() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A two's complement big-endian integer of `size` bytes (4 or 8).
  mutating func signed(_ size: Int) -> Int64? {
    guard offset + size <= bytes.count else { return nil }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    offset += size
    let shift = UInt64(64 - 8 * size)
    return Int64(bitPattern: value << shift) >> shift
  }

  mutating func text(_ count: Int) -> String? {
    guard offset + count <= bytes.count else { return nil }
    defer { offset += count }
    return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
  }

  /// The text up to the next line feed (skipped); nil when there is none.
  mutating func line() -> String? {
    guard offset <= bytes.count, let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else {
      return nil
    }
    defer { offset = end + 1 }
    return String(decoding: bytes[offset..<end], as: UTF8.self)
  }

  /// The six counts of a header (after its magic, version and reserved bytes).
  mutating func header() -> TZifHeader? {
    var counts: [Int] = []
    for _ in 0..<6 {
      guard let count = signed(4), count >= 0 else { return nil }
      counts.append(Int(count))
    }
    return TZifHeader(
      utcCount: counts[0], standardCount: counts[1], leapCount: counts[2], transitionCount: counts[3],
      typeCount: counts[4], characterCount: counts[5])
  }
}

/// A POSIX `TZ` string with RFC 8536's extensions: `std offset [dst [offset] [,start[/time],end[/time]]]`.
///
/// Names are letters, or anything but `>` between `<` and `>` (`<+0530>`); offsets are `[+|-]hh[:mm[:ss]]`,
/// positive west of Greenwich; daylight saving time is an hour ahead of standard time unless its offset
/// is given. A rule's day is `Jn` (1 to 365, 29 February never counted), `n` (0 to 365, counting it) or
/// `Mm.w.d` (day `d` of week `w` of month `m`, Sunday 0, week 5 the last); its time is local time then in
/// force, 02:00 unless given, and may be negative or past 24 hours (to 167). With no rule, the
/// United States' (`M3.2.0,M11.1.0`), as C libraries take.
struct PosixTimeZone: Sendable, Equatable {
  /// Standard time's offset, in seconds east of UTC.
  var standardOffset: Int
  /// Daylight saving time's, and when it starts and ends; nil for a zone without it.
  var daylight: Daylight?

  struct Daylight: Sendable, Equatable {
    var offset: Int
    var start: Transition
    var end: Transition
  }

  /// A day of the year and a time of it.
  struct Transition: Sendable, Equatable {
    var day: Day
    /// Seconds after that day's midnight, local time.
    var time: Int
  }

  enum Day: Sendable, Equatable {
    /// `Jn`: 1 to 365, 29 February not counted.
    case julian(Int)
    /// `n`: 0 to 365, 29 February counted.
    case zeroBased(Int)
    /// `Mm.w.d`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  /// The rule of a `TZ` string; nil when it is not one.
  init?(_ text: String) {
    var scanner = TZScanner(Array(text.utf8))
    guard scanner.name(), let standard = scanner.offset(maximumHours: 24) else { return nil }
    standardOffset = -standard
    if scanner.isAtEnd {
      daylight = nil
      return
    }
    guard scanner.name() else { return nil }
    var offset = standardOffset + 3600
    if !scanner.isAtEnd, scanner.peek != UInt8(ascii: ",") {
      guard let given = scanner.offset(maximumHours: 24) else { return nil }
      offset = -given
    }
    var start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    var end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    if !scanner.isAtEnd {
      guard scanner.take(","), let first = scanner.transition(), scanner.take(","),
        let second = scanner.transition(), scanner.isAtEnd
      else { return nil }
      start = first
      end = second
    }
    daylight = Daylight(offset: offset, start: start, end: end)
  }

  /// The offset at `time` (seconds since 1970 UTC), in seconds east of UTC.
  func secondsFromGMT(at time: Int64) -> Int {
    guard let daylight else { return standardOffset }
    let time = Int(time)
    let year = CivilDate.year(ofDay: floorDivide(time + standardOffset, 86400))
    // The rule's times are local: the start in standard time, the end in daylight saving time. The
    // neighbouring years' periods too, for rules whose times push a transition past New Year.
    func start(_ year: Int) -> Int { Self.instant(daylight.start, in: year) - standardOffset }
    func end(_ year: Int) -> Int { Self.instant(daylight.end, in: year) - daylight.offset }
    let northern = start(year) < end(year)
    for year in year - 1...year + 1 {
      if northern ? (start(year) <= time && time < end(year)) : (end(year) <= time && time < start(year)) {
        return northern ? daylight.offset : standardOffset
      }
    }
    return northern ? standardOffset : daylight.offset
  }

  /// Seconds since 1970 of `transition` in `year`, as if local time were UTC.
  static func instant(_ transition: Transition, in year: Int) -> Int {
    let january1 = CivilDate.days(year: year, month: 1, day: 1)
    let day: Int
    switch transition.day {
    case .julian(let number):
      day = january1 + number - 1 + (CivilDate.isLeap(year) && number >= 60 ? 1 : 0)
    case .zeroBased(let number):
      day = january1 + number
    case .monthWeekDay(let month, let week, let weekday):
      let first = CivilDate.days(year: year, month: month, day: 1)
      // 1 January 1970 was a Thursday (4).
      var date = 1 + (weekday - (first + 4) % 7 + 14) % 7 + (week - 1) * 7
      while date > CivilDate.daysIn(month: month, year: year) { date -= 7 }
      day = first + date - 1
    }
    return day * 86400 + transition.time
  }
}

/// Reads a `TZ` string's parts.
private struct TZScanner {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { index == bytes.count }
  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard peek == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  /// A zone's name: three letters or more, or `<…>`.
  mutating func name() -> Bool {
    if take("<") {
      let start = index
      while let byte = peek, byte != UInt8(ascii: ">") { index += 1 }
      guard index - start >= 3, take(">") else { return false }
      return true
    }
    let start = index
    while let byte = peek, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) { index += 1 }
    return index - start >= 3
  }

  /// `[+|-]hh[:mm[:ss]]` in seconds, hours up to `maximumHours`.
  mutating func offset(maximumHours: Int) -> Int? {
    var sign = 1
    if take("-") { sign = -1 } else { _ = take("+") }
    guard let hours = number(maximum: maximumHours) else { return nil }
    var seconds = hours * 3600
    if take(":") {
      guard let minutes = number(maximum: 59) else { return nil }
      seconds += minutes * 60
      if take(":") {
        guard let rest = number(maximum: 59) else { return nil }
        seconds += rest
      }
    }
    return sign * seconds
  }

  /// `Jn`, `n` or `Mm.w.d`, then `/time` or not.
  mutating func transition() -> PosixTimeZone.Transition? {
    let day: PosixTimeZone.Day
    if take("J") {
      guard let number = number(maximum: 365), number >= 1 else { return nil }
      day = .julian(number)
    } else if take("M") {
      guard let month = number(maximum: 12), month >= 1, take("."), let week = number(maximum: 5), week >= 1,
        take("."), let weekday = number(maximum: 6)
      else { return nil }
      day = .monthWeekDay(month: month, week: week, weekday: weekday)
    } else {
      guard let number = number(maximum: 365) else { return nil }
      day = .zeroBased(number)
    }
    var time = 7200
    if take("/") {
      guard let given = offset(maximumHours: 167) else { return nil }
      time = given
    }
    return PosixTimeZone.Transition(day: day, time: time)
  }

  /// Decimal digits, at most `maximum`.
  mutating func number(maximum: Int) -> Int? {
    let start = index
    var value = 0
    while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      index += 1
      guard value <= maximum else { return nil }
    }
    return index > start ? value : nil
  }
}

/// Days of the proleptic Gregorian calendar, counted from 1 January 1970.
enum CivilDate {
  static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysIn(month: Int, year: Int) -> Int {
    month == 2 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  }

  /// The day number of a date (after Howard Hinnant's `days_from_civil`).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = floorDivide(year, 400)
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year a day number falls in.
  static func year(ofDay days: Int) -> Int {
    let shifted = days + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
  }
}

/// `dividend / divisor` rounded down.
private func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
  let quotient = dividend / divisor
  return dividend % divisor < 0 ? quotient - 1 : quotient
}
