/// `setMinimumBackgroundFetchInterval` (R28).
public enum FetchInterval: Sendable, Codable, Equatable {
    /// `UIApplicationBackgroundFetchIntervalNever`, the default: no fetch runs.
    case never
    /// `UIApplicationBackgroundFetchIntervalMinimum`: as often as the system likes.
    case minimum
    /// At least this long between fetches.
    case seconds(VirtualDuration)
}
