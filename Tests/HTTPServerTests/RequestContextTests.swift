import Logging
import Testing
@testable import HTTPServer

/// `HTTPRequestContext`'s logger: the request id is on it whenever it is used, and a level that is off is known
/// without making it.
@Suite struct RequestContextTests {
    @Test func theLoggerCarriesTheRequestIdAndALevelOffIsKnown() {
        var base = Logger(label: "test")
        base.logLevel = .warning
        var context = HTTPRequestContext(requestId: "abc-1", logger: base)
        #expect(context.logger[metadataKey: "request-id"] == .string("abc-1"))
        #expect(!context.logs(at: .info))
        #expect(context.logs(at: .warning) && context.logs(at: .error))
        context.requestId = "abc-2"
        var replaced = Logger(label: "other")
        replaced.logLevel = .debug
        context.logger = replaced
        #expect(context.logger[metadataKey: "request-id"] == .string("abc-2"))
        #expect(context.logs(at: .info))
    }
}
