extension HTTPRequest {
    /// Whether the body still has its gzip coding, left by the parser for whoever answers the request to remove
    /// (``decodeContentCoding()``): a middleware that wants the inflating done on threads of its own, or else the
    /// route's handler, just before it runs.
    public var hasDeferredContentCoding: Bool { extras?.gzipLimit != nil }

    /// Removes the gzip coding the parser left on an upload's body (``HTTPRequestParser/finish(_:)``), so that
    /// the inflating happens on the worker answering the request, not on an event loop: the content goes to
    /// memory, or to a spool when large, bounded by the request's body limit; the handler then sees it as if it
    /// had been sent uncoded. Returns the error to answer instead (`413` past the limit, `400` for bad gzip).
    ///
    /// Besides the route's limit, the content may be at most ``BodyInflater/maximumRatio`` times the body's gzip
    /// size past ``BodyInflater/ratioFloor`` (``HTTPParseError/decodedBodyInflatesTooMuch``): a bomb is refused
    /// after inflating a tenth of what it would. `limitFor` sees the content's first bytes (``BodyInflater/prefixLength``) and may answer a lower limit for
    /// such content; past it, the error is ``HTTPParseError/decodedContentTooLarge``.
    mutating func decodeDeferredContentCoding(limitFor: (UnsafeRawBufferPointer) -> Int? = { _ in nil }) -> HTTPParseError? {
        guard let extras, let routeLimit = extras.gzipLimit else { return nil }
        let ratioBound = BodyInflater.ratioBound(encodedCount: bodyCount)
        let limit = min(routeLimit, ratioBound)
        let result = withBodyBytes {
            BodyInflater.inflate($0, limit: limit, spoolThreshold: HTTPRequestParser.spoolThreshold, limitFor: limitFor)
        }
        var spooled: SpooledBody?
        switch result {
        case .bytes(let bytes): body = bytes
        case .spooled(let spool):
            body = []
            spooled = spool
        case .tooLarge: return limit < routeLimit ? .decodedBodyInflatesTooMuch : .decodedBodyTooLarge
        case .tooLargeForContent: return .decodedContentTooLarge
        case .malformed: return .badRequest("The request body is not valid gzip.")
        case .unstorable: return .bodyUnstorable
        }
        self.extras = RequestBodyExtras(spooled: spooled, sharingLeaseOf: extras, gzipLimit: nil)
        headers.remove("Content-Encoding")
        return nil
    }
}
