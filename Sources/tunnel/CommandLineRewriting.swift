/// Adjustments made to the raw arguments before the parser sees them.
enum CommandLineRewriting {
  /// Writes a leading "-" of a negative number as U+2212 MINUS SIGN, which the coordinate parser reads
  /// as a minus, so that `tunnel -33.9 18.4` is not taken for an option `-3`.
  ///
  /// Only arguments that start with "-" followed by a digit or a point are touched, and nothing after a
  /// `--`.
  static func protectingNegativeNumbers(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var afterTerminator = false
    for argument in arguments {
      if argument == "--" { afterTerminator = true }
      if !afterTerminator, argument.count > 1, argument.hasPrefix("-"),
        let second = argument.dropFirst().first, second.isNumber || second == "."
      {
        result.append("\u{2212}" + argument.dropFirst())
      } else {
        result.append(argument)
      }
    }
    return result
  }
}
