/// The server's judgement of an upload from its head (``HTTPServerConfiguration/uploadAdmission``).
public enum UploadAdmission: Sendable {
    /// Read the body. The lease, when there is one, is released when the last copy of the request is gone:
    /// after its answer is written, or when the connection closes or fails mid-body (deinit).
    case admitted(lease: (any AnyObject & Sendable)?)
    /// Answer this now (a `429`, say) and close the connection without reading the body.
    case refused(HTTPResponse)
}
