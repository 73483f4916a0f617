import Foundation

/// Writes JSON straight to bytes, as ``CompactJSONEncoder`` writes it (Foundation's `JSONEncoder` with
/// `.sortedKeys`), for the types whose JSON is written by hand (``JSONWritable``) and for the encoder itself.
///
/// A member's comma is written by ``key(_:)`` itself, and an element's by ``element(_:)``: after `{` or `[` none
/// is needed, after anything else one is. Keys are written in the order they are given: a ``JSONWritable`` gives
/// them sorted by their UTF-8 bytes (``object(sorting:_:)`` sorts a dictionary's).
public struct JSONWriter {
    /// What has been written.
    public private(set) var bytes: [UInt8] = []
    /// How strings, slashes and dates are written.
    public let options: CompactJSONEncoder.Options

    public init(options: CompactJSONEncoder.Options, capacity: Int = 1024) {
        self.options = options
        bytes.reserveCapacity(capacity)
    }

    // MARK: Containers

    /// An object: `body` writes its members with ``key(_:)`` and a value each.
    public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An array of `elements`, each written by `body`.
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ body: (inout JSONWriter, Elements.Element) throws -> Void
    ) rethrows {
        bytes.append(UInt8(ascii: "["))
        for element in elements {
            separate(after: UInt8(ascii: "["))
            try body(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object member's key written in the source (a name of letters and digits, which needs no escape), and
    /// its comma when a member came before it; its value is written next.
    public mutating func key(_ literal: StaticString) {
        separate(after: UInt8(ascii: "{"))
        bytes.append(UInt8(ascii: "\""))
        literal.withUTF8Buffer { name in
            assert(!name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") },
                   "a key literal that needs escapes: use key(named:)")
            bytes.append(contentsOf: name)
        }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// An object member's key of any text (a dictionary's), escaped, and its comma when a member came before it.
    public mutating func key(named name: String) {
        separate(after: UInt8(ascii: "{"))
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `dictionary` as an object with keys in JSONEncoder's `.sortedKeys` order, each value written by `body`.
    public mutating func object<Value>(
        sorting dictionary: [String: Value], _ body: (inout JSONWriter, Value) throws -> Void
    ) rethrows {
        try object { writer in
            for (name, value) in dictionary.sorted(by: { JSONKeyOrder.compare($0.key, $1.key) < 0 }) {
                writer.key(named: name)
                try body(&writer, value)
            }
        }
    }

    /// One byte of structure (the encoder's own objects and arrays).
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    private mutating func separate(after opening: UInt8) {
        if let last = bytes.last, last != opening { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Values

    public mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    public mutating func bool(_ value: Bool) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func int(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            uint(value.magnitude)
        } else {
            uint(UInt64(value))
        }
    }

    public mutating func uint(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
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

    private mutating func floatingText(_ text: String) {
        if text.hasSuffix(".0") {
            bytes.append(contentsOf: text.utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: text.utf8)
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
    public mutating func raw(_ json: [UInt8]) { bytes.append(contentsOf: json) }

    /// `value` through its `Encodable` conformance, with these options: for the parts of a hand-written type that
    /// are not worth writing by hand.
    public mutating func encodable<T: Encodable>(_ value: T) throws {
        raw(try CompactJSONEncoder(options: options).encode(value))
    }

    /// A string in quotes, escaped as JSONEncoder escapes it.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let escapesSlashes = options.escapesSlashes
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                let escape: StaticString?
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "/"): escape = escapesSlashes ? "\\/" : nil
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x00..<0x20: escape = ""
                default: escape = nil
                }
                guard let escape else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                if escape.utf8CodeUnitCount > 0 {
                    escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
                } else {
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])  // \u00
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

/// A type whose JSON is written by hand: ``CompactJSONEncoder`` writes it with ``write(to:)`` instead of its
/// `Encodable` conformance, which stays the reference (a test of each conformer holds the two to the same bytes).
/// For the values encoded on every request of a hot route, where `Encodable`'s containers cost more than the rest.
public protocol JSONWritable: Encodable {
    /// Writes the value's JSON (one value: an object, usually), keys in `.sortedKeys` order.
    func write(to writer: inout JSONWriter) throws
}
