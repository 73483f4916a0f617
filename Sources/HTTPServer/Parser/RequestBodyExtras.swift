import Synchronization

/// What an upload's request carries beside an in-memory body, in one reference so that an ordinary request
/// pays a nil pointer for it: the body spooled to a file, the upload's admission (held as long as the request),
/// and a gzip coding left for the worker to remove.
final class RequestBodyExtras: Sendable {
    /// The body, when it was spooled (``HTTPRequest/body`` is then empty).
    let spooled: SpooledBody?
    /// Whatever the server's `uploadAdmission` handed out for the request (a per-tenant slot): given back as soon
    /// as the request's answer is made (``endLease()``), before a byte of it is written, so that a client that
    /// sends its next upload on reading the answer finds the slot free; else when the last copy of the request is
    /// gone (a connection closed mid-body, a framing error). Shared by the extras made from these ones (a body
    /// discarded or decoded): whichever copy of the request the answer is made from, the slot is given back then,
    /// not when the heavy-work thread that read the body drops its copy (at the lowest priority, that could be
    /// long after the client had its answer and sent its next upload).
    var lease: (any AnyObject & Sendable)? { held.lease.withLock { $0 } }
    private let held: LeaseCell
    /// The most bytes the body may decode to, while its gzip coding is still to be removed
    /// (``HTTPRequest/decodeDeferredContentCoding()``); nil when the body is as the handler sees it.
    let gzipLimit: Int?

    init(spooled: SpooledBody?, lease: (any AnyObject & Sendable)?, gzipLimit: Int?) {
        self.spooled = spooled
        held = LeaseCell(lease)
        self.gzipLimit = gzipLimit
    }

    /// Extras for the same request with another body, sharing `other`'s lease.
    init(spooled: SpooledBody?, sharingLeaseOf other: RequestBodyExtras, gzipLimit: Int?) {
        self.spooled = spooled
        held = other.held
        self.gzipLimit = gzipLimit
    }

    /// Gives back the request's lease now (its answer is made), for every copy of the request.
    func endLease() { held.lease.withLock { $0 = nil } }

    /// The one place a request's lease is kept, whatever extras its copies have.
    private final class LeaseCell: Sendable {
        let lease: Mutex<(any AnyObject & Sendable)?>
        init(_ lease: (any AnyObject & Sendable)?) { self.lease = Mutex(lease) }
    }
}
