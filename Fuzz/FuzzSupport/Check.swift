/// Stops the fuzzer with `message` when `condition` fails: libFuzzer keeps the input, and the message
/// says what went wrong (an optimised build drops the messages of `precondition`, never of `fatalError`).
@inline(__always)
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() { fatalError(message()) }
}
