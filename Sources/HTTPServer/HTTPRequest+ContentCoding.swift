extension HTTPRequest {
    /// Removes the gzip coding the parser left on an upload's body (see ``hasDeferredContentCoding``), on the
    /// calling thread. Throws the problem to answer instead: `413` past the request's body limit once decoded,
    /// `400` for bad gzip (with `Accept-Encoding`), `503` when no spool can be written.
    ///
    /// Outside `Parser/`: the parser's fuzzer builds that folder without the server's problem type.
    public mutating func decodeContentCoding() throws(HTTPProblem) {
        guard let error = decodeDeferredContentCoding() else { return }
        var headers = HTTPHeaders()
        if error.status == .badRequest { headers.add("Accept-Encoding", HTTPRequestParser.acceptedContentCodings) }
        throw HTTPProblem(status: error.status, detail: error.detail, headers: headers)
    }
}
