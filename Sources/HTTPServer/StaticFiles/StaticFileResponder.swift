/// Serves the files under a folder (the repository's `Public/`) to `GET` and `HEAD`, as the router's fallback.
///
/// `/` and `/dir/` serve the folder's index file; `/dir` redirects to `/dir/` when that index exists. Every
/// refusal — an unsafe path (see `StaticFilePath`), a symlink leading outside the root, a missing file, a
/// dotfile — is the same `404` problem, so answers never reveal why. Other methods on an existing file are
/// `405` with `Allow: GET, HEAD`. Answers carry `ETag`, `Last-Modified` and `Cache-Control`, and
/// `If-None-Match` / `If-Modified-Since` answer `304` (RFC 9110 §13). Files are read whole on each request.
public struct StaticFileResponder: HTTPResponder {
    /// The root folder with symlinks resolved; nil when it does not exist (every request is then `404`).
    let root: String?
    let indexFile: String
    let cacheControl: String

    /// A responder for the files under `root`, answering directory paths with `indexFile` and sending
    /// `cacheControl` (RFC 9111 §5.2) with every file. `indexFile` is a plain file name.
    public init(root: String, indexFile: String = "index.html", cacheControl: String = "no-cache") {
        precondition(
            !indexFile.isEmpty && !indexFile.contains("/") && !indexFile.hasPrefix("."),
            "indexFile is a plain file name")
        self.root = StaticFileSystem.realPath(root)
        self.indexFile = indexFile
        self.cacheControl = cacheControl
    }

    /// True: files are answered from the path alone, so a body sent along is never waited for.
    public func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool { true }

    /// Answers the file `request.path` names.
    public func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        guard let path = StaticFilePath(requestPath: request.path), let file = locate(path) else {
            throw Self.notFound
        }
        guard request.method == .get || request.method == .head else {
            throw HTTPProblem(
                status: .methodNotAllowed, code: "methodNotAllowed",
                detail: "Static files answer GET and HEAD only.", headers: ["Allow": "GET, HEAD"])
        }
        if file.redirect {
            // RFC 9110 §15.4.2; relative references in the index resolve against the directory.
            let location = request.path + "/" + (request.query.map { "?" + $0 } ?? "")
            return HTTPResponse(status: HTTPStatus(code: 301), headers: ["Location": location])
        }
        guard let metadata = StaticFileSystem.metadata(file.path), metadata.kind == .regular else {
            throw Self.notFound
        }
        if Self.isNotModified(request, etag: Self.entityTag(for: metadata), metadata: metadata) {
            // A 304 carries the validators and Cache-Control a 200 would have (RFC 9110 §15.4.5).
            return HTTPResponse(status: .notModified, headers: validators(for: metadata))
        }
        guard let (current, bytes) = StaticFileSystem.read(file.path) else { throw Self.notFound }
        return HTTPResponse(
            contentType: MediaType.forFileName(file.name), bytes: bytes, headers: validators(for: current))
    }

    /// The real path of the file `path` names, checked to lie inside the root; `redirect` when `path` names
    /// a directory without its trailing slash. `name` is the requested file name, for the media type.
    private func locate(_ path: StaticFilePath) -> (path: String, name: String, redirect: Bool)? {
        guard let root else { return nil }
        guard let target = contained(path.segments.reduce(root) { $0 + "/" + $1 }),
            let metadata = StaticFileSystem.metadata(target)
        else { return nil }
        switch metadata.kind {
        case .regular where !path.isDirectory:
            return (target, path.segments.last ?? indexFile, false)
        case .directory:
            guard let index = contained(target + "/" + indexFile),
                StaticFileSystem.metadata(index)?.kind == .regular
            else { return nil }
            return (index, indexFile, !path.isDirectory)
        default:
            return nil
        }
    }

    /// `path` with symlinks resolved, when that stays inside the root.
    private func contained(_ path: String) -> String? {
        guard let root, let resolved = StaticFileSystem.realPath(path) else { return nil }
        if resolved == root || root == "/" || resolved.hasPrefix(root + "/") { return resolved }
        return nil
    }

    private func validators(for metadata: StaticFileSystem.Metadata) -> HTTPHeaders {
        [
            "ETag": Self.entityTag(for: metadata),
            "Last-Modified": StaticFileDate.format(metadata.modifiedSeconds),
            "Cache-Control": cacheControl,
        ]
    }

    static let notFound = HTTPProblem(status: .notFound, code: "notFound", detail: "No file matches this path.")
}
