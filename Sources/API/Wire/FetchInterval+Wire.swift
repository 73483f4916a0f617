import Emulation

extension FetchInterval {
    /// The wire form: seconds, `"minimum"` or `"never"`.
    var wireValue: EventValue {
        switch self {
        case .never: "never"
        case .minimum: "minimum"
        case .seconds(let s): .double(s.seconds)
        }
    }
}
