import Foundation

/// A request for work the user starts in the foreground and the system lets continue when the user leaves the app
/// (Apple's `BGContinuedProcessingTaskRequest`, iOS 26). Submit it from the foreground, in answer to the user's
/// action: it starts at once and its task (``BGContinuedProcessingTask``) keeps running in the background as long as
/// its `progress` advances (R41).
@available(iOS 26.0, *)
public final class BGContinuedProcessingTaskRequest: BGTaskRequest {
    /// What the scheduler does with a request it cannot start at once (Apple's
    /// `BGContinuedProcessingTaskRequest.SubmissionStrategy`, with its raw values).
    public enum SubmissionStrategy: Int, Sendable {
        /// Refuse the submit with `BGTaskScheduler.Error.Code.immediateRunIneligible`.
        case fail = 0
        /// Queue the request to start as soon as there is room (the default); a force quit cancels it.
        case queue = 1
    }

    /// The additional system resources the task needs (Apple's `BGContinuedProcessingTaskRequest.Resources`).
    public struct Resources: OptionSet, Sendable {
        public let rawValue: Int
        /// Creates the set from its raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// No additional resources.
        public static let `default`: Resources = []
        /// Background GPU access (check ``BGTaskScheduler/supportedResources`` first).
        public static let gpu = Resources(rawValue: 1 << 0)
    }

    /// The localized title the system shows while the task runs.
    public var title: String
    /// The localized subtitle the system shows while the task runs.
    public var subtitle: String
    /// What the scheduler does when it cannot start the task at once; `.queue` unless set.
    public var strategy: SubmissionStrategy = .queue
    /// The additional resources the task needs; `.default` unless set.
    public var requiredResources: Resources = .default

    /// A request for `identifier`, which replaces the `*` of a wildcard identifier in
    /// `BGTaskSchedulerPermittedIdentifiers` (`<bundle id>.export.*` permits `<bundle id>.export.42`); the launch
    /// handler is registered for the wildcard. `title` and `subtitle` are what the system shows.
    public init(identifier: String, title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        super.init(identifier: identifier)
    }

    override var kind: String { "continuedProcessing" }
}

extension BGTaskScheduler {
    /// The resources continued processing tasks may ask for on this device (Apple's
    /// `BGTaskScheduler.supportedResources`): bgemu's devices have the GPU.
    @available(iOS 26.0, *)
    public static var supportedResources: BGContinuedProcessingTaskRequest.Resources { .gpu }
}
