import Foundation
import Testing

@testable import TunnelGeo

/// Loading PROJ's library: a library that cannot be used is an error naming every library tried and why,
/// which every API that needs PROJ throws (none stops the process).
@Suite struct PROJLibraryTests {
  @Test("A library that is missing, is not a library, or is not PROJ is an attempt with the loader's reason")
  func unavailable() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tunnel-proj-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("libproj.so").path
    let empty = folder.appendingPathComponent("libproj.so.25").path
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    // zlib is a real shared library, without PROJ's functions.
    let names = [missing, empty, "libz.so.1"]
    guard case .failure(let error) = PROJLibrary.load(names),
      case .libraryUnavailable(let attempts) = error
    else {
      Issue.record("loaded PROJ from \(names)")
      return
    }
    #expect(attempts.map(\.library) == names)
    #expect(attempts[0].reason == "\(missing): cannot open shared object file: No such file or directory")
    #expect(attempts[1].reason == "\(empty): file too short")
    #expect(attempts[2].reason == "libz.so.1: no function proj_context_create")
    #expect(
      error.description
        == "PROJ's library could not be loaded (\(attempts.map(\.reason).joined(separator: "; "))); "
        + "install PROJ 9's run-time library (Debian and Ubuntu: apt-get install libproj25)")
  }

  @Test("The installed library is found under the names tried")
  func installed() {
    #expect((try? PROJLibrary.load(PROJLibrary.libraryNames).get()) != nil)
    #expect((try? PROJLibrary.shared.get()) != nil)
  }

}
