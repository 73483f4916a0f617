/// The result a background fetch or silent push's completion handler reports (Apple's `UIBackgroundFetchResult`).
public enum UIBackgroundFetchResult: UInt, Sendable {
    /// New content was downloaded.
    case newData = 0
    /// Nothing new.
    case noData = 1
    /// The fetch failed.
    case failed = 2

    /// The name on bgemu's wire.
    var wireName: String {
        switch self {
        case .newData: "newData"
        case .noData: "noData"
        case .failed: "failed"
        }
    }
}
