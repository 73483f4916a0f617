import CompactJSON
import Foundation
import Testing

/// A fragment's bytes are written in place by the compact encoder, and its value is encoded by any other: both
/// give the same JSON as the value itself.
struct JSONFragmentTests {
    struct Inner: Codable, Equatable, Sendable {
        var b: Double
        var a: [Int]
        var c: String?
    }

    struct Outer: Encodable {
        var z: JSONFragment<Inner>
        var y: Int
    }

    @Test func aFragmentEncodesAsItsValueWithTheCompactEncoderAndWithFoundations() throws {
        let compact = CompactJSONEncoder()
        let inner = Inner(b: 0.5, a: [3, 1], c: "x/y")
        let fragment = try JSONFragment(inner, encoder: compact)
        #expect(fragment.bytes == Array(#"{"a":[3,1],"b":0.5,"c":"x/y"}"#.utf8))
        let viaFragment = try compact.encode(Outer(z: fragment, y: 2))
        #expect(String(decoding: viaFragment, as: UTF8.self) == #"{"y":2,"z":{"a":[3,1],"b":0.5,"c":"x/y"}}"#)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try foundation.encode(Outer(z: fragment, y: 2)) == Data(viaFragment))
    }

    @Test func anEncoderWithOtherOptionsEncodesTheValueNotTheBytes() throws {
        let fragment = try JSONFragment(Inner(b: 1, a: [], c: "a/b"), encoder: CompactJSONEncoder(escapesSlashes: true))
        #expect(String(decoding: fragment.bytes, as: UTF8.self) == #"{"a":[],"b":1,"c":"a\/b"}"#)
        let other = try CompactJSONEncoder(escapesSlashes: false).encode([fragment])
        #expect(String(decoding: other, as: UTF8.self) == #"[{"a":[],"b":1,"c":"a/b"}]"#)
        let same = try CompactJSONEncoder(escapesSlashes: true).encode([fragment])
        #expect(String(decoding: same, as: UTF8.self) == #"[{"a":[],"b":1,"c":"a\/b"}]"#)
    }
}
