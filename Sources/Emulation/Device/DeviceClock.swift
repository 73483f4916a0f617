/// How a device's virtual time moves.
public enum ClockMode: String, Sendable, Codable, CaseIterable {
    /// Time moves only when a client advances it.
    case manual
    /// Time follows the wall clock times `scale`.
    case realtime
}

/// A device's virtual clock: its mode and where it stands.
///
/// A realtime clock is kept as an anchor pair (virtual instant, wall instant): its reading at a wall time is
/// `anchor + (wall - anchorWall) × scale`. The caller supplies wall time; the core never reads it.
public struct DeviceClock: Sendable, Codable, Equatable {
    public var mode: ClockMode
    public var scale: Double
    /// The virtual time at the anchor (for a manual clock: simply now).
    public var anchor: VirtualInstant
    /// Wall time, in milliseconds since 1970, at which a realtime clock read `anchor`.
    public var anchorWallMilliseconds: Int64

    public init(mode: ClockMode = .manual, scale: Double = 1, start: VirtualInstant = .defaultStart, wallMilliseconds: Int64 = 0) {
        self.mode = mode
        self.scale = scale
        self.anchor = start
        self.anchorWallMilliseconds = wallMilliseconds
    }

    /// The virtual time at wall time `wallMilliseconds`; a realtime clock stops at `VirtualInstant.latest`.
    public func now(wallMilliseconds: Int64) -> VirtualInstant {
        switch mode {
        case .manual:
            return anchor
        case .realtime:
            let elapsed = Double(max(0, wallMilliseconds - anchorWallMilliseconds)) * scale
            let room = Double(max(0, VirtualInstant.latest.milliseconds - anchor.milliseconds))
            return VirtualInstant(milliseconds: anchor.milliseconds + Int64(min(elapsed, room).rounded(.down)))
        }
    }

    /// The largest scale a realtime clock accepts.
    public static let maximumScale = 10_000.0
}
