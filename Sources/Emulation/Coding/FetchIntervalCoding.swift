/// A fetch interval as JSON (R28), for `PUT …/fetch-interval`'s `interval` and the forecast's
/// `app.atLaunch.fetchInterval` alike: seconds (0–604800), `"minimum"` or `"never"`.
public struct FetchIntervalCoding: Codable, Sendable {
    /// The interval read or to write.
    public var interval: FetchInterval

    /// Wraps `interval` to encode it.
    public init(_ interval: FetchInterval) { self.interval = interval }

    /// Reads seconds (0–604800), `"minimum"` or `"never"`; anything else is an issue named by the field's path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let field = FieldPath.of(decoder.codingPath)
        if let word = try? c.decode(String.self) {
            switch word {
            case "minimum": interval = .minimum
            case "never": interval = .never
            default: throw EmulationError.invalid([FieldIssue(field, "must be seconds, \"minimum\" or \"never\"")])
            }
            return
        }
        let seconds = try c.decode(Double.self)
        guard seconds >= 0, seconds <= 7 * 86_400, seconds.isFinite else {
            throw EmulationError.invalid([FieldIssue(field, "must be from 0 to 604800 seconds")])
        }
        interval = .seconds(.seconds(seconds))
    }

    /// Writes the wire form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch interval {
        case .never: try c.encode("never")
        case .minimum: try c.encode("minimum")
        case .seconds(let s): try c.encode(s.seconds)
        }
    }
}

extension FetchInterval {
    /// The wire form: seconds, `"minimum"` or `"never"`.
    public var wireValue: EventValue {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .seconds(let s): .double(s.seconds)
        }
    }
}
