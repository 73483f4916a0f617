/// An app's place among its device's apps, handed out by the device (`appSlot(_:)`, `appSlots`): the engine's
/// functions take it, not a bare array index, so an index of something else (a run, a transfer) cannot be passed.
///
/// A slot is good while the device's apps are not installed or removed: the engine takes one per operation and
/// does not keep it (timers name apps by bundle id).
public struct AppSlot: Hashable, Comparable, Sendable {
    /// The app's index in `Device.apps`.
    let index: Int

    fileprivate init(_ index: Int) { self.index = index }

    public static func < (lhs: AppSlot, rhs: AppSlot) -> Bool { lhs.index < rhs.index }
}

extension Device {
    /// The slot of the installed app with `bundleId`.
    public func appSlot(_ bundleId: String) -> AppSlot? { apps.firstIndex { $0.bundleId == bundleId }.map(AppSlot.init) }

    /// The slots of the installed apps, in installation order (the order of `apps`).
    public var appSlots: [AppSlot] { apps.indices.map(AppSlot.init) }
}

extension Array where Element == App {
    /// The app in `slot`, changed in place (`device.apps[i].runtime.x = …` copies no app), as the `Int` subscript
    /// is.
    public subscript(_ slot: AppSlot) -> App {
        // A getter, not `_read { yield self[slot.index] }`: with the yielding reader, a debug build of the service
        // released a temporary twice in `endBackgroundTask` and crashed (BackgroundTaskEndEndToEndTests).
        get { self[slot.index] }
        _modify { yield &self[slot.index] }
    }

    /// Removes the app in `slot` (its uninstallation): the slots after it no longer name the same apps.
    @discardableResult
    mutating func remove(at slot: AppSlot) -> App { remove(at: slot.index) }
}
