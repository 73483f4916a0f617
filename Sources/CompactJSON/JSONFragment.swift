/// JSON bytes made once and written as they are wherever the value is encoded again: the policy that thousands of
/// devices share, say, which is the same text for every device of one profile.
///
/// A `CompactJSONEncoder` with the options the bytes were made with writes ``bytes`` in place; any other encoder
/// (or one with other options, or any with a `dateText`, which cannot be compared) encodes ``value``, so the
/// fragment encodes as its value does everywhere.
public struct JSONFragment<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value the bytes are the JSON of.
    public let value: Value
    /// `value`'s compact JSON.
    public let bytes: [UInt8]
    /// Whether the bytes write `/` as `\/`; nil when they were made with a `dateText`.
    private let escapesSlashes: Bool?

    /// `value` and its JSON by `encoder`.
    public init(_ value: Value, encoder: CompactJSONEncoder) throws {
        self.value = value
        bytes = try encoder.encode(value)
        escapesSlashes = encoder.options.dateText == nil ? encoder.options.escapesSlashes : nil
    }

    /// Writes the bytes when `writer`'s options are those they were made with, else encodes the value.
    public func write(to writer: inout JSONWriter) throws {
        if writer.options.dateText == nil, writer.options.escapesSlashes == escapesSlashes {
            writer.raw(bytes)
        } else {
            try writer.encodable(value)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let nodes = encoder as? NodeEncoder, nodes.options.dateText == nil,
           nodes.options.escapesSlashes == escapesSlashes {
            nodes.slot.node = .raw(bytes)
        } else {
            try value.encode(to: encoder)
        }
    }
}

extension JSONFragment: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.value == b.value }
}
