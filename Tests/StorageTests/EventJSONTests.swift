import Emulation
import Foundation
import Testing
@testable import Storage

@Suite struct EventJSONTests {
    /// Values the Foundation coders would not bring back as they were.
    static let awkward: [String: EventValue] = [
        "null": .null, "yes": true, "no": false,
        "int": 42, "negative": -7, "max": .int(Int64.max), "min": .int(Int64.min),
        "integralDouble": 30.0, "negativeZero": .double(-0.0), "tiny": 1e-7, "huge": 1.5e300, "fraction": 0.1,
        "subnormal": .double(.leastNonzeroMagnitude), "third": .double(1.0 / 3.0),
        "text": "quote \" backslash \\ slash / tab \t newline \n return \r bell \u{07} nul \u{00}",
        "unicode": "é 漢字 👩‍👩‍👧 \u{2028}",
        "": "empty key",
        "nested": ["list": [1, 2.0, "three", .null, [], [:], ["deep": [true]]], "object": ["a": ["b": ["c": 1]]]],
    ]

    @Test func everyValueReadsBackExactly() throws {
        let text = try EventJSON.encode(Self.awkward)
        #expect(try EventJSON.decode(text) == Self.awkward)
        // A double stays a double and an integer an integer, even when they are equal numbers.
        let decoded = try EventJSON.decode(try EventJSON.encode(["d": 2.0, "i": 2]))
        #expect(decoded["d"] == .double(2) && decoded["i"] == .int(2))
    }

    @Test func textIsValidJSONWithSortedKeys() throws {
        let text = try EventJSON.encode(Self.awkward)
        // Foundation reads it as JSON, with the same strings and numbers.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == Self.awkward["text"]?.stringValue)
        #expect(parsed["unicode"] as? String == Self.awkward["unicode"]?.stringValue)
        #expect((parsed["huge"] as? NSNumber)?.doubleValue == 1.5e300)
        #expect(try EventJSON.encode(["b": 1, "a": ["d": 2, "c": 3], "B": .null])
            == #"{"B":null,"a":{"c":3,"d":2},"b":1}"#)
        #expect(try EventJSON.encode(["x": 30.0, "y": "a/b", "z": "\u{01}"]) == #"{"x":30.0,"y":"a/b","z":"\u0001"}"#)
        #expect(try EventJSON.encode([:]) == "{}")
    }

    /// Keys sort by all their UTF-8 bytes, not only by the first eight the sort compares first: keys that share
    /// those, a key that is a prefix of another (also with a NUL after it), non-ASCII keys, many keys.
    @Test func keysSortByEveryByte() throws {
        let keys = [
            "identifier", "identifiers", "identifie", "identifiea", "identifiez", "idenTifier", "id", "i", "",
            "runId", "run", "runIdentifier", "runId\u{00}", "runId\u{00}x", "é", "z", "Z", "漢字", "👩‍👩‍👧",
            "aaaaaaaa", "aaaaaaaab", "aaaaaaaaa", "aaaaaaa", "a\u{00}b", "a", "a\u{00}",
        ]
        var data: [String: EventValue] = [:]
        for (index, key) in keys.enumerated() { data[key] = .int(Int64(index)) }
        let sorted = keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let members = sorted.map { key in
            "\"" + key.replacingOccurrences(of: "\u{00}", with: "\\u0000") + "\":" + String(keys.firstIndex(of: key)!)
        }
        #expect(try EventJSON.encode(data) == "{" + members.joined(separator: ",") + "}")
    }

    @Test func foreignSpellingsAreRead() throws {
        let text = #" { "a" : [ 1 , -0 , 1E2 , 2e-1 , 12345678901234567890 ] , "s" : "\u00e9\ud83d\ude00\/\b\f" } "#
        let decoded = try EventJSON.decode(text)
        #expect(decoded["a"] == [1, 0, 100.0, 0.2, .double(12345678901234567890.0)])
        #expect(decoded["s"] == "é😀/\u{08}\u{0C}")
        #expect(try EventJSON.decode(#"{"lone":"\ud800x"}"#)["lone"] == "\u{FFFD}x")
    }

    @Test func nonFiniteNumbersAreRefused() {
        #expect(throws: EventJSON.Failure.self) { try EventJSON.encode(["nan": .double(.nan)]) }
        #expect(throws: EventJSON.Failure.self) { try EventJSON.encode(["deep": [["inf": .double(.infinity)]]]) }
    }

    @Test(arguments: [
        "", "[]", "1", "{", "{}x", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":01}"#, #"{"a":-01}"#, #"{"a":-}"#,
        #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#, #"{"a":"\u+123"}"#,
        "{\"a\":\"\u{01}\"}", #"{"a":"open}"#, #"{a:1}"#, #"{"a":1e999}"#,
    ])
    func malformedTextIsRefused(_ text: String) {
        #expect(throws: EventJSON.Failure.self) { try EventJSON.decode(text) }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: EventJSON.Failure.self) { try EventJSON.decode(#"{"a":\#(deep)}"#) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try EventJSON.decode(#"{"a":\#(fine)}"#)["a"] != nil)
    }
}
