/// An optional field that a synthesized `Encodable` writes as JSON `null` when it is nil, instead of leaving its
/// key out: the contract's answers name every field, absent ones as `null`.
@propertyWrapper
public struct ExplicitNull<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}

extension ExplicitNull: Equatable where Value: Equatable {}
