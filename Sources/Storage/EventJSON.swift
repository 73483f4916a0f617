// The stored form of an event's `data`: JSON text that reads back as exactly the values that were written.
import CompactJSON
import Emulation

/// JSON for `[String: EventValue]` (RFC 8259), written and read here rather than with `JSONEncoder`, because the
/// Foundation coders lose a distinction the log must keep: they write the double `30.0` as `30`, and read `30.0`
/// back as an integer. Here a double is always written with a fraction or an exponent (Swift's shortest
/// round-trip form: `30.0`, `1e-07`, `1.5e+300`) and an integer never is, so every value reads back equal.
///
/// Keys are sorted by their UTF-8 bytes (the same data, the same text); strings escape only what RFC 8259 §7
/// requires; `/` and non-ASCII characters are written as they are. A non-finite double cannot be written.
enum EventJSON {
    /// Why data cannot be written or read.
    enum Failure: Error, Equatable {
        /// NaN or an infinity: JSON has no such number.
        case nonFiniteNumber(String)
        /// The text is not a JSON object of values, at this UTF-8 offset.
        case malformed(offset: Int)
    }

    /// Nesting deeper than this is refused when reading, so a hostile text cannot exhaust the stack.
    static let maximumDepth = 256

    // MARK: Writing

    /// The JSON text of `data`.
    static func encode(_ data: [String: EventValue]) throws -> String {
        var out: [UInt8] = []
        try write(data, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON of `data` to `out` as UTF-8 bytes: the text ``encode(_:)`` answers, without building a
    /// `String` field by field (the clock's advance writes one per event). On a throw, `out` may hold a part.
    static func write(_ data: [String: EventValue], to out: inout [UInt8]) throws {
        try writeObject(data, to: &out)
    }

    private static func write(_ value: EventValue, to out: inout [UInt8]) throws {
        switch value {
        case .null: append("null" as StaticString, to: &out)
        case .bool(true): append("true" as StaticString, to: &out)
        case .bool(false): append("false" as StaticString, to: &out)
        case .int(let int): writeInteger(int, to: &out)
        case .double(let double):
            guard double.isFinite else { throw Failure.nonFiniteNumber("\(double)") }
            append(double.description, to: &out)  // always with "." or "e": read back as a double
        case .string(let string): writeString(string, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members): try writeObject(members, to: &out)
        }
    }

    private static func writeObject(_ members: [String: EventValue], to out: inout [UInt8]) throws {
        out.append(UInt8(ascii: "{"))
        // The members are copied once into a buffer on the stack and sorted there by their keys' UTF-8 bytes: an
        // insertion sort (an event has a handful), whose moves retain nothing, and whose comparisons are mostly
        // settled by each key's first eight bytes read as a number. Reading the dictionary by index for each
        // comparison, and an array of positions per object, cost more than writing the text.
        if !members.isEmpty {
            try withUnsafeTemporaryAllocation(of: Member.self, capacity: members.count) { buffer in
                guard let base = buffer.baseAddress else { return }
                var count = 0
                defer { base.deinitialize(count: count) }
                for (key, value) in members {
                    (base + count).initialize(to: Member(key: key, prefix: JSONKeyOrder.prefix(key), value: value))
                    var position = count
                    count += 1
                    while position > 0, precedes(base + position, base + position - 1) {
                        buffer.swapAt(position, position - 1)
                        position -= 1
                    }
                }
                for index in 0..<count {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    writeString(base[index].key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    try write(base[index].value, to: &out)
                }
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A member of an object being written, with its key's `JSONKeyOrder.prefix`.
    private struct Member {
        var key: String
        var prefix: UInt64
        var value: EventValue
    }

    /// Whether member `a` comes before member `b`: by their keys' first bytes, then, when those are the same, by
    /// every byte.
    private static func precedes(_ a: UnsafeMutablePointer<Member>, _ b: UnsafeMutablePointer<Member>) -> Bool {
        if a.pointee.prefix != b.pointee.prefix { return a.pointee.prefix < b.pointee.prefix }
        return JSONKeyOrder.compare(a.pointee.key, b.pointee.key) < 0
    }

    /// The decimal digits of `int`, as `String(int)` writes them.
    private static func writeInteger(_ int: Int64, to out: inout [UInt8]) {
        if int < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = int.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max, filled from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[start...])
        }
    }

    /// A JSON string: only what RFC 8259 §7 requires is escaped; every other byte is copied as it is (UTF-8 bytes
    /// of non-ASCII scalars are all 0x80 or above, so a byte-wise scan escapes exactly the scalars that need it).
    private static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0  // the first byte not yet copied
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): append(#"\""#, to: &out)
                case UInt8(ascii: "\\"): append(#"\\"#, to: &out)
                case UInt8(ascii: "\n"): append(#"\n"#, to: &out)
                case UInt8(ascii: "\r"): append(#"\r"#, to: &out)
                case UInt8(ascii: "\t"): append(#"\t"#, to: &out)
                default:
                    append(#"\u00"#, to: &out)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A lowercase hexadecimal digit, as `String(_:radix:)` writes it.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    // MARK: Reading

    static func decode(_ text: String) throws -> [String: EventValue] {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipSpace()
        guard case .object(let members) = try reader.value(depth: 0) else { throw Failure.malformed(offset: 0) }
        reader.skipSpace()
        guard reader.atEnd else { throw Failure.malformed(offset: reader.offset) }
        return members
    }

    /// A recursive-descent reader of RFC 8259 JSON over UTF-8 bytes.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset >= bytes.count }
        private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }
        private func failure() -> Failure { .malformed(offset: offset) }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func value(depth: Int) throws -> EventValue {
            guard depth < EventJSON.maximumDepth, let byte = current else { throw failure() }
            switch byte {
            case UInt8(ascii: "{"): return .object(try object(depth: depth))
            case UInt8(ascii: "["): return .array(try array(depth: depth))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        private mutating func object(depth: Int) throws -> [String: EventValue] {
            offset += 1
            var members: [String: EventValue] = [:]
            skipSpace()
            if current == UInt8(ascii: "}") { offset += 1; return members }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw failure() }
                let key = try string()
                skipSpace()
                try expect(":")
                skipSpace()
                members[key] = try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") { offset += 1; continue }
                try expect("}")
                return members
            }
        }

        private mutating func array(depth: Int) throws -> [EventValue] {
            offset += 1
            var elements: [EventValue] = []
            skipSpace()
            if current == UInt8(ascii: "]") { offset += 1; return elements }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") { offset += 1; continue }
                try expect("]")
                return elements
            }
        }

        /// `-? int frac? exp?`: an integer when it has neither fraction nor exponent and fits in 64 bits.
        private mutating func number() throws -> EventValue {
            let start = offset
            var isInteger = true
            if current == UInt8(ascii: "-") { offset += 1 }
            let leadingZero = current == UInt8(ascii: "0")
            let integerDigits = try digits()
            guard integerDigits > 0, !leadingZero || integerDigits == 1 else { throw failure() }  // no `01`
            if current == UInt8(ascii: ".") {
                isInteger = false
                offset += 1
                guard try digits() > 0 else { throw failure() }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                isInteger = false
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard try digits() > 0 else { throw failure() }
            }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            if isInteger, let int = Int64(text) { return .int(int) }
            guard let double = Double(text), double.isFinite else { throw Failure.malformed(offset: start) }
            return .double(double)
        }

        private mutating func digits() throws -> Int {
            let start = offset
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
            return offset - start
        }

        private mutating func string() throws -> String {
            offset += 1  // the opening quote
            var out: [UInt8] = []
            while let byte = current {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escape = current else { throw failure() }
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"): out.append(contentsOf: Array(String(try escapedScalar()).utf8))
                    default: throw failure()
                    }
                case ..<0x20:
                    throw failure()  // control characters must be escaped (RFC 8259 §7)
                default:
                    out.append(byte)
                }
            }
            throw failure()
        }

        /// The scalar of `\uXXXX` (after the `u`), joining a UTF-16 surrogate pair; a lone surrogate is U+FFFD.
        private mutating func escapedScalar() throws -> Character {
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first), current == UInt8(ascii: "\\"), offset + 1 < bytes.count,
                bytes[offset + 1] == UInt8(ascii: "u")
            {
                let saved = offset
                offset += 2
                let second = try hex4()
                if (0xDC00..<0xE000).contains(second) {
                    let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    return Character(Unicode.Scalar(value)!)
                }
                offset = saved
            }
            return Character(Unicode.Scalar(first) ?? "\u{FFFD}")
        }

        private mutating func hex4() throws -> UInt32 {
            guard offset + 4 <= bytes.count else { throw failure() }
            var value: UInt32 = 0
            for byte in bytes[offset..<offset + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure()
                }
                value = value << 4 | UInt32(digit)
            }
            offset += 4
            return value
        }

        private mutating func literal(_ word: String) throws {
            let utf8 = Array(word.utf8)
            guard offset + utf8.count <= bytes.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
                throw failure()
            }
            offset += utf8.count
        }

        private mutating func expect(_ character: Unicode.Scalar) throws {
            guard current == UInt8(ascii: character) else { throw failure() }
            offset += 1
        }
    }
}
