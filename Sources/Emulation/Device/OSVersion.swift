/// An iOS version (`17.0`, `12.4.1`); it selects the device's behaviour profile.
public struct OSVersion: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(major: Int, minor: Int = 0, patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `M`, `M.m` or `M.m.p` (each part up to 3 digits, no leading zero); nil for anything else or a
    /// version outside iOS 4–26.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed = parts.allSatisfy {
            (1...3).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) && ($0.count == 1 || $0.first != "0")
        }
        guard (1...3).contains(parts.count), wellFormed,
            let major = Int(parts[0]), OSVersion.supportedMajors.contains(major)
        else { return nil }
        self.major = major
        self.minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        self.patch = parts.count > 2 ? Int(parts[2]) ?? 0 : 0
    }

    /// The iOS releases bgemu has profiles for.
    public static let supportedMajors = 4...26
    public static let `default` = OSVersion(major: 17, minor: 0)

    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = OSVersion(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad iOS version"))
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
