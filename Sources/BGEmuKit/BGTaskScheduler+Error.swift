import Foundation

extension BGTaskScheduler {
    /// The error `submit(_:)` throws, as on iOS: match it with `catch BGTaskScheduler.Error.unavailable` or
    /// `catch let error as BGTaskScheduler.Error where error.code == .notPermitted`. It bridges to `NSError` as
    /// Apple's does (`CustomNSError`): `(error as NSError).domain == BGTaskSchedulerErrorDomain`, its `code` the
    /// code's raw value.
    public struct Error: Swift.Error, CustomNSError, Equatable, Sendable, CustomStringConvertible {
        /// `BGTaskSchedulerErrorCode`, with Apple's raw values.
        public enum Code: Int, Sendable {
            /// Background App Refresh is off (device or app), Low Power Mode is on, the device runs iOS before 13
            /// (BGEmuKit: also a refusal of bgemu's own, its reason in ``BGTaskScheduler/Error/detail``).
            case unavailable = 1
            /// The app has its kind's most pending requests: 1 app refresh or 10 processing.
            case tooManyPendingTaskRequests = 2
            /// The identifier is not in `BGTaskSchedulerPermittedIdentifiers`, or the kind's background mode is not
            /// declared.
            case notPermitted = 3
            /// A continued processing request submitted outside the foreground, or with strategy `.fail` when the
            /// app's continued processing task still runs (R41).
            case immediateRunIneligible = 4
        }

        /// Why the submit was refused.
        public let code: Code
        /// BGEmuKit only: the service's explanation (not compared).
        public let detail: String?

        /// An error of this code (to compare with what a submit threw).
        public init(_ code: Code) { self.init(code, detail: nil) }

        init(_ code: Code, detail: String?) {
            self.code = code
            self.detail = detail
        }

        /// Errors of the same code are equal, whatever their detail.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

        public var description: String { "BGTaskScheduler.Error(\(code))\(detail.map { ": \($0)" } ?? "")" }

        /// ``BGTaskSchedulerErrorDomain``, the domain of the bridged `NSError`.
        public static var errorDomain: String { BGTaskSchedulerErrorDomain }
        /// The code's raw value, the bridged `NSError`'s `code` (Apple's `errorCode`).
        public var errorCode: Int { code.rawValue }
        /// BGEmuKit's detail, as the bridged `NSError`'s `localizedDescription`, when there is one.
        public var errorUserInfo: [String: Any] { detail.map { [NSLocalizedDescriptionKey: $0] } ?? [:] }

        /// `catch BGTaskScheduler.Error.unavailable`, as with Apple's bridged error.
        public static var unavailable: Code { .unavailable }
        /// `catch BGTaskScheduler.Error.tooManyPendingTaskRequests`.
        public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
        /// `catch BGTaskScheduler.Error.notPermitted`.
        public static var notPermitted: Code { .notPermitted }
        /// `catch BGTaskScheduler.Error.immediateRunIneligible`.
        public static var immediateRunIneligible: Code { .immediateRunIneligible }

        /// The error a submit throws for the service's refusal: its own code when it is one of Apple's, else
        /// `.unavailable` with bgemu's reason as the detail (`appNotRunning`: the device had suspended the app while
        /// its code ran outside a harness call, which iOS never lets happen).
        static func refusing(_ problem: ServiceProblem) -> BGTaskScheduler.Error {
            mapping(problem) ?? .init(.unavailable, detail: "bgemu refused the submit: \(problem)")
        }

        /// The error iOS throws for the service's refusal of a submit, or nil when the refusal is not one of
        /// BGTaskScheduler's (`appNotRunning`, `noLaunchHandler`, a bad body).
        static func mapping(_ problem: ServiceProblem) -> BGTaskScheduler.Error? {
            guard problem.status == 409, let code = problem.code else { return nil }
            switch code {
            case "unavailable": return .init(.unavailable, detail: problem.detail)
            case "tooManyPendingTaskRequests": return .init(.tooManyPendingTaskRequests, detail: problem.detail)
            case "notPermitted": return .init(.notPermitted, detail: problem.detail)
            case "immediateRunIneligible": return .init(.immediateRunIneligible, detail: problem.detail)
            default: return nil
            }
        }
    }
}

/// The domain of the errors `BGTaskScheduler` reports (iOS 13), as `NSError`'s `domain`.
public let BGTaskSchedulerErrorDomain = "BGTaskSchedulerErrorDomain"

/// Lets `catch BGTaskScheduler.Error.notPermitted` match, as with Apple's bridged error.
public func ~= (code: BGTaskScheduler.Error.Code, error: any Error) -> Bool {
    (error as? BGTaskScheduler.Error)?.code == code
}
