/// A stored property that decodes to its default when its key is absent: devices stored before the property
/// existed still load. It encodes as the bare value, so the stored JSON keeps its shape.
@propertyWrapper
public struct StoredDefault<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(Value.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A type whose value is its own default, for `StoredDefault`.
public protocol StoredDefaultValue {
    static var storedDefault: Self { get }
}

extension Array: StoredDefaultValue {
    public static var storedDefault: Self { [] }
}

extension Int64: StoredDefaultValue {
    public static var storedDefault: Self { 1 }
}

extension ActivityRuntime: StoredDefaultValue {
    public static var storedDefault: Self { ActivityRuntime() }
}

extension KeyedDecodingContainer {
    /// Chosen over the generic `decode` by the synthesized `init(from:)`: an absent key gives the default.
    public func decode<Value: StoredDefaultValue>(_ type: StoredDefault<Value>.Type, forKey key: Key) throws -> StoredDefault<Value> {
        try decodeIfPresent(type, forKey: key) ?? StoredDefault(wrappedValue: Value.storedDefault)
    }
}
