/// A prefix tree of route patterns, one node per path segment, built once and then only read.
///
/// Matching walks the percent-encoded path bytes in place: no splitting, no strings, no regular expressions.
/// At each depth a literal edge is tried before the parameter edge, and the walk backtracks to the parameter
/// edge when the literal branch leads nowhere, so `/a/b` (literal) beats `/a/{x}` and `/a/{x}/c` still
/// matches `/a/b/c` when only `/a/b` is a route.
struct RouterTrie<Value: Sendable>: Sendable {
    struct Node: Sendable {
        /// Literal edges: the segment's bytes and the child's index. Few per node, so a linear scan.
        var literals: [(bytes: [UInt8], child: Int)] = []
        /// The child reached by any non-empty segment.
        var parameter: Int?
        /// Set on nodes where a pattern ends; a walk succeeds only on such a node.
        var value: Value?
    }

    /// Node 0 is the root, the path `/`.
    private(set) var nodes: [Node] = [Node()]

    init() {}

    /// Adds `segments` and returns the index of the node where they end (the same index for equal shapes).
    mutating func insert(_ segments: [RoutePattern.Segment]) -> Int {
        var index = 0
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                if let edge = nodes[index].literals.first(where: { $0.bytes == bytes }) {
                    index = edge.child
                } else {
                    nodes.append(Node())
                    nodes[index].literals.append((bytes: bytes, child: nodes.count - 1))
                    index = nodes.count - 1
                }
            case .parameter:
                if let child = nodes[index].parameter {
                    index = child
                } else {
                    nodes.append(Node())
                    nodes[index].parameter = nodes.count - 1
                    index = nodes.count - 1
                }
            }
        }
        return index
    }

    /// Sets the value of the node at `index`.
    mutating func setValue(_ value: Value, at index: Int) {
        nodes[index].value = value
    }

    /// The value of the node `path` leads to, or nil. `path` is origin-form and percent-encoded, without the
    /// query: `/` is the root; every other segment must be non-empty, so `//` and a trailing `/` never match.
    func match(_ path: UnsafeBufferPointer<UInt8>) -> Value? {
        guard path.first == UInt8(ascii: "/") else { return nil }
        if path.count == 1 { return nodes[0].value }
        guard let index = descend(from: 0, segmentStart: 1, path: path) else { return nil }
        return nodes[index].value
    }

    /// Matches the segment starting at `segmentStart` against `node`'s edges, then the rest of the path below.
    private func descend(from node: Int, segmentStart: Int, path: UnsafeBufferPointer<UInt8>) -> Int? {
        var end = segmentStart
        while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
        guard end > segmentStart else { return nil }
        let isLast = end == path.count

        for edge in nodes[node].literals where Self.equal(edge.bytes, path, segmentStart, end) {
            if let found = follow(edge.child, isLast: isLast, next: end + 1, path: path) { return found }
            break
        }
        if let child = nodes[node].parameter {
            return follow(child, isLast: isLast, next: end + 1, path: path)
        }
        return nil
    }

    private func follow(_ child: Int, isLast: Bool, next: Int, path: UnsafeBufferPointer<UInt8>) -> Int? {
        if isLast { return nodes[child].value == nil ? nil : child }
        return descend(from: child, segmentStart: next, path: path)
    }

    private static func equal(_ literal: [UInt8], _ path: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard literal.count == end - start else { return false }
        var i = start
        for byte in literal {
            if byte != path[i] { return false }
            i += 1
        }
        return true
    }
}
