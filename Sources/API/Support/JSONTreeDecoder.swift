import Foundation

/// A strict decoder over a ``JSONTree``, for saying what is wrong with a body Foundation's `JSONDecoder` refused: it
/// fails where that decoder fails (so a type's `try?` fallbacks behave the same), but always with the failing field's
/// path (Foundation reports a number too large for its integer with none) and a message that says what the field
/// takes and what it found. Each of its errors carries, as its underlying error, a ``StandIn``: a value of the type
/// the field was asked for, so that ``JSONFieldIssues`` can put it in the field's place and decode on to the next one.
struct JSONTreeDecoder: Decoder {
    let value: JSONTree
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A value of the type a failing field was asked for (`""` for a string, `{}` for an object).
    struct StandIn: Error {
        var value: JSONTree

        init(for type: Any.Type) {
            value = switch type {
            case is any ExpressibleByNilLiteral.Type: .null
            case is String.Type: .string("")
            case is Bool.Type: .bool(false)
            case is any Numeric.Type: .number("0")
            default: JSONBody.describe(type) == "an array" ? .array([]) : .object([:])
            }
        }
    }

    /// The error of a field that took no value of `type`, saying `message`.
    static func context(_ path: [any CodingKey], _ type: Any.Type, _ message: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: path, debugDescription: message, underlyingError: StandIn(for: type))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// `must be a string, not a number` (a type mismatch), `must be a string, not null` (a value missing).
    func mismatch(_ type: Any.Type) -> DecodingError {
        let context = Self.context(codingPath, type, "must be \(JSONBody.describe(type)), not \(value.kind)")
        return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    /// A value the field's type cannot hold (a number out of its range), with `message`.
    func corrupted(_ type: Any.Type, _ message: String) -> DecodingError {
        .dataCorrupted(Self.context(codingPath, type, message))
    }
}

/// The value itself, as a scalar.
extension JSONTreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Foundation reads these from a string and a number, not by their own coding.
        if type == URL.self {
            guard let url = URL(string: try decode(String.self)) else { throw corrupted(type, "must be a URL") }
            return url as! T  // T is URL
        }
        if type == Decimal.self {
            guard case .number(let text) = value else { throw mismatch(type) }
            guard let decimal = Decimal(string: text) else { throw corrupted(type, "must be a number, not \(text)") }
            return decimal as! T  // T is Decimal
        }
        return try T(from: self)
    }

    /// An integer of `type` as Foundation reads one: its digits, or a whole number within range (`1.0`, `1e2`).
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let text) = value else { throw mismatch(type) }
        if let exact = I(text) { return exact }
        if let number = Double(text), number.isFinite, number == number.rounded(), let whole = I(exactly: number) {
            return whole
        }
        throw corrupted(type, "must be an integer from \(I.min) to \(I.max), not \(text)")
    }

    /// A finite number of `type`.
    func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        guard case .number(let text) = value else { throw mismatch(type) }
        guard let number = F(text), number.isFinite else { throw corrupted(type, "must be a finite number, not \(text)") }
        return number
    }
}
