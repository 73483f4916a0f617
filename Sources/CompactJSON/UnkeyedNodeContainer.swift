/// An array's container.
struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    let array: ArrayNode
    let path: [any CodingKey]?

    var codingPath: [any CodingKey] { path ?? encoder.codingPath }
    var count: Int { array.values.count }

    /// The key of the next element, for error paths (JSONEncoder's "Index N").
    private var indexKey: SuperKey { SuperKey(index: array.values.count) }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try encoder.box(value, key: indexKey)) }
    mutating func encode(_ value: Float) throws { array.values.append(try encoder.box(value, key: indexKey)) }
    mutating func encode(_ value: Int) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.uint(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.values.append(try encoder.box(value, key: indexKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let key = indexKey
        let nested = ObjectNode()
        array.values.append(.object(nested))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(encoder: encoder, object: nested, path: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = indexKey
        let nested = ArrayNode()
        array.values.append(.array(nested))
        return UnkeyedNodeContainer(encoder: encoder, array: nested, path: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let referencing = encoder.referencing(key: indexKey)
        array.values.append(.slot(referencing.slot))
        return referencing
    }
}
