import Foundation

/// The `Encoder` handed to `encode(to:)`: it builds a ``JSONNode`` in its ``slot``.
final class NodeEncoder: Encoder {
    let options: CompactJSONEncoder.Options
    let slot = NodeSlot()
    /// The encoder of the enclosing value and the key of this one in it, so that the coding path is only built
    /// when an error asks for it.
    private let parent: NodeEncoder?
    private let key: (any CodingKey)?

    init(options: CompactJSONEncoder.Options, parent: NodeEncoder? = nil, key: (any CodingKey)? = nil) {
        self.options = options
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: NodeEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        if case .object(let existing) = slot.node {
            object = existing  // a second request (a subclass after its superclass) adds to the same object
        } else {
            object = ObjectNode()
            slot.node = .object(object)
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self, object: object, path: nil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        if case .array(let existing) = slot.node {
            array = existing
        } else {
            array = ArrayNode()
            slot.node = .array(array)
        }
        return UnkeyedNodeContainer(encoder: self, array: array, path: nil)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueNodeContainer(encoder: self)
    }

    // MARK: Boxing

    /// The node of one value, with the types JSONEncoder treats as scalars written as it writes them.
    func box<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONNode {
        if T.self == Date.self, let date = value as? Date, let text = options.dateText {
            return .string(text(date))
        }
        if T.self == Data.self, let data = value as? Data {
            return .string(data.base64EncodedString())
        }
        if T.self == URL.self, let url = value as? URL {
            return .string(url.absoluteString)
        }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            return .number(decimal.description)
        }
        let child = NodeEncoder(options: options, parent: self, key: key)
        try value.encode(to: child)
        // A value that encodes nothing is an empty object, as JSONEncoder writes it.
        return child.slot.node ?? .object(ObjectNode())
    }

    func box(_ value: Double, key: (any CodingKey)?) throws -> JSONNode {
        guard value.isFinite else { throw invalid(value, key: key) }
        return .double(value)
    }

    func box(_ value: Float, key: (any CodingKey)?) throws -> JSONNode {
        guard value.isFinite else { throw invalid(value, key: key) }
        return .float(value)
    }

    private func invalid(_ value: Any, key: (any CodingKey)?) -> EncodingError {
        let path = codingPath + (key.map { [$0] } ?? [])
        return EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }

    /// An encoder whose value lands in `node` later: `superEncoder()`.
    func referencing(key: any CodingKey) -> NodeEncoder {
        NodeEncoder(options: options, parent: self, key: key)
    }
}

/// The keys the encoder makes up, named as JSONEncoder names them: "super" for `superEncoder()`, "Index N" for an
/// array's element in a coding path.
struct SuperKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
    init(index: Int) { stringValue = "Index \(index)"; intValue = index }
    static let `super` = SuperKey(stringValue: "super")
}
