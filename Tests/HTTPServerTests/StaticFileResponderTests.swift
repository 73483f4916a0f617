import Foundation
@testable import HTTPServer
import Testing

/// A temporary folder tree: `public/` is the static root, `outside/` holds a secret next to it.
final class StaticFileFixture {
    let base: URL
    var root: String { base.appendingPathComponent("public").path }
    /// The modification time given to every file: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static let modified = Date(timeIntervalSince1970: 784_111_777)

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-static-\(UUID().uuidString)")
        let files: [String: String] = [
            "public/index.html": "<h1>home</h1>",
            "public/app.js": "console.log(1)",
            "public/style.css": "body{}",
            "public/data.json": "{}",
            "public/img/logo.PNG": "png",
            "public/docs/index.html": "<h1>docs</h1>",
            "public/docs/guide.txt": "read me",
            "public/noext": "raw",
            "public/.secret": "dotfile",
            "outside/secret.txt": "TOP SECRET",
            "outside/index.html": "outside index",
        ]
        for (path, text) in files {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Self.modified], ofItemAtPath: url.path)
        }
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent("public/emptydir"), withIntermediateDirectories: true)
        try link("public/escape.txt", to: base.appendingPathComponent("outside/secret.txt").path)
        try link("public/escapedir", to: base.appendingPathComponent("outside").path)
        try link("public/relative-escape.txt", to: "../outside/secret.txt")
        try link("public/alias.css", to: "style.css")
        try link("root-link", to: "public")
    }

    private func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: base.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    deinit { try? FileManager.default.removeItem(at: base) }
}

@Suite("Static file responder")
final class StaticFileResponderTests {
    typealias T = RouterTestSupport
    let fixture: StaticFileFixture
    let responder: StaticFileResponder

    init() throws {
        fixture = try StaticFileFixture()
        responder = StaticFileResponder(root: fixture.root)
    }

    @Test func servesFilesWithTheirMediaTypes() throws {
        let expected: [(String, String, String)] = [
            ("/index.html", "text/html; charset=utf-8", "<h1>home</h1>"),
            ("/app.js", "text/javascript; charset=utf-8", "console.log(1)"),
            ("/style.css", "text/css; charset=utf-8", "body{}"),
            ("/data.json", "application/json", "{}"),
            ("/img/logo.PNG", "image/png", "png"),
            ("/docs/guide.txt?v=2", "text/plain; charset=utf-8", "read me"),
            ("/noext", "application/octet-stream", "raw"),
            ("/alias.css", "text/css; charset=utf-8", "body{}"),
            ("/d%6Fcs/guide.txt", "text/plain; charset=utf-8", "read me"),
        ]
        for (target, type, body) in expected {
            let response = try T.send(responder, .get, target)
            #expect(response.status == .ok, "\(target)")
            #expect(response.headers["Content-Type"] == type, "\(target)")
            #expect(T.text(response) == body, "\(target)")
            #expect(response.headers["Cache-Control"] == "no-cache")
        }
    }

    @Test func directoriesServeTheirIndex() throws {
        #expect(T.text(try T.send(responder, .get, "/")) == "<h1>home</h1>")
        #expect(try T.send(responder, .get, "/").headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(T.text(try T.send(responder, .get, "/docs/")) == "<h1>docs</h1>")

        let redirect = try T.send(responder, .get, "/docs?x=1")
        #expect(redirect.status.code == 301)
        #expect(redirect.headers["Location"] == "/docs/?x=1")

        for target in ["/emptydir", "/emptydir/", "/index.html/", "/docs/guide.txt/"] {
            let problem = #expect(throws: HTTPProblem.self, "\(target)") { try T.send(self.responder, .get, target) }
            #expect(problem?.status == .notFound)
        }
    }

    @Test(arguments: [
        "/../etc/passwd", "/..", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/outside/secret.txt",
        "/docs/../../outside/secret.txt", "/docs/..%2F..%2Foutside%2Fsecret.txt", "/docs/%2e%2e%2findex.html",
        "/./index.html", "/index.html%00.png", "/index.html%00", "/..%5Coutside%5Csecret.txt", "/..\\outside",
        "/escape.txt", "/escapedir/secret.txt", "/escapedir/", "/escapedir", "/relative-escape.txt",
        "/.secret", "/%2esecret", "//etc/passwd", "/docs//guide.txt", "/%zz", "/%C3", "/missing.html", "",
        "relative/index.html", "/etc/passwd",
    ])
    func unsafeOrMissingPathsAreTheSame404(target: String) throws {
        let problem = #expect(throws: HTTPProblem.self) { try T.send(self.responder, .get, target) }
        #expect(problem == StaticFileResponder.notFound)
        #expect(problem?.detail == "No file matches this path.")
    }

