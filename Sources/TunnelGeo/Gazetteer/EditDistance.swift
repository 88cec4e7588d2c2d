/// Levenshtein distance from one fixed byte string to many others, with an upper bound that ends
/// hopeless comparisons early.
package struct EditDistance {
  package let target: [UInt8]
  private var previous: [Int]
  private var current: [Int]

  package init(target: [UInt8]) {
    self.target = target
    previous = Array(repeating: 0, count: target.count + 1)
    current = previous
  }

  /// The distance from `target` to `other`, or nil when it exceeds `limit`.
  package mutating func distance(to other: [UInt8], atMost limit: Int) -> Int? {
    let n = target.count
    guard n > 0 else { return other.count <= limit ? other.count : nil }
    for j in 0...n { previous[j] = j }
    for (i, byte) in other.enumerated() {
      current[0] = i + 1
      var rowMinimum = current[0]
      for j in 1...n {
        let substitution = previous[j - 1] + (target[j - 1] == byte ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      swap(&previous, &current)
    }
    return previous[n] <= limit ? previous[n] : nil
  }
}
