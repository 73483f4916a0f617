import BGEmuClient
import Testing

/// One JSON model for every client, with numbers kept exact: a 64-bit seed read and written again is the same seed.
@Suite struct JSONValueTests {
    @Test func integersPastTwoToTheFiftyThreeStayExact() throws {
        let text = #"{"a":-3,"big":9007199254740993,"max":18446744073709551615,"x":0.1}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value.text == text)
        #expect(value["max"]?.exactNumber?.uint64Value == UInt64.max)
        #expect(value["big"]?.exactNumber?.int64Value == 9_007_199_254_740_993)
        #expect(value["a"]?.intValue == -3)
        #expect(value["x"]?.numberValue == 0.1)
        #expect(JSONValue.integer(UInt64.max).text == "18446744073709551615")
    }

    @Test func oneAndOnePointZeroAreOneNumber() {
        #expect(JSONNumber(1) == JSONNumber(1.0))
        #expect(JSONNumber(UInt64(5)) == JSONNumber(5))
        #expect(JSONNumber(1.5).description == "1.5")
        #expect(JSONNumber(3600.0).description == "3600")
    }

    @Test func literalsBuildBodies() {
        let body: JSONValue = ["name": "CI", "on": true, "n": 2, "list": ["a"], "none": nil]
        #expect(body.text == #"{"list":["a"],"n":2,"name":"CI","none":null,"on":true}"#)
    }
}
