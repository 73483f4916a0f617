import Emulation

extension CommandOutcome {
    /// A value every command of its kind gives (the run of `simulateLaunch`); missing, it is a bug: a `500`.
    func value<T>(_ path: KeyPath<CommandOutcome, T?>) throws -> T {
        guard let value = self[keyPath: path] else { throw MissingOutcome(path: "\(path)") }
        return value
    }

    struct MissingOutcome: Error {
        var path: String
    }
}
