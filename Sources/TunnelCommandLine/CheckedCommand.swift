import ArgumentParser

/// A command whose arguments `tunnel` checks itself once the parser has read them, rather than in the
/// parser's `validate()`.
///
/// swift-argument-parser hands back a mistake thrown from `validate()` wrapped in its own error type,
/// which is not public, so that it could be told from one the parser found only by looking inside that
/// type. Checked here instead, a command's mistake reaches ``Tunnel/main()`` as it was thrown: a
/// `ValidationError` is the command's, already in Tunnel's words, and everything `parseAsRoot(_:)` throws
/// is the parser's (``UsageMessage``). `validate()` is left to tidy what was read (words joined by
/// ``CommandLineWords``), which cannot fail.
///
/// ```swift
/// var command = try Tunnel.parseAsRoot(["find", "--limit", "0", "Paris"])
/// try (command as? any CheckedCommand)?.check()   // ValidationError: --limit must be at least 1, not 0
/// ```
public protocol CheckedCommand: ParsableCommand {
  /// Refuses arguments that parse but make no sense, with a `ValidationError` that says so in the
  /// command line's words; the option groups' checks come first, in the order they are declared, as the
  /// parser would have validated them.
  func check() throws
}

extension ParsableCommand {
  /// Runs ``CheckedCommand/check()`` when the command has one.
  public func checked() throws {
    try (self as? any CheckedCommand)?.check()
  }
}
