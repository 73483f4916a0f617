import Foundation

/// A request to launch the app in the background for the processing of a health research study the user takes
/// part in (Apple's `BGHealthResearchTaskRequest`, iOS 17): a processing request (R20) that says which file
/// protection the data it needs has. bgemu submits it as a processing request; its launch handler gets a
/// `BGProcessingTask` (BGEmuKit has no `BGHealthResearchTask`).
@available(iOS 17.0, *)
public final class BGHealthResearchTaskRequest: BGProcessingTaskRequest {
    /// The file protection of the health research data the task reads (`FileProtectionType`): a task whose data
    /// is `.complete` can only run while the device is unlocked. bgemu keeps it, without weighing it; BGEmuKit's
    /// default is `.completeUntilFirstUserAuthentication`.
    public var protectionTypeOfRequiredData: FileProtectionType = .completeUntilFirstUserAuthentication

    /// A request for `identifier`, which must be permitted and whose launch handler must be registered.
    public override init(identifier: String) { super.init(identifier: identifier) }
}
