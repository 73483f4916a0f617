/// A JSON number as the service wrote it, exactly: an integer stays an integer (a device's 64-bit `seed`, an event
/// id), whatever its size, and only a number with a fraction or an exponent is a `Double`.
public enum JSONNumber: Sendable, Hashable, Codable, CustomStringConvertible {
    case integer(Int64)
    /// An integer past `Int64.max` (a seed, say).
    case unsigned(UInt64)
    case double(Double)

    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Int64) { self = .integer(value) }
    public init(_ value: UInt64) { self = value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsigned(value) }
    public init(_ value: Double) { self = .double(value) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(UInt64.self) { self = .unsigned(value) }
        else { self = .double(try container.decode(Double.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        }
    }

    /// The number as a `Double` (an integer past 2^53 rounded).
    public var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        }
    }

    /// The number as an `Int64` when it is a whole number that fits one.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .unsigned: nil
        case .double(let value): value == value.rounded() && abs(value) < 9.2e18 ? Int64(value) : nil
        }
    }

    /// The number as a `UInt64` when it is a whole number from 0 that fits one.
    public var uint64Value: UInt64? {
        switch self {
        case .integer(let value): value >= 0 ? UInt64(value) : nil
        case .unsigned(let value): value
        case .double(let value): value == value.rounded() && value >= 0 && value < 1.8e19 ? UInt64(value) : nil
        }
    }

    /// `2`, `0.5`, `18446744073709551615`: a whole number without a needless fraction.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .double(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    /// Numbers are equal when their values are: `1` and `1.0` are one number.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs, rhs) {
        case (.double, _), (_, .double): lhs.doubleValue == rhs.doubleValue
        default: lhs.int64Value == rhs.int64Value && lhs.uint64Value == rhs.uint64Value
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let value = int64Value { hasher.combine(value) } else if let value = uint64Value { hasher.combine(value) } else {
            hasher.combine(doubleValue)
        }
    }
}
