import Emulation

/// Every field of a well-formed body that its type cannot take, not only the first (issue 29 §3): Foundation's
/// decoder stops at the first, so the body's tree is decoded again and again by ``JSONTreeDecoder``, each field
/// reported stepped past — left out when it may be absent, else given a value of the type it takes — until the
/// body decodes, or fails in a way there is no stepping past (a type's own check of a value, or of a stand-in).
///
/// It works for every `Decodable` body as its own `init(from:)` reads it, so no route lists its fields twice. What
/// follows a stand-in (a field missing in the `{}` put for an object) is not reported: the client did not send it.
enum JSONFieldIssues {
    /// At most this many issues are reported.
    static let maximumIssues = 50
    /// At most this many passes, and this many bytes decoded across them: a large body gets fewer passes (a type
    /// may do much with one of its values, such as read an `Info.plist` file given as a string), so that a body
    /// of many wrong fields costs the service what a few good requests do.
    static let maximumPasses = 200
    static let maximumBytes = 8 << 20

    /// The issues of `bytes` as `type`, in the order the type reads its fields; empty when `bytes` is not a
    /// well-formed JSON text or decodes.
    static func every<T: Decodable>(_ type: T.Type, in bytes: [UInt8]) -> [FieldIssue] {
        guard let tree = JSONTree.parse(bytes) else { return [] }
        var passes = min(maximumPasses, max(2, maximumBytes / max(bytes.count, 1)))
        var walk = Walk(tree: tree)
        while passes > 0, walk.issues.count < maximumIssues {
            passes -= 1
            do {
                _ = try T(from: JSONTreeDecoder(value: walk.tree, codingPath: []))
                break
            } catch let error as DecodingError {
                guard walk.stepPast(error) else { break }
            } catch {
                break  // a type's own check (an unknown key, a value out of its range): not a type's issue
            }
        }
        return walk.issues
    }

    /// The tree as changed so far, and what it reported.
    struct Walk {
        var tree: JSONTree
        var issues: [FieldIssue] = []
        /// Fields left out.
        var removed: Set<[JSONTree.Step]> = []
        /// Fields given a stand-in, and how many times.
        var stoodIn: [[JSONTree.Step]: Int] = [:]

        /// Reports the field of `error` unless a stand-in caused it, then steps past it; false when it cannot.
        mutating func stepPast(_ error: DecodingError) -> Bool {
            guard let (keys, message, standIn) = Self.field(of: error) else { return false }
            let path = JSONTree.Step.path(keys)
            let madeHere = removed.contains(path) || stoodIn.keys.contains { path.starts(with: $0) }
            if !madeHere { issues.append(FieldIssue(JSONBody.path(keys), message)) }
            // Left out first: absent is what an optional field takes whatever its type.
            if !removed.contains(path), tree.value(at: path[...]) != nil, tree.set(nil, at: path[...]) {
                removed.insert(path)
                return true
            }
            guard let standIn, stoodIn[path, default: 0] < 2, tree.set(standIn, at: path[...]) else { return false }
            stoodIn[path, default: 0] += 1
            return true
        }

        /// The path of the field `error` blames, what to say of it, and what may stand in for it.
        static func field(of error: DecodingError) -> (keys: [any CodingKey], message: String, standIn: JSONTree?)? {
            switch error {
            case .typeMismatch(let type, let context):
                return (context.codingPath, said(context) ?? "must be \(JSONBody.describe(type))", standIn(context, type))
            case .valueNotFound(let type, let context):
                return (context.codingPath, said(context) ?? "must be \(JSONBody.describe(type)), not null", standIn(context, type))
            case .keyNotFound(let key, let context):
                return (context.codingPath + [key], "is required", standIn(context, nil))
            case .dataCorrupted(let context):
                return (context.codingPath, context.debugDescription, standIn(context, nil))
            @unknown default:
                return nil
            }
        }

        /// The message ``JSONTreeDecoder`` wrote, or nil for an error of a type's own.
        static func said(_ context: DecodingError.Context) -> String? {
            context.underlyingError is JSONTreeDecoder.StandIn ? context.debugDescription : nil
        }

        static func standIn(_ context: DecodingError.Context, _ type: Any.Type?) -> JSONTree? {
            (context.underlyingError as? JSONTreeDecoder.StandIn)?.value ?? type.map { JSONTreeDecoder.StandIn(for: $0).value }
        }
    }
}
