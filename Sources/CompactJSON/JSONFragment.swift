/// JSON bytes made once and written as they are wherever the value is encoded again: the policy that thousands of
/// devices share, say, which is the same text for every device of one profile.
///
/// `CompactJSONEncoder` writes ``bytes`` in place; any other encoder encodes ``value`` (so the fragment encodes
/// the same with every encoder). The bytes must be what `CompactJSONEncoder` writes for the value with the
/// options it is used with (``init(_:encoder:)`` makes them so).
public struct JSONFragment<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value the bytes are the JSON of.
    public let value: Value
    /// `value`'s compact JSON.
    public let bytes: [UInt8]

    /// `value` and its JSON by `encoder`.
    public init(_ value: Value, encoder: CompactJSONEncoder) throws {
        self.value = value
        bytes = try encoder.encode(value)
    }

    public func encode(to encoder: any Encoder) throws {
        if let nodes = encoder as? NodeEncoder {
            nodes.slot.node = .raw(bytes)
        } else {
            try value.encode(to: encoder)
        }
    }
}

extension JSONFragment: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.value == b.value }
}
