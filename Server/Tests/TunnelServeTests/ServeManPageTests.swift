import Foundation
import Testing

/// The serve part of docs/man/tunnel.1: its examples are those `tunnel serve --help` prints, and each one
/// starts a server that answers the page's curl examples.
@Suite("The manual page's serve examples", .serialized)
struct ServeManPageTests {
  @Test("The page holds serve's examples as its help prints them (Scripts/man was run)")
  func examplesAreCurrent() throws {
    let inPage = Set(try ManPage.examples())
    let help = try TunnelProcess.run(["serve", "--help"])
    #expect(help.status == 0, "\(help.standardError)")
    let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex(of: "Examples:"), "serve has examples")
    let examples = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
    #expect(!examples.isEmpty)
    for example in examples {
      #expect(inPage.contains(example), "'\(example)' is not in docs/man/tunnel.1; run Scripts/man")
    }
  }

  @Test("serve's help shows no stray backslash at the end of a line")
  func noStrayBackslash() throws {
    let result = try TunnelProcess.run(["serve", "--help"])
    #expect(result.status == 0)
    #expect(!result.standardOutput.split(separator: "\n").contains { $0.hasSuffix("\\") })
  }

  @Test("Every example of serve starts a server that the curl examples ask, and SIGTERM ends it with 0")
  func serveExamplesRun() throws {
    let examples = try ManPage.examples()
    let servers = examples.filter { $0.hasPrefix("tunnel serve") }
    let requests = examples.filter { $0.hasPrefix("curl ") }
    #expect(servers.count >= 2 && !requests.isEmpty)
    for example in servers {
      // On a free port whatever the example says, so that a busy 8080 does not fail the test.
      var words = example.split(separator: " ").dropFirst().map(String.init)
      if let port = words.firstIndex(of: "--port") {
        words.removeSubrange(port...(port + 1))
      }
      let server = try ServerProcess(
        Array(words.dropFirst()) + (words.contains("--quiet") ? [] : ["--quiet"]))
      for request in requests {
        // curl 'http://127.0.0.1:8080/path?query' asked of this server.
        let url = try #require(request.split(separator: "'").dropFirst().first)
        let path = String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
        let response = try server.get(path)
        #expect(response.status == 200, "\(request): \(response.text)")
      }
      #expect(server.stop() == 0, "\(example): \(server.errorText)")
    }
  }
}
