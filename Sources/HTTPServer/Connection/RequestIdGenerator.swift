/// Makes request ids without locks: a random per-process prefix, the loop's index and a per-loop counter,
/// in hex (`5f3a9c-0-1b`). Unique within the process; one generator per loop, used on its thread only.
/// Ids stay within Swift's 15-byte small-string form for the first 16 million requests of a loop, so
/// making one does not allocate.
struct RequestIdGenerator {
    /// 24 random bits chosen once per process, so ids from two runs rarely collide.
    private static let processPrefix = Int.random(in: 0..<(1 << 24))

    private let loopIndex: Int
    private let prefix: Int
    private var counter = 0

    init(loopIndex: Int) {
        self.loopIndex = loopIndex
        self.prefix = Self.processPrefix
    }

    /// The next id.
    mutating func next() -> String {
        counter = counter == Int.max ? 1 : counter + 1
        let length = 6 + 1 + Self.hexDigits(loopIndex) + 1 + Self.hexDigits(counter)
        let (prefix, loopIndex, counter) = (prefix, loopIndex, counter)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = 0
            func put(_ value: Int, digits: Int) {
                for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                    buffer[index] = Self.hex((value >> shift) & 0xF)
                    index += 1
                }
            }
            put(prefix, digits: 6)
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put(loopIndex, digits: Self.hexDigits(loopIndex))
            buffer[index] = UInt8(ascii: "-")
            index += 1
            put(counter, digits: Self.hexDigits(counter))
            return index
        }
    }

    @inline(__always)
    private static func hexDigits(_ value: Int) -> Int {
        max(1, (Int.bitWidth - value.leadingZeroBitCount + 3) / 4)
    }

    @inline(__always)
    private static func hex(_ nibble: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: nibble < 10 ? 48 + nibble : 87 + nibble)
    }
}
