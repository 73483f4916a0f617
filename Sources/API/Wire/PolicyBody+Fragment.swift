import CompactJSON
import Emulation

extension PolicyBody {
    /// The policy of `profile` with its JSON: made once for each of the three built-in profiles (what nearly every
    /// device has) and reused without a lock; a policy with overrides of its own is encoded for its answer. Of all a
    /// device's answer, its two dozen constants cost the most to encode, and they are the same for every device of a
    /// profile.
    static func fragment(_ profile: Profile) -> JSONFragment<PolicyBody> {
        if let builtIn = builtIns.first(where: { $0.value.profile == profile }) { return builtIn }
        return make(PolicyBody(profile))
    }

    /// The fragments of the built-in profiles.
    static let builtIns: [JSONFragment<PolicyBody>] = [Profile.ios13, Profile.ios7, Profile.ios4].map { make(PolicyBody($0)) }

    private static func make(_ body: PolicyBody) -> JSONFragment<PolicyBody> {
        // A policy's constants are finite numbers and booleans: nothing the encoder refuses.
        guard let made = try? JSONFragment(body, encoder: JSONBody.encoder) else {
            preconditionFailure("a policy could not be encoded")
        }
        return made
    }
}
