import HTTPServer
import Locking
import Service

/// At most `maximumPerTenant` uploads (`POST /v1/devices/{id}/apps` bodies) of one tenant being read or answered
/// at once, counted by the tenant of the request's API key, whatever connections they come on. A tenant past it is
/// answered `429 tooManyUploads` from the head, before its body is read (the server's upload admission,
/// ``admission(credentials:)``), so one tenant cannot fill the disk, the page cache or the workers with uploads
/// while the others wait.
///
/// A slot is an object the request carries (``Slot``): it is given back when the last copy of the request is
/// gone, whichever way the request ends: its answer written, the connection closed mid-body, a framing error, a
/// handler's error.
final class UploadSlots: Sendable {
    let maximumPerTenant: Int
    private let held: PlainLock<[String: Int]>

    init(maximumPerTenant: Int) {
        self.maximumPerTenant = max(1, maximumPerTenant)
        held = PlainLock([:])
    }

    /// One upload's place; released on deinit.
    final class Slot: Sendable {
        let slots: UploadSlots
        let tenantId: String

        fileprivate init(slots: UploadSlots, tenantId: String) {
            self.slots = slots
            self.tenantId = tenantId
        }

        deinit { slots.release(tenantId) }
    }

    /// A slot for one more upload of `tenantId`, or nil when it holds `maximumPerTenant` already.
    func take(_ tenantId: String) -> Slot? {
        let taken = held.withLock { counts -> Bool in
            let count = counts[tenantId, default: 0]
            guard count < maximumPerTenant else { return false }
            counts[tenantId] = count + 1
            return true
        }
        return taken ? Slot(slots: self, tenantId: tenantId) : nil
    }

    /// The uploads `tenantId` holds now.
    func count(_ tenantId: String) -> Int { held.withLock { $0[tenantId] ?? 0 } }

    private func release(_ tenantId: String) {
        held.withLock { counts in
            let count = counts[tenantId, default: 1] - 1
            counts[tenantId] = count > 0 ? count : nil
        }
    }

    /// The server's upload admission: a slot for a known tenant's upload, a `429` past its share. A request
    /// without a valid key is admitted without a slot: the authentication refuses it further in (from its
    /// head too).
    /// - Parameter hold: how long a refusal is held before it is sent (`serve --rate-limit-hold`, as the rate
    ///   limiter's refusals are): a tenant retrying at once, on as many connections as it likes, gets one refusal
    ///   per hold on each.
    func admission(credentials: Credentials, hold: Duration = .zero) -> @Sendable (HTTPRequest) -> UploadAdmission {
        var held = Problems.tooManyUploads(maximumPerTenant).response()
        held.delay = hold
        let refusal = held
        return { [self] head in
            guard let token = AuthMiddleware.token(in: head), let tenant = try? credentials.tenant(forKey: token) else {
                return .admitted(lease: nil)
            }
            guard let slot = take(tenant.id) else { return .refused(refusal) }
            return .admitted(lease: slot)
        }
    }
}

extension Problems {
    /// `429 tooManyUploads`: the tenant has its most uploads in progress. One second is a guess at when one ends,
    /// as good as any: an upload takes as long as its client takes to send it.
    static func tooManyUploads(_ maximum: Int) -> HTTPProblem {
        HTTPProblem(
            status: .tooManyRequests, code: "tooManyUploads",
            detail: "Your tenant has \(maximum) app upload\(maximum == 1 ? "" : "s") in progress, its most at once "
                + "(serve --max-uploads-per-tenant); retry when one is answered.",
            headers: ["Retry-After": "1"])
    }
}
