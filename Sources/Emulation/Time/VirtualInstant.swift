/// A point on a device's virtual clock: whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Fixed-point, so that timers due at the same instant compare equal on every machine.
public struct VirtualInstant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    public init(seconds: Double) { self.milliseconds = Int64((seconds * 1000).rounded()) }

    /// Seconds since 1970 as a floating-point number.
    public var seconds: Double { Double(milliseconds) / 1000 }

    public static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: VirtualInstant, rhs: VirtualDuration) -> VirtualInstant {
        VirtualInstant(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }
    public static func - (lhs: VirtualInstant, rhs: VirtualDuration) -> VirtualInstant {
        VirtualInstant(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }
    public static func - (lhs: VirtualInstant, rhs: VirtualInstant) -> VirtualDuration {
        VirtualDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    public var description: String { RFC3339.format(self) }

    /// The default start of a manual clock: a fixed instant, so that runs repeat exactly.
    public static let defaultStart = VirtualInstant(milliseconds: 1_767_225_600_000)  // 2026-01-01T00:00:00Z
    /// The latest instant a device's clock reads (9000-01-01T00:00:00Z): every date derived from it (a deadline,
    /// a notification at most a year later) keeps a 4-digit year, as RFC 3339 requires.
    public static let latest = VirtualInstant(milliseconds: 221_845_392_000_000)
}

/// A span of virtual time in whole milliseconds.
public struct VirtualDuration: Hashable, Comparable, Sendable, Codable {
    public var milliseconds: Int64
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    public init(seconds: Double) { self.milliseconds = Int64((seconds * 1000).rounded()) }
    public var seconds: Double { Double(milliseconds) / 1000 }
    public static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func seconds(_ s: Double) -> VirtualDuration { VirtualDuration(seconds: s) }

    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}
