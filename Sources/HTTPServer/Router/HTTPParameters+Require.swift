extension HTTPParameters {
    /// The value the route's pattern bound to `{name}`: percent-decoded, never empty (the router matches no
    /// empty segment).
    ///
    /// - Throws: ``MissingRouteParameter`` when the route binds no `{name}`. No request can cause that: the
    ///   router binds every parameter of the pattern it matched before the handler runs, so it means the
    ///   handler and its pattern disagree (a misspelt name, a handler shared by two patterns), a defect of the
    ///   route table. The server answers it `500` like any unknown error, and logs it.
    public func require(_ name: String) throws(MissingRouteParameter) -> String {
        guard let value = self[name] else { throw MissingRouteParameter(name: name, bound: all.map(\.name)) }
        return value
    }
}

/// A handler asked for a parameter its route's pattern does not bind (see ``HTTPParameters/require(_:)``).
public struct MissingRouteParameter: Error, Equatable, CustomStringConvertible {
    /// The name asked for.
    public let name: String
    /// The names the pattern did bind, in path order.
    public let bound: [String]

    public init(name: String, bound: [String]) {
        self.name = name
        self.bound = bound
    }

    public var description: String {
        let bound = bound.isEmpty ? "none" : bound.map { "{\($0)}" }.joined(separator: ", ")
        return "the route binds no parameter {\(name)} (it binds \(bound)): its handler and its pattern disagree"
    }
}
