/// A value of `UIBackgroundModes`. An open vocabulary on the wire, validated against `BackgroundMode.all`.
public struct BackgroundMode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let audio = BackgroundMode("audio")
    public static let location = BackgroundMode("location")
    public static let voip = BackgroundMode("voip")
    public static let newsstandContent = BackgroundMode("newsstand-content")
    public static let externalAccessory = BackgroundMode("external-accessory")
    public static let bluetoothCentral = BackgroundMode("bluetooth-central")
    public static let bluetoothPeripheral = BackgroundMode("bluetooth-peripheral")
    public static let fetch = BackgroundMode("fetch")
    public static let remoteNotification = BackgroundMode("remote-notification")
    public static let processing = BackgroundMode("processing")
    public static let nearbyInteraction = BackgroundMode("nearby-interaction")
    public static let pushToTalk = BackgroundMode("push-to-talk")
    public static let networkAuthentication = BackgroundMode("network-authentication")

    /// Every value Apple documents for `UIBackgroundModes`.
    public static let all: [BackgroundMode] = [
        .audio, .bluetoothCentral, .bluetoothPeripheral, .externalAccessory, .fetch, .location, .nearbyInteraction,
        .networkAuthentication, .newsstandContent, .processing, .pushToTalk, .remoteNotification, .voip,
    ]

    public var isKnown: Bool { BackgroundMode.all.contains(self) }
}
