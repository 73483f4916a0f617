import BGEmuClient
import Testing

/// One percent-encoder for every client: only RFC 3986's unreserved ASCII characters stay as they are.
@Suite struct PathEncodingTests {
    @Test func pathsAndQueriesArePercentEncoded() {
        #expect(PathEncoding.path("v1", "devices", "dev 1", "apps", "a/b") == "/v1/devices/dev%201/apps/a%2Fb")
        #expect(PathEncoding.query([("setting", "NAME=a b&c"), ("bundleId", "com.x")]) == "?setting=NAME%3Da%20b%26c&bundleId=com.x")
        #expect(PathEncoding.query([]) == "")
    }

    @Test func nonASCIILettersAreEncodedAsUTF8() {
        // BGEmuKit's encoder let letters such as `é` through (CharacterSet.alphanumerics is Unicode's).
        #expect(PathEncoding.encode("café") == "caf%C3%A9")
        #expect(PathEncoding.encode("ü-._~Z9") == "%C3%BC-._~Z9")
        #expect(PathEncoding.encode("日本") == "%E6%97%A5%E6%9C%AC")
        #expect(PathEncoding.encode("%") == "%25")
    }
}
