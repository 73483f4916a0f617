/// Finds the first object in a JSON text that names a member twice (I-JSON, RFC 7493 §2.3: "objects MUST NOT have
/// members with duplicate names"), comparing names after their escapes are decoded (`"a"` and `"\u0061"` are the
/// same name). Foundation's decoder keeps one of the two silently; a client that sent both meant something else.
///
/// It only scans: the text is assumed well-formed (the decoder judges that), and a text it cannot follow, or nested
/// deeper than ``maximumDepth``, is reported as having no duplicate (so a hostile nesting costs no stack).
enum JSONDuplicateMembers {
    /// The deepest nesting scanned (Foundation's own parser refuses deeper texts).
    static let maximumDepth = 512

    /// The path of the first duplicated member (`conditions.batteryLevel`, `steps[2].at`), or nil.
    static func first(in bytes: [UInt8]) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value(path: "") ?? nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var depth = 0

        /// Scans one value; answers `.some(path)` on a duplicate, `.some(nil)` when fine, nil when lost. `path` is
        /// made only for a value that is an object or an array (a scalar has no members to name).
        mutating func value(path: @autoclosure () -> String) -> String?? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < JSONDuplicateMembers.maximumDepth else { return nil }
                depth += 1
                defer { depth -= 1 }
                return bytes[i] == UInt8(ascii: "{") ? object(path: path()) : array(path: path())
            case UInt8(ascii: "\""): return skipString() ? .some(nil) : nil
            default:
                // A number, true, false or null: up to the next delimiter.
                while i < bytes.count, !Self.isDelimiter(bytes[i]) { i += 1 }
                return .some(nil)
            }
        }

        /// `,` `]` `}` and white space.
        static func isDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case 44, 93, 125, 32, 9, 10, 13: true
            default: false
            }
        }

        mutating func object(path: String) -> String?? {
            i += 1
            var names = Set<String>()
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .some(nil) }
            while i < bytes.count {
                skipSpace()
                guard let name = string() else { return nil }
                func member() -> String { path.isEmpty ? name : path + "." + name }
                if !names.insert(name).inserted { return .some(member()) }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let inner = value(path: member()) else { return nil }
                if let found = inner { return .some(found) }
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .some(nil) }
                return nil
            }
            return nil
        }

        mutating func array(path: String) -> String?? {
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .some(nil) }
            var index = 0
            while i < bytes.count {
                guard let inner = value(path: "\(path)[\(index)]") else { return nil }
                if let found = inner { return .some(found) }
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; index += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .some(nil) }
                return nil
            }
            return nil
        }

        /// Steps over a string at `i`; false when it is not one.
        mutating func skipString() -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return false }
            i += 1
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i += 1
                    return true
                case UInt8(ascii: "\\"): i += 2
                default: i += 1
                }
            }
            return false
        }

        /// A string at `i` with its escapes decoded; nil when it is not one.
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            // Most names have no escape: their bytes are the name.
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: bytes[start..<i - 1], as: UTF8.self)
            }
            i = start
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flushRaw() {
                if !raw.isEmpty { units += String(decoding: raw, as: UTF8.self).utf16; raw.removeAll() }
            }
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    flushRaw()
                    return String(decoding: units, as: UTF16.self)
                }
                if c == UInt8(ascii: "\\") {
                    flushRaw()
                    guard i + 1 < bytes.count else { return nil }
                    let e = bytes[i + 1]
                    i += 2
                    switch e {
                    case UInt8(ascii: "u"):
                        guard i + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)
                        else { return nil }
                        units.append(unit)
                        i += 4
                    case UInt8(ascii: "n"): units.append(10)
                    case UInt8(ascii: "t"): units.append(9)
                    case UInt8(ascii: "r"): units.append(13)
                    case UInt8(ascii: "b"): units.append(8)
                    case UInt8(ascii: "f"): units.append(12)
                    default: units.append(UInt16(e))  // \" \\ \/
                    }
                    continue
                }
                raw.append(c)
                i += 1
            }
            return nil
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }
    }
}
