/// Something routes are registered on: the ``Router`` itself, or one of its ``RouteGroup``s. Route tables written
/// against it read the same in either; only ``on(_:_:use:)`` is required.
public protocol RouteRegistrar {
    /// Registers `handler` for `method` on `pattern` (see ``Router`` for the patterns).
    mutating func on(_ method: HTTPMethod, _ pattern: String, use handler: @escaping Router.Handler)
}

extension RouteRegistrar {
    /// Registers `handler` for `GET` (and so `HEAD`) on `pattern`.
    public mutating func get(_ pattern: String, use handler: @escaping Router.Handler) { on(.get, pattern, use: handler) }
    /// Registers `handler` for `POST` on `pattern`.
    public mutating func post(_ pattern: String, use handler: @escaping Router.Handler) { on(.post, pattern, use: handler) }
    /// Registers `handler` for `PUT` on `pattern`.
    public mutating func put(_ pattern: String, use handler: @escaping Router.Handler) { on(.put, pattern, use: handler) }
    /// Registers `handler` for `PATCH` on `pattern`.
    public mutating func patch(_ pattern: String, use handler: @escaping Router.Handler) {
        on(.patch, pattern, use: handler)
    }
    /// Registers `handler` for `DELETE` on `pattern`.
    public mutating func delete(_ pattern: String, use handler: @escaping Router.Handler) {
        on(.delete, pattern, use: handler)
    }
}
