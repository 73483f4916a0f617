import Foundation

/// A JSON value as the service sends and takes it: an answer, a request body, an event's `data`, a problem's
/// fields. Numbers are exact (``JSONNumber``); objects are written with their keys sorted.
public enum JSONValue: Sendable, Hashable, Codable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(JSONNumber.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(.integer(value)) }
    public init(floatLiteral value: Double) { self = .number(.double(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The member `key` of an object; nil for other values and missing keys.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number as a `Double`, if this is a number.
    public var numberValue: Double? { if case .number(let value) = self { value.doubleValue } else { nil } }
    /// The number as an `Int`, if this is a whole number that fits one.
    public var intValue: Int? { if case .number(let value) = self { value.int64Value.map(Int.init) } else { nil } }
    /// The exact number, if this is one.
    public var exactNumber: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// The strings of an array of strings (the others left out); nil when this is not an array.
    public var stringsValue: [String]? { arrayValue?.compactMap(\.stringValue) }

    /// Decodes `bytes` (an empty body is `null`).
    public static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        if bytes.isEmpty { return .null }
        return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The value's compact JSON text, keys sorted.
    public var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    /// ``bytes`` as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension JSONValue {
    /// A number value.
    public static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }
    /// An integer value.
    public static func integer(_ value: some BinaryInteger) -> JSONValue {
        if let exact = Int64(exactly: value) { return .number(.integer(exact)) }
        return .number(JSONNumber(UInt64(clamping: value)))
    }

    /// The value as `JSONSerialization` gives it (`[String: Any]`, `[Any]`, `String`, numbers, `NSNull`), for a
    /// `userInfo`.
    public var foundationValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value):
            switch value {
            case .integer(let integer): Int(integer) as Any
            case .unsigned(let integer): integer as Any
            case .double(let double): double.rounded() == double && abs(double) < 1e15 ? Int(double) as Any : double as Any
            }
        case .string(let value): value
        case .array(let values): values.map(\.foundationValue)
        case .object(let members): members.mapValues(\.foundationValue)
        }
    }
}
