import Emulation
import Foundation

extension Date {
    /// RFC 3339 in UTC with milliseconds, as every date on the wire.
    var rfc3339: String {
        RFC3339.format(VirtualInstant(milliseconds: Int64((timeIntervalSince1970 * 1000).rounded())))
    }
}
