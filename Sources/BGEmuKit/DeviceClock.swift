import Foundation

/// A clock for app code's notion of now that follows the emulated device: its ``now`` is the device's virtual now
/// when the calling code is bound to an emulated app (the harness's handlers and callbacks, and, once an app is
/// launched, code on dispatch queues, threads and tasks of the process), and the wall clock's `Date()` otherwise —
/// in an app on a phone, say. Take it as a dependency where the app reads the time for its own decisions ("refresh
/// if the last one was over an hour ago"), so that a 24 h ``EmulatedDevice/advanceClock(by:isolation:)`` is 24 h to
/// that code too.
///
/// A date computed from it (`clock.now.addingTimeInterval(15 * 60)`) can be handed to `BGTaskScheduler` as it is:
/// the kit maps a date by its offset from whichever now — the device's or the wall clock's — it is nearer to.
public struct DeviceClock: Sendable {
    /// The clock of the calling code's app.
    public init() {}

    /// The device's virtual now for code bound to an emulated app; the wall clock's now otherwise.
    public var now: Date { EmulatedDevice.currentDate ?? Date() }
}
