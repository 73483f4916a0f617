/// Which app `BGTaskScheduler.shared` and `UIApplication.shared` mean for the code calling them.
///
/// 1. The app bound to the calling task: the harness binds it around every launch, event it dispatches and
///    ``EmulatedApp/run(isolation:_:)``, and around a launch handler on the queue it was registered with; a test binds
///    it with ``EmulatedApp/bind(_:)``. Child tasks and `Task { }` inherit it.
/// 2. Else the app the process drives (``ProcessBinding``): code on a dispatch queue, a thread, a timer or an
///    observer means the app whose turn the harness is running, or else the app launched last, as an iOS process
///    runs one app.
/// 3. Else the call cannot be attributed (no app launched yet, or devices driven at once by tests in parallel): it
///    stops the process with a message saying how to bind it, as iOS raises on a misuse it cannot answer.
///
/// Objects handed to app code (a `BGTask`, a completion handler, a `UIBackgroundTaskIdentifier`) stay bound to their
/// app wherever they go.
enum AppContext {
    @TaskLocal static var scoped: EmulatedApp?

    /// The app of the calling code, or nil when none can be told (for lookups that may answer nothing).
    static var current: EmulatedApp? {
        if let scoped { return scoped }
        if case .app(let app) = ProcessBinding.shared.resolve() { return app }
        return nil
    }

    /// The app of the calling code for the call `api` of Apple's API; stops the process with a message saying how
    /// to bind an app when none can be told.
    static func app(for api: String) -> EmulatedApp {
        let app: EmulatedApp
        if let scoped {
            app = scoped
        } else {
            switch ProcessBinding.shared.resolve() {
            case .app(let bound): app = bound
            case .unbound: fatalError(unboundMessage(api))
            case .ambiguous(let why): fatalError(ambiguousMessage(api, why))
            }
        }
        app.noteActivity()
        return app
    }

    static func unboundMessage(_ api: String) -> String {
        "BGEmuKit: \(api) was called by code no app is bound to: no app has been launched in this process. "
            + "Launch the app first (`try await app.launch { … }`), or call its code inside `app.bind { … }` or "
            + "`try await app.run { … }`."
    }

    static func ambiguousMessage(_ api: String, _ why: String) -> String {
        "BGEmuKit: \(api) was called outside the harness's tasks while \(why): code on a dispatch queue, a thread, "
            + "a timer or an observer cannot be told to belong to one of them. Drive one device at a time (run such "
            + "tests one at a time: `@Suite(.serialized)`, `swift test --no-parallel`), or call the app's code "
            + "inside `app.bind { … }`."
    }
}
