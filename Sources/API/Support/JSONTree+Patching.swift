/// Changing one value of a tree by its coding path: what ``JSONFieldIssues`` does to step past a field it has
/// reported.
extension JSONTree {
    /// One step of a coding path: a member's name, or an element's index (an unkeyed container's key has both).
    struct Step: Hashable {
        var name: String
        var index: Int?

        init(_ key: any CodingKey) {
            name = key.stringValue
            index = key.intValue
        }

        static func path(_ keys: [any CodingKey]) -> [Step] { keys.map(Step.init) }
    }

    /// Sets the value at `path` (`nil` removes an object's member); false when the path leads nowhere (through a
    /// value that is not an object or an array, past an array's end, or `nil` for an array's element).
    mutating func set(_ value: JSONTree?, at path: ArraySlice<Step>) -> Bool {
        guard let step = path.first else {
            guard let value else { return false }
            self = value
            return true
        }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            self = .null  // the dictionary's only reference, so that it changes in place
            defer { self = .object(members) }
            if rest.isEmpty {
                members[step.name] = value
                return true
            }
            guard var member = members[step.name] else { return false }
            members[step.name] = nil
            defer { members[step.name] = member }
            return member.set(value, at: rest)
        case .array(var elements):
            guard let index = step.index, elements.indices.contains(index), value != nil || !rest.isEmpty else { return false }
            self = .null
            defer { self = .array(elements) }
            return elements[index].set(value, at: rest)
        default:
            return false
        }
    }

    /// The value at `path`, or nil.
    func value(at path: ArraySlice<Step>) -> JSONTree? {
        guard let step = path.first else { return self }
        switch self {
        case .object(let members): return members[step.name]?.value(at: path.dropFirst())
        case .array(let elements):
            guard let index = step.index, elements.indices.contains(index) else { return nil }
            return elements[index].value(at: path.dropFirst())
        default: return nil
        }
    }
}
