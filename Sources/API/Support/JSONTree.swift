import Foundation

/// A JSON value as its text has it: a number keeps its digits (`18446744073709551616` is not rounded to a `Double`),
/// so that ``JSONTreeDecoder`` can say which field a number does not fit, and by how much.
indirect enum JSONTree: Equatable {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// What a field found, for a message: `a string`, `null`, `an array`, …
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The deepest nesting read (Foundation's own parser refuses deeper texts).
    static let maximumDepth = 512

    /// The tree of a well-formed JSON text; nil when the text is not one value, or is nested deeper than
    /// ``maximumDepth``.
    static func parse(_ bytes: [UInt8]) -> JSONTree? {
        var reader = Reader(bytes: bytes)
        guard let tree = reader.value() else { return nil }
        reader.skipSpace()
        return reader.i == bytes.count ? tree : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var depth = 0

        mutating func value() -> JSONTree? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < JSONTree.maximumDepth else { return nil }
                depth += 1
                defer { depth -= 1 }
                return bytes[i] == UInt8(ascii: "{") ? object() : array()
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default:
                let start = i
                while i < bytes.count, Self.isNumberByte(bytes[i]) { i += 1 }
                return i > start ? .number(String(decoding: bytes[start..<i], as: UTF8.self)) : nil
            }
        }

        mutating func object() -> JSONTree? {
            i += 1
            var members: [String: JSONTree] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard let name = string() else { return nil }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let member = value() else { return nil }
                members[name] = member
                skipSpace()
                guard i < bytes.count else { return nil }
                i += 1
                if bytes[i - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[i - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func array() -> JSONTree? {
            i += 1
            var elements: [JSONTree] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                guard i < bytes.count else { return nil }
                i += 1
                if bytes[i - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[i - 1] == UInt8(ascii: ",") else { return nil }
            }
        }

        /// A string at `i`, its escapes decoded (by Foundation's decoder, the rare string that has one).
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i
            i += 1
            var escaped = false
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
                i += 1
            }
            guard i < bytes.count else { return nil }
            i += 1
            if !escaped { return String(decoding: bytes[start + 1..<i - 1], as: UTF8.self) }
            return try? JSONDecoder().decode(String.self, from: Data(bytes[start..<i]))
        }

        mutating func literal(_ word: StaticString, _ tree: JSONTree) -> JSONTree? {
            let end = i + word.utf8CodeUnitCount
            guard end <= bytes.count, bytes[i..<end].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            else { return nil }
            i = end
            return tree
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }
    }
}
