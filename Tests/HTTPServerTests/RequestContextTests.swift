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

    @Test func addedMetadataReachesTheLoggerAndALaterValueReplacesAnEarlierOne() {
        var context = HTTPRequestContext(requestId: "abc-1", logger: Logger(label: "test"))
        let outer = context  // a middleware's copy, made before the handler inside adds anything
        #expect(context.logger[metadataKey: "tenant"] == nil)
        context.addLogMetadata("tenant", "ten_1")
        #expect(outer.logger[metadataKey: "tenant"] == .string("ten_1"))
        context.addLogMetadata("device", "dev_1")
        #expect(context.logger[metadataKey: "tenant"] == .string("ten_1"))
        #expect(context.logger[metadataKey: "device"] == .string("dev_1"))
        context.addLogMetadata("tenant", "ten_2")
        #expect(context.logger[metadataKey: "tenant"] == .string("ten_2"))
        // A logger set later keeps them too, and the request id.
        context.logger = Logger(label: "other")
        #expect(context.logger[metadataKey: "tenant"] == .string("ten_2"))
        #expect(context.logger[metadataKey: "request-id"] == .string("abc-1"))
    }
}
