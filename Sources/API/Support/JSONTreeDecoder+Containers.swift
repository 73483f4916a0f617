/// An object's members and an array's elements, read by ``JSONTreeDecoder``; a scalar is read by the decoder itself.
extension JSONTreeDecoder {
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONTree]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        /// The decoder of the member `key`; `is required` when there is none.
        func member(_ key: Key, _ type: Any.Type) throws -> JSONTreeDecoder {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, JSONTreeDecoder.context(codingPath, type, "is required"))
            }
            return JSONTreeDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key, Any?.self).decodeNil() }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key, type).decode(type) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key, type).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key, type).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key, type).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key, type).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key, type).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key, type).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key, type).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key, type).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key, type).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key, type).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key, type).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key, type).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key, type).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key, type).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try member(key, [String: Any].self).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try member(key, [Any].self).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { try member(Key(stringValue: "super")!, Any.self) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try member(key, Any.self) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONTree]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(elements: [JSONTree], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        /// The decoder of the next element, stepping past it; `is required` past the end.
        mutating func next(_ type: Any.Type) throws -> JSONTreeDecoder {
            let key = IndexKey(currentIndex)
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, JSONTreeDecoder.context(codingPath + [key], type, "is required"))
            }
            defer { currentIndex += 1 }
            return JSONTreeDecoder(value: elements[currentIndex], codingPath: codingPath + [key])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next([String: Any].self).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([Any].self).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
    }

    /// An array element's key: `[2]` in a path.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { return nil }
    }
}
