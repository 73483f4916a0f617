extension EventType {
    /// The events at which the system calls an app's own code: a run starts (its launch handler or delegate method),
    /// a run or a background task starts expiring (its expiration handler), or a delegate method is called.
    /// A client that runs the app's code stops the clock at each (`advance(to:stoppingAtAppCode:)`).
    public static let callingAppCode: Set<EventType> = [.runStarted, .runExpiring, .backgroundTaskExpiring, .appDelegate]

    /// Whether the system calls the app's code at this event.
    public var callsAppCode: Bool { Self.callingAppCode.contains(self) }
}
