import Foundation

/// A value being encoded: scalars as they came, containers as shared references, because an `Encoder` hands out
/// containers that are filled after they are returned.
enum JSONNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// A number already in its textual form (`Decimal`).
    case number(String)
    /// JSON already written (``JSONFragment``).
    case raw([UInt8])
    case object(ObjectNode)
    case array(ArrayNode)
    /// Filled later: what a `superEncoder()` writes.
    case slot(NodeSlot)
}

/// An object's members in the order they were encoded; sorted by key when written.
final class ObjectNode {
    /// One member: its key, the key's first bytes (see ``prefix(_:)``) and its value.
    struct Member {
        var key: String
        /// The first eight UTF-8 bytes of the key as a big-endian number, zero-padded: most comparisons of the
        /// sort are settled by these alone.
        var prefix: UInt64
        var value: JSONNode
    }

    /// One array for the three of them, with room for a typical object from its first member: an object was three
    /// arrays that grew one member at a time, a dozen allocations for a run of a device's document.
    var members: [Member] = []

    func append(_ key: String, _ value: JSONNode) {
        if members.isEmpty { members.reserveCapacity(Self.initialCapacity) }
        members.append(Member(key: key, prefix: JSONKeyOrder.prefix(key), value: value))
    }

    /// Members an object has room for at its first: most objects have fewer.
    static let initialCapacity = 12
}

/// An array's elements.
final class ArrayNode {
    var values: [JSONNode] = []
}

/// Where an encoder puts the one value it encodes.
final class NodeSlot {
    var node: JSONNode?
}
