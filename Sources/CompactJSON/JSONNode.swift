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
    case object(ObjectNode)
    case array(ArrayNode)
    /// Filled later: what a `superEncoder()` writes.
    case slot(NodeSlot)
}

/// An object's members in the order they were encoded; sorted by key when written.
final class ObjectNode {
    var keys: [String] = []
    var values: [JSONNode] = []

    func append(_ key: String, _ value: JSONNode) {
        keys.append(key)
        values.append(value)
    }
}

/// An array's elements.
final class ArrayNode {
    var values: [JSONNode] = []
}

/// Where an encoder puts the one value it encodes.
final class NodeSlot {
    var node: JSONNode?
}
