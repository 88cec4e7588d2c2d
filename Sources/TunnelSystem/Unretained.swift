/// A reference to an object that something else keeps alive, read without counting it: for objects that
/// every core reads for every row or point (a batch's indexes, the columns its rows copy), where counting
/// a reference to an object both cores share, each time, cost more than the work itself.
package struct Unretained<Object: AnyObject & Sendable>: @unchecked Sendable {
  // @unchecked: the object is Sendable; Unmanaged is only its address.
  @usableFromInline let reference: Unmanaged<Object>

  package init?(_ object: Object?) {
    guard let object else { return nil }
    reference = .passUnretained(object)
  }

  /// Calls `body` with the object, neither retained nor released.
  @inlinable @inline(__always) package func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result
  {
    try reference._withUnsafeGuaranteedRef(body)
  }
}
