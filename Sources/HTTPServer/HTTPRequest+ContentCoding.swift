extension HTTPRequest {
    /// Removes the gzip coding the parser left on an upload's body (see ``hasDeferredContentCoding``), on the
    /// calling thread. Throws the problem to answer instead: `413` past the request's body limit once decoded,
    /// `400` for bad gzip (with `Accept-Encoding`), `503` when no spool can be written.
    ///
    /// `limitFor` judges the content by its first bytes as soon as they are decoded (``DecodedContentLimit``): a
    /// handler that takes large content of one kind only (an archive) and small content of the others stops a
    /// bomb of the small kind at its own bound, with its own problem, instead of inflating it to the route's.
    ///
    /// Outside `Parser/`: the parser's fuzzer builds that folder without the server's problem type.
    public mutating func decodeContentCoding(
        limitFor: (UnsafeRawBufferPointer) -> DecodedContentLimit? = { _ in nil }
    ) throws(HTTPProblem) {
        var chosen: DecodedContentLimit?
        let failure = decodeDeferredContentCoding { prefix in
            chosen = limitFor(prefix)
            return chosen?.bytes
        }
        guard let error = failure else { return }
        if error == .decodedContentTooLarge, let chosen { throw chosen.problem }
        var headers = HTTPHeaders()
        if error.status == .badRequest { headers.add("Accept-Encoding", HTTPRequestParser.acceptedContentCodings) }
        throw HTTPProblem(status: error.status, detail: error.detail, headers: headers)
    }
}

/// The most a handler takes of content that starts as the content being decoded does, and the problem it answers
/// past that (see ``HTTPRequest/decodeContentCoding(limitFor:)``).
public struct DecodedContentLimit: Sendable {
    public var bytes: Int
    public var problem: HTTPProblem

    public init(bytes: Int, problem: HTTPProblem) {
        self.bytes = bytes
        self.problem = problem
    }
}
