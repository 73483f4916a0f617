import CompactJSON
import Emulation
import Synchronization

extension PolicyBody {
    /// The policy of `profile`, with its JSON made once: of all a device's answer, its two dozen constants cost the
    /// most to encode (measured: 13 % of a device creation's instructions), and they are the same for every device
    /// of one profile. The last ``remembered`` distinct policies are kept.
    static func fragment(_ profile: Profile) -> JSONFragment<PolicyBody> {
        let body = PolicyBody(profile)
        if let known = recent.withLock({ $0.first { $0.value == body } }) { return known }
        // A policy's constants are finite numbers and booleans: nothing the encoder refuses.
        guard let made = try? JSONFragment(body, encoder: JSONBody.encoder) else {
            preconditionFailure("a policy could not be encoded")
        }
        recent.withLock { recent in
            if recent.count >= remembered { recent.removeFirst() }
            recent.append(made)
        }
        return made
    }

    /// How many distinct policies are kept (the three profiles, and devices with overrides of their own).
    static let remembered = 16
    private static let recent = Mutex<[JSONFragment<PolicyBody>]>([])
}
