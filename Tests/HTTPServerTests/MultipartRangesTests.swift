import HTTPServer
import Testing

/// `multipart/form-data` read in place: parts are ranges of the body, found in a large body.
@Suite struct MultipartRangesTests {
    @Test func partsAreRangesOfTheBodyNotCopies() throws {
        let big = [UInt8](repeating: 0x41, count: 3 << 20) + [13, 10, 45]  // CR LF '-' inside, not a delimiter
        var body = Array("preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"infoPlist\"; filename=\"a.ipa\"\r\n\r\n".utf8)
        let start = body.count
        body += big
        body += Array("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"xcconfig\"\r\n\r\nA = 1\r\n--XyZ--\r\n".utf8)
        let form = try body.withUnsafeBytes {
            try MultipartFormData(bytes: $0, contentType: "multipart/form-data; boundary=XyZ")
        }
        let plist = try #require(form.part("infoPlist"))
        #expect(plist.range == start..<(start + big.count) && plist.filename == "a.ipa")
        let xcconfig = try #require(form.part("xcconfig"))
        #expect(Array(body[xcconfig.range]) == Array("A = 1".utf8))
    }

    @Test func anUnterminatedBodyIsRefused() {
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nabc".utf8)
        #expect(throws: MultipartFormData.ParseError.unterminated) {
            try MultipartFormData(body: body, contentType: "multipart/form-data; boundary=b")
        }
    }
}
