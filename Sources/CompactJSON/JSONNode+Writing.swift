import Foundation

/// Writes nodes as compact JSON with members sorted by the UTF-8 bytes of their keys, as Foundation's
/// `JSONEncoder` does with `.sortedKeys`.
struct NodeWriter {
    var bytes: [UInt8] = []
    let escapesSlashes: Bool

    init(escapesSlashes: Bool, capacity: Int = 1024) {
        self.escapesSlashes = escapesSlashes
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ node: JSONNode) {
        switch node {
        case .null: bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
        case .bool(let value):
            if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else {
                bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
            }
        case .int(let value): writeInteger(value)
        case .uint(let value): writeUnsigned(value)
        case .double(let value): writeFloatingText(value.description)
        case .float(let value): writeFloatingText(value.description)
        case .string(let value): writeString(value)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .raw(let json): bytes.append(contentsOf: json)
        case .object(let object): writeObject(object)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .slot(let slot):
            write(slot.node ?? .object(ObjectNode()))
        }
    }

    private mutating func writeObject(_ object: ObjectNode) {
        bytes.append(UInt8(ascii: "{"))
        let members = object.members
        /// The order of members `a` and `b`: by key bytes, then by position, so that of a key encoded twice the
        /// last value is written, once (JSONEncoder keeps a dictionary: the later value replaces the earlier).
        func precedes(_ a: Int, _ b: Int) -> Bool {
            if members[a].prefix != members[b].prefix { return members[a].prefix < members[b].prefix }
            let order = JSONKeyOrder.compare(members[a].key, members[b].key)
            return order == 0 ? a < b : order < 0
        }
        func sameKey(_ a: Int, _ b: Int) -> Bool {
            members[a].prefix == members[b].prefix && JSONKeyOrder.compare(members[a].key, members[b].key) == 0
        }
        var sorted = true
        for index in members.indices.dropFirst() where !precedes(index - 1, index) || sameKey(index - 1, index) {
            sorted = false
            break
        }
        if sorted {  // the common case (keys encoded in order): no order array to make
            for index in members.indices {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(members[index].key)
                bytes.append(UInt8(ascii: ":"))
                write(members[index].value)
            }
            bytes.append(UInt8(ascii: "}"))
            return
        }
        var order = Array(members.indices)
        order.sort(by: precedes)
        var first = true
        for (position, index) in order.enumerated() {
            // A repeated key sits right before its last value.
            if position + 1 < order.count, sameKey(order[position + 1], index) { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(members[index].key)
            bytes.append(UInt8(ascii: ":"))
            write(members[index].value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A floating-point number as JSONEncoder writes it: Swift's shortest round-tripping text without a
    /// trailing `.0`.
    private mutating func writeFloatingText(_ text: String) {
        if text.hasSuffix(".0") {
            bytes.append(contentsOf: text.utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    private mutating func writeInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            writeUnsigned(value.magnitude)
        } else {
            writeUnsigned(UInt64(value))
        }
    }

    private mutating func writeUnsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
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

    /// A string in quotes, escaped as JSONEncoder escapes it.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
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
