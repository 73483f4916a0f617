import Foundation

/// Writes JSON straight to bytes, as ``CompactJSONEncoder`` writes it (Foundation's `JSONEncoder` with
/// `.sortedKeys`), for the types whose JSON is written by hand (``JSONWritable``) and for the encoder itself.
///
/// A member's comma is written by ``key(_:)`` itself, and an element's by ``array(_:_:)``: after `{` or `[` none
/// is needed, after anything else one is. Keys are written in the order they are given: a ``JSONWritable`` gives
/// them sorted by their UTF-8 bytes (``object(sorting:_:)`` sorts a dictionary's).
///
/// The bytes are written into an array kept at its full capacity (`room`: what has been written is its first
/// `count` bytes, the rest zeros), each piece by one copy after one check of the room left, so that a key, say,
/// is a comma, a quote, one `memcpy` of its name and two bytes more, with no array made or grown a byte at a time.
/// ``finish()`` hands the array over, cut to what was written, without a copy.
public struct JSONWriter {
    /// What has been written, then zeros: `room.count` is the capacity, and nothing is ever written at or past it.
    private var room: [UInt8]
    /// How many bytes of `room` have been written.
    private var count = 0
    /// How strings, slashes and dates are written.
    public let options: CompactJSONEncoder.Options

    public init(options: CompactJSONEncoder.Options, capacity: Int = 1024) {
        self.options = options
        room = [UInt8](repeating: 0, count: Swift.max(capacity, 0))
    }

    /// What has been written: a copy of it (the writer keeps writing into its own array); ``finish()`` hands the
    /// bytes over without one.
    public var bytes: [UInt8] { Array(room[..<count]) }

    /// What has been written, handed over without a copy; the writer is left empty (with no capacity).
    public mutating func finish() -> [UInt8] {
        var written: [UInt8] = []
        swap(&written, &room)  // `room` is now the writer's no more: `written` is the array's one owner
        written.removeSubrange(count...)  // in place: only the count changes
        count = 0
        return written
    }

    // MARK: Writing bytes

    /// Makes sure `room` has `needed` bytes after what has been written.
    @inline(__always)
    private mutating func reserve(_ needed: Int) {
        if room.count &- count < needed { grow(needed) }
    }