    @Test func theRootMayItselfBeASymlink() throws {
        let linked = StaticFileResponder(root: fixture.base.appendingPathComponent("root-link").path)
        #expect(T.text(try T.send(linked, .get, "/docs/guide.txt")) == "read me")
        #expect(throws: HTTPProblem.self) { try T.send(linked, .get, "/escape.txt") }
    }

    @Test func aMissingRootAnswers404() throws {
        let missing = StaticFileResponder(root: fixture.base.appendingPathComponent("nope").path)
        let problem = #expect(throws: HTTPProblem.self) { try T.send(missing, .get, "/") }
        #expect(problem?.status == .notFound)
    }

    @Test func validatorsAndNotModified() throws {
        let first = try T.send(responder, .get, "/app.js")
        let etag = try #require(first.headers["ETag"])
        #expect(etag.hasPrefix("W/\""))
        #expect(first.headers["Last-Modified"] == "Sun, 06 Nov 1994 08:49:37 GMT")

        for value in [etag, "\"nope\", \(etag)", "*", String(etag.dropFirst(2))] {
            let again = try T.send(responder, .get, "/app.js", headers: ["If-None-Match": value])
            #expect(again.status == .notModified, "\(value)")
            #expect(T.text(again) == "")
            #expect(again.headers["ETag"] == etag)
            #expect(again.headers["Cache-Control"] == "no-cache")
            #expect(again.headers["Content-Type"] == nil)
        }
        let changed = try T.send(responder, .get, "/app.js", headers: ["If-None-Match": "W/\"other\""])
        #expect(changed.status == .ok)
        #expect(T.text(changed) == "console.log(1)")

        // A differently sized file has a different tag.
        #expect(try T.send(responder, .get, "/style.css").headers["ETag"] != etag)
    }

    @Test func ifModifiedSinceIsUsedOnlyWithoutIfNoneMatch() throws {
        let cases: [(HTTPHeaders, HTTPStatus)] = [
            (["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"], .notModified),
            (["If-Modified-Since": "Mon, 07 Nov 1994 00:00:00 GMT"], .notModified),
            (["If-Modified-Since": "Sun, 06 Nov 1994 08:49:36 GMT"], .ok),
            (["If-Modified-Since": "yesterday"], .ok),
            (["If-Modified-Since": "Mon, 07 Nov 1994 00:00:00 GMT", "If-None-Match": "\"other\""], .ok),
        ]
        for (headers, status) in cases {
            #expect(try T.send(responder, .get, "/app.js", headers: headers).status == status, "\(headers.fields)")
        }
    }

    @Test func headAnswersLikeGet() throws {
        let get = try T.send(responder, .get, "/docs/guide.txt")
        let head = try T.send(responder, .head, "/docs/guide.txt")
        #expect(head.status == .ok)
        #expect(head.headers.fields.map(\.name) == get.headers.fields.map(\.name))
        #expect(head.headers["ETag"] == get.headers["ETag"])
        #expect(head.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(try T.send(responder, .head, "/").status == .ok)
    }

    @Test func otherMethodsOnExistingFilesAre405() throws {
        for (method, target) in [(HTTPMethod.post, "/app.js"), (.delete, "/"), (.put, "/docs/"), (.options, "/app.js")] {
            let problem = #expect(throws: HTTPProblem.self) { try T.send(self.responder, method, target) }
            #expect(problem?.status == .methodNotAllowed)
            #expect(problem?.headers["Allow"] == "GET, HEAD")
        }
        let missing = #expect(throws: HTTPProblem.self) { try T.send(self.responder, .post, "/missing.js") }
        #expect(missing?.status == .notFound)
    }

    @Test func worksAsTheRoutersFallback() throws {
        var router = Router()
        router.get("/v1/health") { _, _ in .text("ok") }
        router.fallback = responder
        let routed = router.buildResponder()
        #expect(T.text(try T.send(routed, .get, "/")) == "<h1>home</h1>")
        #expect(T.text(try T.send(routed, .get, "/v1/health")) == "ok")
        #expect(throws: HTTPProblem.self) { try T.send(routed, .get, "/v1/nothing") }
    }
}
