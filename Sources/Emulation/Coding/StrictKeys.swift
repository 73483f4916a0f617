/// A coding key for any name, to see which keys a JSON object really has.
public struct AnyKey: CodingKey, Sendable {
    /// The key's name.
    public var stringValue: String
    /// None: an object's keys only.
    public var intValue: Int? { nil }
    /// The key named `string`.
    public init(_ string: String) { stringValue = string }
    /// The key named `stringValue`.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// Never: an object's keys only.
    public init?(intValue: Int) { return nil }
}

extension Decoder {
    /// Refuses keys the body type does not know, so that a misspelt field is a `422`, not silently ignored.
    ///
    /// `allowed` is a list, not a set: a body type names a dozen fields at most, and every request decodes its
    /// body through here, where a set literal would hash each name again on every call.
    public func rejectUnknownKeys(allowed: [String]) throws {
        let keys = try self.container(keyedBy: AnyKey.self).allKeys
        guard keys.contains(where: { !allowed.contains($0.stringValue) }) else { return }
        let unknown = keys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        let known = allowed.sorted().joined(separator: ", ")
        throw EmulationError.invalid(unknown.map {
            FieldIssue(FieldPath.of(codingPath, $0), "is not a known field; known fields: \(known)")
        })
    }
}

/// A field's name in an issue, as a JSON path: `conditions.batteryLevel`, `infoPlist.UIBackgroundModes[2]`.
public enum FieldPath {
    /// The path of `keys`; `body` when empty.
    public static func of(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue { out += "[\(index)]" } else { out += out.isEmpty ? key.stringValue : "." + key.stringValue }
        }
        return out.isEmpty ? "body" : out
    }

    /// The path of the field `name` of the object at `keys`.
    public static func of(_ keys: [any CodingKey], _ name: String) -> String {
        keys.isEmpty ? name : of(keys) + "." + name
    }
}
