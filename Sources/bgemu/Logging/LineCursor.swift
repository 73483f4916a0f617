import Foundation

/// Writes a log line's bytes into a buffer of a size known in advance (one on the stack, see
/// ``withLine(capacity:_:)``), each piece with one `memcpy`. Appending to an `[UInt8]` costs a call of the generic
/// `append(contentsOf:)` each time, about 200 instructions for a piece of a few bytes (callgrind, a `/healthz` access
/// line of some 20 pieces). Never writes past the buffer: a piece that does not fit is cut short (the callers size
/// the buffer from the pieces, so none is; the log line tests hold the bytes whole).
struct LineCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// Runs `write` on a cursor over a buffer of `capacity` bytes (on the stack unless large), then `body` on what
    /// it wrote.
    static func withLine<Result>(
        capacity: Int, _ write: (inout LineCursor) -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, capacity)) { buffer in
            var cursor = LineCursor(buffer)
            write(&cursor)
            return body(UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.count))
        }
    }

    mutating func put(_ byte: UInt8) {
        guard count < capacity else { return }
        base[count] = byte
        count += 1
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = min(bytes.count, capacity - count)
        guard length > 0, let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: length)
        count += length
    }

    mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { put($0) }
    }

    /// A string's UTF-8 bytes: one copy for a native or small string (every string the service makes).
    mutating func put(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ put($0) }) == nil {
            for byte in text.utf8 { put(byte) }
        }
    }

    /// `number` in decimal digits, as `String(number)` writes it.
    mutating func putDecimal(_ number: Int) {
        guard number > 0 else {
            if number == 0 { put(UInt8(ascii: "0")) } else { put(String(number)) }
            return
        }
        var digits = 0
        var rest = number
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        guard count + digits <= capacity else { return }
        rest = number
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            base[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
    }
}
