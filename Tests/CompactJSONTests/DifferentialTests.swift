import CompactJSON
import Foundation
import Testing

/// The encoder must write what Foundation's JSONEncoder writes with `.sortedKeys`, byte for byte: stored documents
/// and replayed answers compare bytes, so any difference would show.
@Suite struct DifferentialTests {
    static func foundation<T: Encodable>(_ value: T, escapesSlashes: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for escapes in [false, true] {
            let ours = try CompactJSONEncoder(escapesSlashes: escapes).encode(value)
            let theirs = try foundation(value, escapesSlashes: escapes)
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self),
                    sourceLocation: sourceLocation)
        }
    }

    @Test func randomTreesEncodeAsFoundationDoes() throws {
        var random = SeededRandom(seed: 0x5EED)
        for _ in 0..<2_000 {
            try Self.expectSame(Tree.random(&random, depth: 0))
        }
    }

    @Test func everyControlCharacterAndEscapeIsWrittenAsFoundationWritesIt() throws {
        var all = ""
        for scalar in (0...0x7F).compactMap(Unicode.Scalar.init) { all.unicodeScalars.append(scalar) }
        all += "\u{2028}\u{2029}é漢字🙂\u{FEFF}/\\\""
        try Self.expectSame(all)
        try Self.expectSame([all: all])
    }

    @Test func keysSortByTheirUTF8BytesAsFoundationSortsThem() throws {
        let keys = ["b", "a", "B", "A", "a10", "a2", "a1", "é", "e", "z", "_", "0", "ab", "aB", "", "😀", "ｚ",
                    "identifier", "identifier1", "identifier10", "identifierA", "identifie", "identifier\u{0}", "identifiér"]
        try Self.expectSame(Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
    }

    @Test func numbersAtTheirEdgesAreWrittenAsFoundationWritesThem() throws {
        let doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 1e16, 1e-7, 123456789.125, .leastNonzeroMagnitude,
                                 .greatestFiniteMagnitude, -.leastNormalMagnitude, 3.0e21, 1e15, 2.5e-5]
        try Self.expectSame(doubles)
        try Self.expectSame(doubles.map(Float.init).filter(\.isFinite))
        try Self.expectSame([Int64.min, Int64.max, 0, -1, 9, 10, 99, 100])
        try Self.expectSame([UInt64.max, 0])
        try Self.expectSame(Widths())
    }

    @Test func synthesizedOptionalsNestedContainersAndSuperEncodersMatch() throws {
        try Self.expectSame(Shapes(optional: nil, present: "x", explicitNull: nil, nested: [[1], [], [2, 3]]))
        try Self.expectSame(Shapes(optional: 4, present: "", explicitNull: "y", nested: []))
        try Self.expectSame(Subclass())
        try Self.expectSame(Empty())
        try Self.expectSame([Empty(), Empty()])
        try Self.expectSame(TwiceKeyed())
    }

    @Test func foundationsSpecialScalarsAreWrittenAsFoundationWritesThem() throws {
        try Self.expectSame(Specials())
        try Self.expectSame([1: "one", -2: "minus two", 10: "ten"])
        try Self.expectSame("top-level string")
        try Self.expectSame(42)
        try Self.expectSame(Optional<Int>.none)
    }

    @Test func datesUseTheGivenTextLikeACustomStrategy() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let text: @Sendable (Date) -> String = { "t\($0.timeIntervalSince1970)" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(text(date))
        }
        let value = ["at": date]
        #expect(try CompactJSONEncoder(escapesSlashes: true, dateText: text).encode(value) == Array(encoder.encode(value)))
    }

    @Test func aNonFiniteNumberThrowsWithItsPath() throws {
        do {
            _ = try CompactJSONEncoder().encode(["outer": [1.0, .nan]])
            Issue.record("NaN was encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["outer", "Index 1"])
        }
    }
}
