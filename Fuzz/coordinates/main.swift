import TunnelGeo
internal import CFuzzer
import FuzzSupport
import Glibc

// Any text either fails to parse, with an error whose message has no raw control or bidirectional
// characters (the message echoes the input), or gives a valid coordinate that each notation writes and
// reads back to the precision it prints.
func fuzzCoordinateParsing(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  let coordinate: Coordinate
  do {
    coordinate = try Coordinate(parsing: text)
  } catch {
    let message = error.description
    check(message.unicodeScalars.allSatisfy(isSafe), "unescaped input in the message: \(message.debugDescription)")
    check(message.utf8.count < 2_000, "a message of \(message.utf8.count) bytes")
    return 0
  }
  check(coordinate.latitude.isFinite && abs(coordinate.latitude) <= 90, "latitude \(coordinate.latitude)")
  check(
    coordinate.longitude.isFinite && coordinate.longitude >= -180 && coordinate.longitude <= 180,
    "longitude \(coordinate.longitude)")
  for (format, tolerance) in [
    (CoordinateFormat.decimal(places: 6), 0.6e-6), (.dms(secondsPlaces: 1), 0.06 / 3600),
    (.iso6709(places: 6), 0.6e-6),
  ] {
    let written = coordinate.formatted(format)
    guard let back = try? Coordinate(parsing: written) else {
      fatalError("\(text.debugDescription) gives \(coordinate), written \(written), which does not read back")
    }
    let longitudeDifference = abs(back.longitude - coordinate.longitude)
    check(
      abs(back.latitude - coordinate.latitude) <= tolerance
        && min(longitudeDifference, 360 - longitudeDifference) <= tolerance,
      "\(coordinate) written \(written) reads back as \(back)")
  }
  return 0
}

/// Whether a character may appear in a message as it is: not a control or bidirectional formatting one.
private func isSafe(_ scalar: Unicode.Scalar) -> Bool {
  if scalar.properties.generalCategory == .control { return false }
  return !(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value)
    && scalar.value != 0x200E && scalar.value != 0x200F && scalar.value != 0x061C
}

// libFuzzer's loop, with this process's options (Scripts/fuzz builds and runs it). Last in the file, so
// that the globals above are set before the first input.
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
var argumentCount = CommandLine.argc
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzCoordinateParsing($0, $1) })
