/// Which app `BGTaskScheduler.shared` and `UIApplication.shared` mean: the app whose code the harness is running
/// (its launch, an event's handler). Bound as a task-local value around every launch and dispatch, so that tests
/// running in parallel each see their own app. Code that hops to another thread or task leaves the binding behind:
/// there `BGTaskScheduler.shared.submit` throws `.unavailable`, `register` answers false and
/// `beginBackgroundTask` answers `.invalid`, as iOS answers code that cannot use them. Objects handed to app code
/// (a `BGTask`, a completion handler, a `UIBackgroundTaskIdentifier`) stay bound to their app wherever they go.
enum AppContext {
    @TaskLocal static var current: EmulatedApp?
}
