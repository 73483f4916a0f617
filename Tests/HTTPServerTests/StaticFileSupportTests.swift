@testable import HTTPServer
import Testing

@Suite("Static file media types, paths and dates")
struct StaticFileSupportTests {
    @Test func mediaTypesByExtension() {
        let expected: [String: String] = [
            "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
            "json": "application/json", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
            "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "ico": "image/vnd.microsoft.icon",
            "txt": "text/plain; charset=utf-8", "map": "application/json", "woff": "font/woff",
            "woff2": "font/woff2", "yaml": "application/yaml", "yml": "application/yaml",
            "xml": "application/xml", "wasm": "application/wasm", "exe": "application/octet-stream",
            "": "application/octet-stream", "HTML": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
        ]
        for (ext, type) in expected {
            #expect(MediaType.forExtension(ext) == type, "\(ext)")
        }
        #expect(MediaType.forFileName("app.min.js") == "text/javascript; charset=utf-8")
        #expect(MediaType.forFileName(".htaccess") == "application/octet-stream")
        #expect(MediaType.forFileName("Makefile") == "application/octet-stream")
    }

    @Test func pathsAreDecodedAndJudged() {
        #expect(StaticFilePath(requestPath: "/") == StaticFilePath(requestPath: "/"))
        #expect(StaticFilePath(requestPath: "/")?.segments == [])
        #expect(StaticFilePath(requestPath: "/")?.isDirectory == true)
        #expect(StaticFilePath(requestPath: "/a%20b/c.txt")?.segments == ["a b", "c.txt"])
        #expect(StaticFilePath(requestPath: "/a/b/")?.isDirectory == true)
        #expect(StaticFilePath(requestPath: "/a/b")?.isDirectory == false)
        for refused in ["", "a", "/..", "/a/../b", "/%2e%2e", "/a%2f..%2fb", "/.git/config", "/a//b", "/a%00",
            "/a\\b", "/a%5Cb", "/%ff", "/%"]
        {
            #expect(StaticFilePath(requestPath: refused) == nil, "\(refused)")
        }
    }

    @Test func httpDatesRoundTrip() {
        #expect(StaticFileDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(StaticFileDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(StaticFileDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(StaticFileDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(StaticFileDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        for seconds in stride(from: 0, to: 4_000_000_000, by: 86_399 * 37) {
            #expect(StaticFileDate.parse(StaticFileDate.format(seconds)) == seconds)
        }
        for invalid in ["", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, +6 Nov 1994 08:49:37 GMT"]
        {
            #expect(StaticFileDate.parse(invalid) == nil, "\(invalid)")
        }
    }
}
