/// What an upload's request carries beside an in-memory body, in one reference so that an ordinary request
/// pays a nil pointer for it: the body spooled to a file, the upload's admission (held as long as the request),
/// and a gzip coding left for the worker to remove.
final class RequestBodyExtras: Sendable {
    /// The body, when it was spooled (``HTTPRequest/body`` is then empty).
    let spooled: SpooledBody?
    /// Whatever the server's `uploadAdmission` handed out for the request (a per-tenant slot), released when
    /// the last copy of the request is gone: after its answer is written, or with the connection.
    let lease: (any AnyObject & Sendable)?
    /// The most bytes the body may decode to, while its gzip coding is still to be removed
    /// (``HTTPRequest/decodeDeferredContentCoding()``); nil when the body is as the handler sees it.
    let gzipLimit: Int?

    init(spooled: SpooledBody?, lease: (any AnyObject & Sendable)?, gzipLimit: Int?) {
        self.spooled = spooled
        self.lease = lease
        self.gzipLimit = gzipLimit
    }
}
