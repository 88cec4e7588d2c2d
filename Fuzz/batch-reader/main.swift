import TunnelBatch
import TunnelGeo
internal import CFuzzer
import FuzzSupport
import Glibc

/// The package's own place data, for the batches below (they add no field, so nothing is looked up).
let geocoder: ReverseGeocoder = {
  let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
  guard let data = try? PlaceData(directory: "/" + root + "/Data") else {
    fatalError("fuzz-batch-reader: no place data in /\(root)/Data")
  }
  return ReverseGeocoder(data: data)
}()

/// Collects what a batch writes.
final class Collected: BatchByteSink {
  var bytes: [UInt8] = []
  func write(_ buffer: UnsafeBufferPointer<UInt8>) throws(BatchError) -> Bool {
    bytes.append(contentsOf: buffer)
    return true
  }
}

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
  // The same bytes through a whole batch written as Parquet (the CSV it would write, turned into columns
  // as it arrives): a file with its magic at both ends, or a plain error, never a trap.
  if let input = try? BatchInput(bytes: bytes, format: nil) {
    var options = BatchRun.Options(fields: [], format: .csv, threads: 1, chunkSize: 7)
    options.writesParquet = true
    let sink = Collected()
    do {
      _ = try BatchRun(input: input, geocoder: geocoder, options: options).run(to: sink)
      check(
        sink.bytes.count >= 12 && sink.bytes.prefix(4).elementsEqual("PAR1".utf8)
          && sink.bytes.suffix(4).elementsEqual("PAR1".utf8), "a Parquet file of \(sink.bytes.count) bytes")
    } catch let error as BatchError {
      check(!error.description.isEmpty, "an empty message for \(error)")
    } catch {
      check(false, "\(error)")
    }
  }
  return 0
}

// libFuzzer's loop, with this process's options (Scripts/fuzz builds and runs it). Last in the file, so
// that the globals above are set before the first input.
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
var argumentCount = CommandLine.argc
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzBatchReader($0, $1) })
