import TunnelBatch
internal import CFuzzer
import FuzzSupport
import Glibc

// Any bytes, read in every input format and with the format guessed, give rows or a plain error: never
// a trap, never a hang, and every row has either a coordinate or a problem, on a line that does not go
// backwards.
func fuzzBatchReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  for format in [nil] + BatchInputFormat.allCases.map(Optional.some) {
    let input: BatchInput
    do {
      input = try BatchInput(bytes: bytes, format: format)
    } catch {
      check(!error.description.isEmpty, "an empty message for \(error)")
      continue
    }
    var rows = 0
    var line = 0
    while true {
      let record: BatchRecord?
      do {
        record = try input.next()
      } catch {
        check(!error.description.isEmpty, "an empty message for \(error)")
        break
      }
      guard let record else { break }
      rows += 1
      // Every row takes at least one byte (its line end) but the last: more rows than that is a loop.
      check(rows <= count + 1, "\(rows) rows from \(count) bytes")
      check((record.coordinate == nil) != (record.problem == nil), "row \(rows): \(record)")
      check(record.line >= line && record.line >= 1, "line \(record.line) after \(line)")
      line = record.line
      if let coordinate = record.coordinate {
        check(abs(coordinate.latitude) <= 90 && coordinate.longitude.isFinite, "\(coordinate)")
      }
    }
    check(input.bytesRead <= count, "read \(input.bytesRead) of \(count) bytes")
  }
  return 0
}

// libFuzzer's loop, with this process's options (Scripts/fuzz builds and runs it). Last in the file, so
// that the globals above are set before the first input.
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
var argumentCount = CommandLine.argc
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzBatchReader($0, $1) })
