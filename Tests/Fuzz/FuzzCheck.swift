import Glibc

/// Stops the fuzzer with `message` when `condition` is false. Unlike `precondition`, the message survives `-O`,
/// so libFuzzer's crash report says which invariant broke.
@inline(__always)
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if condition() { return }
    let text = Array("fuzz invariant broken: \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
