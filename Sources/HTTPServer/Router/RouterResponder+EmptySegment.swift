/// A path with an empty segment where a route has a parameter (`/v1/devices//apps`, a client whose variable
/// was empty): `404` naming the parameter that is missing, rather than "no resource".
extension RouterResponder {
    /// The path with each empty inner segment filled, when it has one; nil otherwise.
    static func filledEmptySegments(_ path: String) -> String? {
        guard path.hasPrefix("/"), path.contains("//") else { return nil }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return "/" + segments.enumerated().map { index, segment in
            segment.isEmpty && index < segments.count - 1 ? "_" : String(segment)
        }.joined(separator: "/")
    }

    /// The route a path with empty segments would match once they are filled, with the parameters they leave out.
    static func missingParameters(_ path: String, in trie: RouterTrie<RouteNode>) -> (pattern: String, names: [String])? {
        guard let filled = filledEmptySegments(path) else { return nil }
        var copy = filled
        guard let node = copy.withUTF8({ trie.match($0) }) else { return nil }
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        let patternSegments = node.pattern.split(separator: "/", omittingEmptySubsequences: false)
        guard pathSegments.count == patternSegments.count else { return nil }
        let names = zip(pathSegments, patternSegments).enumerated().compactMap { index, pair -> String? in
            let (segment, pattern) = pair
            guard index > 0, segment.isEmpty, pattern.hasPrefix("{") else { return nil }
            return String(pattern.dropFirst().dropLast())
        }
        return names.isEmpty ? nil : (node.pattern, names)
    }

    /// The answer for such a path.
    static func emptySegment(_ trie: RouterTrie<RouteNode>) -> any HTTPResponder {
        RouterAnswer { request, _ in
            let missing = missingParameters(request.path, in: trie)
            let names = missing?.names.joined(separator: ", ") ?? "a parameter"
            throw HTTPProblem(
                status: .notFound, code: "notFound",
                detail: "The path \(request.path) has an empty segment where \(names) belongs "
                    + "(\(missing?.pattern ?? "see the contract")): was a variable empty?")
        }
    }
}
