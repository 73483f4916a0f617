import Emulation

/// A coding key for any name, to see which keys a JSON object really has.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension Decoder {
    /// Refuses keys the body type does not know, so that a misspelt field is a `422`, not silently ignored.
    func rejectUnknownKeys(allowed: Set<String>) throws {
        let container = try self.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            let prefix = JSONBody.path(codingPath)
            let known = allowed.sorted().joined(separator: ", ")
            throw EmulationError.invalid(unknown.map {
                FieldIssue(prefix == "body" ? $0 : prefix + "." + $0, "is not a known field; known fields: \(known)")
            })
        }
    }
}