    /// A larger array (at least twice the size, and enough for `needed` bytes more), what has been written copied
    /// into it, the rest zeros.
    @inline(never)
    private mutating func grow(_ needed: Int) {
        let capacity = Swift.max(count + needed, room.count * 2, 64)
        let written = count
        room = room.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: capacity) { new, initialized in
                let end = new.initialize(fromContentsOf: old[..<written])
                new[end...].initialize(repeating: 0)
                initialized = capacity
            }
        }
    }

    /// Writes at most `limit` bytes with `body`, given the array's bytes and where to start; `body` returns where
    /// what it wrote ends. Callers count their bytes: `limit` is reserved first, and `body` writes no more.
    @inline(__always)
    private mutating func write(
        atMost limit: Int, _ body: (UnsafeMutableBufferPointer<UInt8>, Int) -> Int
    ) {
        reserve(limit)
        let start = count
        count = room.withUnsafeMutableBufferPointer { bytes in
            let end = body(bytes, start)
            assert(start <= end && end <= start + limit && end <= bytes.count, "wrote past what was reserved")
            return end
        }
    }

    /// One byte.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        write(atMost: 1) { bytes, at in
            bytes[at] = byte
            return at + 1
        }
    }

    /// A literal's bytes, in one copy.
    @inline(__always)
    private mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { put($0) }
    }

    /// Bytes as they are, in one copy.
    private mutating func put(_ source: UnsafeBufferPointer<UInt8>) {
        guard !source.isEmpty else { return }
        write(atMost: source.count) { bytes, at in
            UnsafeMutableBufferPointer(rebasing: bytes[at...]).update(fromContentsOf: source) + at
        }
    }

    // MARK: Containers

    /// An object: `body` writes its members with ``key(_:)`` and a value each.
    public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        put(UInt8(ascii: "{"))
        try body(&self)
        put(UInt8(ascii: "}"))
    }

    /// An array of `elements`, each written by `body`. Inlinable, as ``object(sorting:_:)`` is, so that the
    /// caller's module specializes it: generic, each call looked up its types' metadata (~1,400 instructions).
    @inlinable
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ body: (inout JSONWriter, Elements.Element) throws -> Void
    ) rethrows {
        append(UInt8(ascii: "["))
        for element in elements {
            separate(after: UInt8(ascii: "["))
            try body(&self, element)
        }
        append(UInt8(ascii: "]"))
    }

    /// An object member's key written in the source (a name of letters and digits, which needs no escape), and
    /// its comma when a member came before it; its value is written next.
    public mutating func key(_ literal: StaticString) {
        literal.withUTF8Buffer { name in
            assert(!name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") },
                   "a key literal that needs escapes: use key(named:)")
            write(atMost: name.count + 4) { bytes, start in  // `,"` name `":`
                var at = start
                if at > 0, bytes[at - 1] != UInt8(ascii: "{") {
                    bytes[at] = UInt8(ascii: ",")
                    at += 1
                }
                bytes[at] = UInt8(ascii: "\"")
                at += 1
                if !name.isEmpty {
                    at += UnsafeMutableBufferPointer(rebasing: bytes[at...]).update(fromContentsOf: name)
                }
                bytes[at] = UInt8(ascii: "\"")
                bytes[at + 1] = UInt8(ascii: ":")
                return at + 2
            }
        }
    }

    /// An object member's key of any text (a dictionary's), escaped, and its comma when a member came before it.
    public mutating func key(named name: String) {
        separate(after: UInt8(ascii: "{"))
        string(name)
        put(UInt8(ascii: ":"))
    }

    /// `dictionary` as an object with keys in JSONEncoder's `.sortedKeys` order, each value written by `body`; an
    /// empty one is `{}` without a sort (a device's policy overrides, on every device written).
    @inlinable
    public mutating func object<Value>(
        sorting dictionary: [String: Value], _ body: (inout JSONWriter, Value) throws -> Void
    ) rethrows {
        if dictionary.isEmpty {
            append(UInt8(ascii: "{"))
            append(UInt8(ascii: "}"))
            return
        }
        try object { writer in
            for (name, value) in dictionary.sorted(by: { JSONKeyOrder.compare($0.key, $1.key) < 0 }) {
                writer.key(named: name)
                try body(&writer, value)
            }
        }
    }

    /// One byte of structure (the encoder's own objects and arrays, and the inlinable containers').
    @usableFromInline
    mutating func append(_ byte: UInt8) { put(byte) }

    /// A comma, unless nothing has been written or the last byte written is `opening`.
    @usableFromInline
    mutating func separate(after opening: UInt8) {
        if count > 0, room[count - 1] != opening { put(UInt8(ascii: ",")) }
    }

    // MARK: Values

    public mutating func null() { put("null") }

    public mutating func bool(_ value: Bool) { put(value ? "true" : "false") }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func int(_ value: Int64) {
        if value < 0 {
            put(UInt8(ascii: "-"))
            uint(value.magnitude)
        } else {
            uint(UInt64(value))
        }
    }

    public mutating func uint(_ value: UInt64) {
        if value < 10 {
            put(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits = 2  // UInt64.max has 20
        var bound: UInt64 = 100
        while digits < 20, value >= bound {
            digits += 1
            bound &*= 10
        }
        write(atMost: digits) { bytes, start in
            var at = start + digits
            var rest = value
            repeat {  // the last digit first
                at -= 1
                bytes[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            assert(at == start)
            return start + digits
        }
    }

    /// A finite number as JSONEncoder writes it (Swift's shortest round-tripping text without a trailing `.0`);
    /// a non-finite one throws `EncodingError.invalidValue`, as JSONEncoder does.
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        floatingText(value.description)
    }

    mutating func float(_ value: Float) { floatingText(value.description) }

    /// A number's `description` (ASCII: digits, `-`, `.`, `e`), without a trailing `.0`.
    private mutating func floatingText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if utf8.count >= 2, utf8[utf8.count - 2] == UInt8(ascii: "."), utf8[utf8.count - 1] == UInt8(ascii: "0") {
                put(UnsafeBufferPointer(rebasing: utf8.dropLast(2)))
            } else {
                put(utf8)
            }
        }
    }

    /// A date as the encoder's options write it: their `dateText`, else `Date.encode(to:)`'s number.
    public mutating func date(_ value: Date) throws {
        if let text = options.dateText {
            string(text(value))
        } else {
            try double(value.timeIntervalSinceReferenceDate)
        }
    }

    /// JSON already written, as it is.
    public mutating func raw(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { put($0) }
    }

    /// `value` through its `Encodable` conformance, with these options: for the parts of a hand-written type that
    /// are not worth writing by hand.
    public mutating func encodable<T: Encodable>(_ value: T) throws {
        raw(try CompactJSONEncoder(options: options).encode(value))
    }

    /// A string in quotes, escaped as JSONEncoder escapes it.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// Whether `byte` is written escaped in a string.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8, escapesSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapesSlashes)
    }

    /// Whether any of the eight bytes of `word` is written escaped in a string: one below 0x20, `"`, `\`, or `/`
    /// when slashes are escaped. Exact: a byte below `n` (here 0x20, or 1 for a byte equal to one of `word`'s
    /// after an `xor`) borrows into its own high bit when `n` is subtracted from every byte, and no byte at or
    /// above `n` below it borrows (Bit Twiddling Hacks, "Determine if a word has a byte less than n").
    @inline(__always)
    private static func needsEscape(word: UInt64, escapesSlashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func below(_ n: UInt64, _ x: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highs }
        var found = below(0x20, word) | below(1, word ^ (ones &* 0x22)) | below(1, word ^ (ones &* 0x5C))
        if escapesSlashes { found |= below(1, word ^ (ones &* 0x2F)) }
        return found != 0
    }

    /// Where the first byte of `utf8` to escape is, or `utf8.count`: eight bytes at a time (the last eight
    /// overlapping the ones before when the count is not a multiple of eight), then a byte at a time in the word
    /// that has one.
    @inline(__always)
    private static func firstEscape(in utf8: UnsafeBufferPointer<UInt8>, escapesSlashes: Bool) -> Int {
        var index = 0
        if utf8.count >= 8, let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index < utf8.count {
                let offset = Swift.min(index, utf8.count - 8)
                if needsEscape(word: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), escapesSlashes: escapesSlashes) {
                    index = offset
                    break
                }
                index = offset + 8
            }
        }
        while index < utf8.count, !needsEscape(utf8[index], escapesSlashes: escapesSlashes) { index += 1 }
        return index
    }

    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        let escapesSlashes = options.escapesSlashes
        let first = Self.firstEscape(in: utf8, escapesSlashes: escapesSlashes)  // the first byte to escape, if any
        if first == utf8.count {  // the common case: nothing to escape, the text in one copy between its quotes
            write(atMost: utf8.count + 2) { bytes, start in
                bytes[start] = UInt8(ascii: "\"")
                var at = start + 1
                if !utf8.isEmpty {
                    at += UnsafeMutableBufferPointer(rebasing: bytes[at...]).update(fromContentsOf: utf8)
                }
                bytes[at] = UInt8(ascii: "\"")
                return at + 1
            }
            return
        }
        put(UInt8(ascii: "\""))
        var runStart = 0
        for index in first..<utf8.count {
            let byte = utf8[index]
            guard Self.needsEscape(byte, escapesSlashes: escapesSlashes) else { continue }
            put(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            write(atMost: 6) { bytes, start in
                bytes[start] = UInt8(ascii: "\\")
                let letter: UInt8
                switch byte {
                case UInt8(ascii: "\""): letter = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): letter = UInt8(ascii: "\\")
                case UInt8(ascii: "/"): letter = UInt8(ascii: "/")
                case 0x08: letter = UInt8(ascii: "b")
                case 0x0C: letter = UInt8(ascii: "f")
                case 0x0A: letter = UInt8(ascii: "n")
                case 0x0D: letter = UInt8(ascii: "r")
                case 0x09: letter = UInt8(ascii: "t")
                default:  // another control character: \u00XX, its hex digits lowercase
                    bytes[start + 1] = UInt8(ascii: "u")
                    bytes[start + 2] = UInt8(ascii: "0")
                    bytes[start + 3] = UInt8(ascii: "0")
                    bytes[start + 4] = Self.hexDigit(byte >> 4)
                    bytes[start + 5] = Self.hexDigit(byte & 0x0F)
                    return start + 6
                }
                bytes[start + 1] = letter
                return start + 2
            }
        }
        put(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        put(UInt8(ascii: "\""))
    }

    /// The lowercase hex digit of `nibble` (0...15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}

/// A type whose JSON is written by hand: ``CompactJSONEncoder`` writes it with ``write(to:)`` instead of its
/// `Encodable` conformance, which stays the reference (a test of each conformer holds the two to the same bytes).
/// For the values encoded on every request of a hot route, where `Encodable`'s containers cost more than the rest.
public protocol JSONWritable: Encodable {
    /// Writes the value's JSON (one value: an object, usually), keys in `.sortedKeys` order.
    func write(to writer: inout JSONWriter) throws
}
