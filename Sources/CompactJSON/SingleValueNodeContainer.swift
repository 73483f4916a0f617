/// The container of an encoder's one value.
struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: JSONNode) { encoder.slot.node = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try encoder.box(value, key: nil)) }
    mutating func encode(_ value: Float) throws { set(try encoder.box(value, key: nil)) }
    mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(value)) }
    mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { set(.uint(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value's own encoder is this one: `encode(to:)` of a wrapper writes straight into this slot.
        set(try encoder.box(value, key: nil))
    }
}
