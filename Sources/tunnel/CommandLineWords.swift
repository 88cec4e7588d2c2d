/// A command's words (the place, the name, the two ends) handed to swift-argument-parser as a few
/// arguments rather than one each.
///
/// The parser takes time quadratic in the values of one array argument: each value merges the array's
/// growing set of origins again, copying it, so 20,000 words took 9 s and 40,000 took 38 s. Here a run
/// of consecutive words goes to the parser as one argument, its words joined by NUL — a character no
/// command-line argument can hold — and each command's `validate()` splits them again with
/// ``expanded(_:)``, so it sees exactly the words typed, in time linear in their number.
///
/// ```swift
/// CommandLineWords.collapsed(["dig", "56", "8.5", "--format", "json", "to", "Wellington"])
/// // ["dig", "56\0" + "8.5", "--format", "json", "to\0Wellington"]
/// ```
enum CommandLineWords {
  /// What joins the words of a run: NUL, which no argument can contain.
  static let separator: Character = "\0"

  /// The commands whose words are collapsed: those whose only positional argument is a list of words.
  /// Kept by hand for start-up speed; a test holds it against `tunnel --experimental-dump-help`.
  static let commands: Set<String> = ["antipode", "where", "find", "dig", "map", "play"]

  /// `arguments` (rewritten by ``CommandLineRewriting``, the command first when it is named) with each run
  /// of words joined into one argument. Options, their values and everything after `--` stay as they are;
  /// the arguments of other commands, and of `help`, are returned unchanged.
  ///
  /// - Complexity: O(*n*) in the arguments' total length.
  static func collapsed(_ arguments: [String]) -> [String] {
    guard let first = arguments.first else { return arguments }
    let named = commands.contains(first)
    // Another command, or help; with no command named, the default command (antipode) gets the words.
    if !named, CommandLineRewriting.commands.contains(first) || first == "help" { return arguments }
    var result: [String] = named ? [first] : []
    result.reserveCapacity(arguments.count)
    var run: [String] = []
    func endRun() {
      guard !run.isEmpty else { return }
      result.append(run.joined(separator: String(separator)))
      run.removeAll(keepingCapacity: true)
    }
    var index = named ? 1 : 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        endRun()
        result += arguments[index...]
        return result
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        run.append(argument)
        index += 1
        continue
      }
      endRun()
      result.append(argument)
      index += 1
      if CommandLineRewriting.valueOptions.contains(argument), index < arguments.count {
        result.append(arguments[index])
        index += 1
      }
    }
    endRun()
    return result
  }

  /// `words` as typed: each argument that ``collapsed(_:)`` made from a run split into its words again.
  ///
  /// - Complexity: O(*n*) in the words' total length.
  static func expanded(_ words: [String]) -> [String] {
    guard words.contains(where: { $0.contains(separator) }) else { return words }
    return words.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
  }
}
