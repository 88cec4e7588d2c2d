import TunnelGeo

/// Adjustments made to the raw arguments before the parser sees them, and the mistakes caught there.
enum CommandLineRewriting {
  /// The commands, as typed: ``Tunnel/commandNames``.
  static var commands: [String] { Tunnel.commandNames }

  /// Options that take a value in the next argument (or after `=`), across every command. Kept by hand,
  /// as the parser would need its reflection over every command to list them (half of a single query's
  /// start-up); a test holds this list and ``flags`` against `tunnel --experimental-dump-help`.
  static let valueOptions: Set<String> = [
    "--data", "--format", "--limit", "--view", "--svg", "--overlay", "--width", "--height", "--zoom",
    "--trace-lifecycle",
    "--within", "--min-population",
    "--input-format", "--fields", "--lat-column", "--lon-column", "--coordinate-column", "--precision",
    "--threads",
    "--generate-completion-script",
  ]

  /// Options that stand alone (the parser's own `--help`, `-h`, `--version` and
  /// `--experimental-dump-help` among them).
  static let flags: Set<String> = [
    "--antipode", "--skip-invalid", "--ascii", "--help", "-h", "--version",
    "--experimental-dump-help",
  ]

  /// `--color auto|always|never` (or `--color=…`), which every command takes, wherever it stands before a
  /// `--`: the choice, and the arguments without it. The last one given counts; the default is `auto`.
  static func colorOption(_ arguments: [String]) throws(Mistake) -> (ColorChoice, [String]) {
    var choice = ColorChoice.auto
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        rest += arguments[(index - 1)...]
        break
      }
      guard argument == "--color" || argument.hasPrefix("--color=") else {
        rest.append(argument)
        continue
      }
      var value = String(argument.dropFirst("--color".count))
      if value.hasPrefix("=") {
        value.removeFirst()
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      }
      guard let chosen = ColorChoice(rawValue: value) else {
        throw Mistake(
          message:
            "--color takes 'auto', 'always' or 'never', not \(EchoedText.quoted(value)); see 'tunnel --help'")
      }
      choice = chosen
    }
    return (choice, rest)
  }

  /// A mistake in the arguments that the parser would report confusingly, or not at all.
  struct Mistake: Error {
    var message: String
  }

  /// The arguments as the parser should see them.
  ///
  /// - A command named after leading options moves to the front, so that `tunnel --data DIR where 56
  ///   8.5` runs `where`, not `antipode` on the words "where 56 8.5".
  /// - A negative number given as an option's value is joined to it (`--zoom -1` becomes
  ///   `--zoom=-1`), so the option's own check reports it as typed.
  /// - Any other argument that starts with "-" followed by a digit or a point has that "-" written as
  ///   U+2212 MINUS SIGN, which the coordinate parser reads as a minus, so that `tunnel -33.9 18.4`
  ///   is not taken for an option `-3`.
  ///
  /// Nothing after a `--` is touched.
  ///
  /// - Throws: ``Mistake`` for an option no command has, or `help` with a command that does not exist.
  static func rewritten(_ arguments: [String]) throws(Mistake) -> [String] {
    var arguments = arguments
    if let command = leadingCommandIndex(arguments), command > 0 {
      arguments.insert(arguments.remove(at: command), at: 0)
    }
    if arguments.first == "help", arguments.count > 1, !commands.contains(arguments[1]),
      arguments[1] != "help"
    {
      throw Mistake(
        message:
          "there is no command \(EchoedText.quoted(arguments[1])); the commands are \(commands.sorted().joined(separator: ", "))"
      )
    }
    var result: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        result += arguments[(index - 1)...]
        break
      }
      if isNegativeNumber(argument) {
        result.append("\u{2212}" + argument.dropFirst())
        continue
      }
      // "-" alone names standard input.
      if argument.hasPrefix("-"), argument != "-" {
        let name = String(argument.prefix { $0 != "=" })
        guard valueOptions.contains(name) || flags.contains(name) else {
          throw Mistake(
            message: "there is no option \(EchoedText.quoted(name)); see 'tunnel --help' for the options")
        }
        // An option's value is taken whole, even one that begins with "-".
        if valueOptions.contains(argument), index < arguments.count, arguments[index].hasPrefix("-") {
          result.append(argument + "=" + arguments[index])
          index += 1
          continue
        }
      }
      result.append(argument)
    }
    return result
  }

  /// The position of a command's name that only options (and their values) stand before.
  private static func leadingCommandIndex(_ arguments: [String]) -> Int? {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if commands.contains(argument) || argument == "help" { return index }
      guard argument.hasPrefix("-"), argument != "--", !isNegativeNumber(argument) else { return nil }
      index += valueOptions.contains(argument) ? 2 : 1
    }
    return nil
  }

  /// Whether an argument is "-" followed by an ASCII digit or a point: a negative number, not an
  /// option. Other numerals (`-万`, `-٣`) are not numbers to the coordinate parser either.
  private static func isNegativeNumber(_ argument: String) -> Bool {
    guard argument.count > 1, argument.hasPrefix("-"), let second = argument.dropFirst().first else {
      return false
    }
    return (second.isASCII && second.isNumber) || second == "."
  }
}
