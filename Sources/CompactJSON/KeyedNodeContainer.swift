/// An object's container: each member is boxed as it comes.
struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    let object: ObjectNode
    /// The coding path of a nested container; nil for an encoder's own (its path is the encoder's).
    let path: [any CodingKey]?

    var codingPath: [any CodingKey] { path ?? encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.append(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.append(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.append(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.append(key.stringValue, try encoder.box(value, key: key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.append(key.stringValue, try encoder.box(value, key: key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.append(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.append(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.append(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.append(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.append(key.stringValue, .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.append(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.append(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.append(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.append(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.append(key.stringValue, .uint(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.append(key.stringValue, try encoder.box(value, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectNode()
        object.append(key.stringValue, .object(nested))
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(encoder: encoder, object: nested, path: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        object.append(key.stringValue, .array(nested))
        return UnkeyedNodeContainer(encoder: encoder, array: nested, path: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let referencing = encoder.referencing(key: key)
        object.append(key.stringValue, .slot(referencing.slot))
        return referencing
    }
}
