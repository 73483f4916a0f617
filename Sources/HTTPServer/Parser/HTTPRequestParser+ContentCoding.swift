extension HTTPRequestParser {
    /// The content codings a request body may have: gzip (`x-gzip` is its old name, RFC 9110 §8.4.1.3), and
    /// identity, which is no coding at all.
    static let acceptedContentCodings = "gzip"

    /// Records the codings of a `Content-Encoding` field; judged once the head is complete.
    mutating func noteContentEncoding(_ value: UnsafeRawBufferPointer) {
        ByteRules.forEachListElement(value) { coding in
            if ByteRules.equalsLowercase(coding, "gzip") || ByteRules.equalsLowercase(coding, "x-gzip") {
                head.gzipCodings += 1
            } else if !ByteRules.equalsLowercase(coding, "identity"), head.unsupportedCoding == nil {
                head.unsupportedCoding = ByteRules.string(coding)
            }
            return true
        }
    }

    /// `415` for a body in a coding the server cannot decode (RFC 9110 §15.5.16), or gzip applied twice; nil
    /// when the body is identity or gzip. Asked only of a request with a body.
    func contentCodingError() -> HTTPParseError? {
        if let coding = head.unsupportedCoding {
            return HTTPParseError(
                status: .unsupportedMediaType,
                detail: "The request body's Content-Encoding \"\(coding)\" is not supported: send it as gzip or uncoded.",
                acceptEncoding: Self.acceptedContentCodings)
        }
        if head.gzipCodings > 1 {
            return HTTPParseError(
                status: .unsupportedMediaType, detail: "The request body is gzipped more than once: gzip it once.",
                acceptEncoding: Self.acceptedContentCodings)
        }
        return nil
    }

    /// Reports the request whose body is complete, its gzip coding removed first: bounded by the body limit
    /// once decoded (`413`, so a small bomb cannot inflate without end), malformed gzip a `400`. An upload's
    /// body keeps its coding here, and its spool is mapped: the worker answering it decodes it
    /// (``HTTPRequest/decodeDeferredContentCoding()``), so hundreds of MiB are never inflated on an event loop.
    mutating func finish(_ offset: Int) -> (consumed: Int, event: Event) {
        let gzipped = head.gzipCodings > 0 && receivedBodyBytes > 0
        if isUpload {
            var spooled: SpooledBody?
            if let spool {
                guard let mapped = spool.finish() else { return fail(offset, .bodyUnstorable) }
                spooled = mapped
            }
            return (offset, .request(emit(spooled: spooled, gzipLimit: gzipped ? currentBodyLimit() : nil)))
        }
        if gzipped {
            switch Gzip.decompress(body, limit: max(limits.maxBodySize, currentBodyLimit())) {
            case .decoded(let decoded):
                body = decoded
                // The handler sees the content as if it had been sent uncoded.
                head.fields.removeAll { $0.name.utf8.count == 16 && $0.name.lowercased() == "content-encoding" }
            case .tooLarge:
                return fail(offset, .decodedBodyTooLarge)
            case .malformed:
                return fail(offset, .badRequest("The request body is not valid gzip."))
            }
        }
        return (offset, .request(emit()))
    }
}
