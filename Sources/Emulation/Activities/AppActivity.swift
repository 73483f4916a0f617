import Foundation

/// A continuous background activity an app runs (R35–R38): what `PUT …/activities/{activity}` turns on or off.
public enum AppActivity: String, Sendable, Codable, CaseIterable {
    /// Playing or recording audio (R35).
    case audio
    /// Standard location updates (R36).
    case location
    /// Significant-change location monitoring (R36).
    case significantLocationChanges
    /// A VoIP socket with a keep-alive handler (R37).
    case voip
    /// A Core Bluetooth connection (R38).
    case bluetooth
    /// An External Accessory session (R38).
    case externalAccessory

    /// The background modes that make the activity work in the background (any one of them); empty when none
    /// is needed (significant-change monitoring works without a mode).
    public var modes: [BackgroundMode] {
        switch self {
        case .audio: [.audio]
        case .location: [.location]
        case .significantLocationChanges: []
        case .voip: [.voip]
        case .bluetooth: [.bluetoothCentral, .bluetoothPeripheral]
        case .externalAccessory: [.externalAccessory]
        }
    }

    /// Whether the activity, with its mode, keeps a background app from suspension (R35, R36); the others wake
    /// the app when something happens instead.
    public var holdsApp: Bool { self == .audio || self == .location }

    /// Whether the activity ends with the app's process (audio stops, standard updates stop); the others are
    /// registrations the system keeps.
    public var endsWithProcess: Bool { self == .audio || self == .location }
}

/// What `setActivity` answers: whether the activity keeps the app running and, if not, why.
public struct ActivityOutcome: Sendable, Equatable {
    public var activity: AppActivity
    public var active: Bool
    public var keepsAppRunning: Bool
    /// `playing`, `updatingLocation`, `modeNotDeclared`, `inactive`, `wakesOnSignificantChange`,
    /// `wakesForKeepAlive`, `wakesOnAccessoryData`.
    public var reason: String

    public init(activity: AppActivity, active: Bool, keepsAppRunning: Bool, reason: String) {
        self.activity = activity
        self.active = active
        self.keepsAppRunning = keepsAppRunning
        self.reason = reason
    }
}

/// A location fix: where the device is.
public struct LocationFix: Sendable, Codable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var at: VirtualInstant

    public init(latitude: Double, longitude: Double, at: VirtualInstant) {
        self.latitude = latitude
        self.longitude = longitude
        self.at = at
    }

    /// The great-circle distance in metres (haversine, mean Earth radius).
    public func distance(to other: LocationFix) -> Double {
        let radius = 6_371_000.0
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let dφ = (other.latitude - latitude) * .pi / 180
        let dλ = (other.longitude - longitude) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * radius * asin(min(1, sqrt(a)))
    }
}

/// An app's continuous activities, as the system tracks them.
public struct ActivityRuntime: Sendable, Codable, Equatable {
    /// The activities turned on, in the order they were.
    public var active: [AppActivity] = []
    /// The VoIP keep-alive interval (R37).
    public var keepAliveInterval: VirtualDuration?
    /// The last significant-change fix delivered to the app (R36).
    public var lastSignificantFix: LocationFix?

    public init() {}

    public func isActive(_ activity: AppActivity) -> Bool { active.contains(activity) }
}
