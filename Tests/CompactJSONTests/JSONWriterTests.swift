import CompactJSON
import Foundation
import Testing

/// `JSONWriter` writes what Foundation's JSONEncoder writes with `.sortedKeys`, and the encoder hands a
/// ``JSONWritable`` value to it: a tree written by hand gives the bytes the same tree gives through `Encodable`.
@Suite struct JSONWriterTests {
    /// A tree whose JSON is written by hand; its `Encodable` is the tree's.
    struct WrittenTree: JSONWritable {
        let tree: Tree

        func encode(to encoder: any Encoder) throws { try tree.encode(to: encoder) }

        func write(to writer: inout JSONWriter) throws { try Self.write(tree, to: &writer) }

        static func write(_ tree: Tree, to writer: inout JSONWriter) throws {
            switch tree {
            case .null: writer.null()
            case .bool(let value): writer.bool(value)
            case .int(let value): writer.int(value)
            case .double(let value): try writer.double(value)
            case .string(let value): writer.string(value)
            case .array(let values): try writer.array(values) { w, value in try write(value, to: &w) }
            case .object(let members): try writer.object(sorting: members) { w, value in try write(value, to: &w) }
            }
        }
    }

    @Test func randomTreesWrittenByHandAreWhatFoundationWrites() throws {
        var random = SeededRandom(seed: 0xC0FFEE)
        for _ in 0..<2_000 {
            let tree = Tree.random(&random, depth: 0)
            for escapes in [false, true] {
                let written = try CompactJSONEncoder(escapesSlashes: escapes).encode(WrittenTree(tree: tree))
                let expected = try DifferentialTests.foundation(tree, escapesSlashes: escapes)
                #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
        }
    }

    @Test func integersAtTheirLimitsAreWrittenInFull() throws {
        for value in [Int64.min, Int64.min + 1, -10, -9, -1, 0, 9, 10, 99, 100, Int64.max] {
            var writer = JSONWriter(options: CompactJSONEncoder().options)
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        var writer = JSONWriter(options: CompactJSONEncoder().options)
        writer.uint(UInt64.max)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "18446744073709551615")
    }

    @Test func aNonFiniteNumberThrowsAsTheEncoderThrows() throws {
        var writer = JSONWriter(options: CompactJSONEncoder().options)
        #expect(throws: EncodingError.self) { try writer.double(.infinity) }
        #expect(throws: EncodingError.self) { try writer.double(.nan) }
    }

    /// A date is written as the options say: their text, or `Date.encode(to:)`'s number.
    @Test func datesAreWrittenAsTheEncoderWritesThem() throws {
        let date = Date(timeIntervalSince1970: 1_767_225_600.125)
        struct Stamp: JSONWritable {
            let at: Date
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(at, forKey: .at)
            }
            enum Key: CodingKey { case at }
            func write(to writer: inout JSONWriter) throws {
                try writer.object { w in
                    w.key("at")
                    try w.date(at)
                }
            }
        }
        for encoder in [CompactJSONEncoder(), CompactJSONEncoder(dateText: { "t\($0.timeIntervalSince1970)" })] {
            let written = try encoder.encode(Stamp(at: date))
            let viaEncodable = try encoder.encode(["x": Stamp(at: date)])  // nested: through `Encodable`
            #expect(String(decoding: viaEncodable, as: UTF8.self) == #"{"x":"# + String(decoding: written, as: UTF8.self) + "}")
        }
    }
}
