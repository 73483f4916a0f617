import Foundation

extension Duration {
    /// The duration in seconds, as a `TimeInterval`: what `Thread.sleep` and a `Date`'s arithmetic take.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
