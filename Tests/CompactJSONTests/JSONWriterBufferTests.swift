import CompactJSON
import Foundation
import Testing

/// `JSONWriter` writes into an array kept at its capacity, each piece after one check of the room left, and finds
/// whether a comma is due from the last byte written: the bytes must be Foundation's wherever a piece lands
/// (across the capacity's end, from an empty writer, after `raw`), and `bytes`, `finish()` and a copy of a writer
/// must each see exactly what was written.
@Suite struct JSONWriterBufferTests {
    static func foundation<T: Encodable>(_ value: T, escapesSlashes: Bool) throws -> String {
        String(decoding: try DifferentialTests.foundation(value, escapesSlashes: escapesSlashes), as: UTF8.self)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Strings with escapes (of two bytes, and `\u00XX`'s six) at every place, written after a prefix of every
    /// length into writers of every small capacity, so that an escape, a run and a closing quote each fall across
    /// the end of the capacity somewhere; and the writer's `bytes` and `finish()` agree.
    @Test func stringsAcrossTheCapacityAreWrittenAsFoundationWritesThem() throws {
        let pieces = ["a", "\"", "\\", "/", "\u{1}", "\u{1F}", "\n", "é", "🙂"]
        var strings = [""]
        for length in 1...12 {
            for (index, escape) in pieces.enumerated() {
                var text = String(repeating: "x", count: length)
                text.insert(contentsOf: escape, at: text.index(text.startIndex, offsetBy: (index * 5) % (length + 1)))
                strings.append(text)
            }
        }
        for escapes in [false, true] {
            let options = CompactJSONEncoder(escapesSlashes: escapes).options
            for capacity in [0, 1, 2, 3, 5, 8, 13, 21] {
                for prefix in 0..<6 {
                    let head = String(repeating: "p", count: prefix)
                    for text in strings {
                        var writer = JSONWriter(options: options, capacity: capacity)
                        writer.array([head, text]) { w, element in w.string(element) }
                        let expected = try Self.foundation([head, text], escapesSlashes: escapes)
                        #expect(Self.text(writer.bytes) == expected, "capacity \(capacity), \(head.debugDescription), \(text.debugDescription)")
                        #expect(Self.text(writer.bytes) == expected)  // a second read: the same bytes
                        #expect(Self.text(writer.finish()) == expected)
                        #expect(writer.bytes.isEmpty)
                    }
                }
            }
        }
    }

    /// The search for a byte to escape goes eight bytes at a time, the last eight overlapping: a string of every
    /// length up to 40, with one byte to escape (or two, or one that only looks near one: `!`, `#`, `]`, `0x7F`,
    /// non-ASCII) at every place, is written as Foundation writes it.
    @Test func anEscapeAtEveryPlaceOfEveryLengthIsFound() throws {
        let pieces: [Character] = ["\"", "\\", "/", "\u{0}", "\u{1F}", " ", "!", "#", "]", "[", "\u{7F}", "é", "\u{20AC}"]
        for escapes in [false, true] {
            let encoder = CompactJSONEncoder(escapesSlashes: escapes)
            for length in 0...40 {
                let plain = String(repeating: "k", count: length)
                var strings = [plain]
                for position in 0...length {
                    for piece in pieces {
                        var text = plain
                        text.insert(piece, at: text.index(text.startIndex, offsetBy: position))
                        strings.append(text)
                        text.insert("\n", at: text.startIndex)
                        strings.append(text)
                    }
                }
                let written = try encoder.encode(strings)
                #expect(Self.text(written) == (try Self.foundation(strings, escapesSlashes: escapes)), "length \(length)")
            }
        }
    }

    /// A string far longer than the default capacity, with every kind of escape throughout, in one piece.
    @Test func aHugeStringWithEscapesIsWrittenInFull() throws {
        var text = ""
        var random = SeededRandom(seed: 0xB16)
        let alphabet = Array("abcdefgh/\"\\\u{0}\u{7}\n\t\u{1F}é漢🙂 ")
        for _ in 0..<300_000 { text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)]) }
        for escapes in [false, true] {
            let written = try CompactJSONEncoder(escapesSlashes: escapes).encode(["text": text, "after": "x"])
            #expect(Self.text(written) == (try Self.foundation(["text": text, "after": "x"], escapesSlashes: escapes)))
        }
    }

    struct Shapes: Encodable {
        var a: [String: Int] = [:]
        var b: [Int] = []
        var c: [[Int]] = [[], [], [1]]
        var d: [[String: [Int]]] = [[:], ["": []], [:]]
        var e: String = ""
        var f: Int = 0
    }

    /// The comma after an empty object or array, before the first member of an object or element of an array, and
    /// after a key that is empty.
    @Test func commasAfterEmptyContainersAreWrittenAsFoundationWritesThem() throws {
        let options = CompactJSONEncoder().options
        for capacity in [0, 1, 4, 1024] {
            var writer = JSONWriter(options: options, capacity: capacity)
            writer.object { w in
                w.key("a")
                w.object(sorting: [String: Int]()) { w, value in w.int(value) }
                w.key("b")
                w.array([Int]()) { w, value in w.int(value) }
                w.key("c")
                w.array([[], [], [1]] as [[Int]]) { w, values in w.array(values) { w, value in w.int(value) } }
                w.key("d")
                w.array([[:], ["": []], [:]] as [[String: [Int]]]) { w, object in
                    w.object(sorting: object) { w, values in w.array(values) { w, value in w.int(value) } }
                }
                w.key("e")
                w.string("")
                w.key("f")
                w.int(0)
            }
            #expect(Self.text(writer.finish()) == (try Self.foundation(Shapes(), escapesSlashes: false)))
        }
        var empty = JSONWriter(options: options, capacity: 0)
        empty.object { w in
            w.key("")
            w.array([Int]()) { w, value in w.int(value) }
        }
        #expect(Self.text(empty.bytes) == (try Self.foundation(["": [Int]()], escapesSlashes: false)))
    }

    struct AfterRaw: Encodable {
        var a = ["x": [1]]
        var b: [Int] = []
        var c = "s"
        var d = 2.5
    }

    /// A key after JSON written by `raw` gets its comma as after any value; JSON of no bytes writes nothing.
    @Test func keysAfterRawJSONGetTheirComma() throws {
        for capacity in [0, 3, 1024] {
            var writer = JSONWriter(options: CompactJSONEncoder().options, capacity: capacity)
            writer.object { w in
                w.raw([])
                w.key("a")
                w.raw(Array(#"{"x":[1]}"#.utf8))
                w.key("b")
                w.raw(Array("[]".utf8))
                w.key("c")
                w.raw(Array(#""s""#.utf8))
                w.raw([])
                w.key("d")
                w.raw(Array("2.5".utf8))
            }
            #expect(Self.text(writer.finish()) == (try Self.foundation(AfterRaw(), escapesSlashes: false)))
        }
        // `raw` ending in an opening: the next key is its first member, as after `object`'s own `{`.
        var writer = JSONWriter(options: CompactJSONEncoder().options, capacity: 1)
        writer.raw(Array("{".utf8))
        writer.key("a")
        writer.int(1)
        writer.raw(Array("}".utf8))
        #expect(Self.text(writer.bytes) == #"{"a":1}"#)
    }

    /// A copy of a writer is a value: what either writes next is its own.
    @Test func aCopyOfAWriterKeepsItsOwnBytes() {
        var writer = JSONWriter(options: CompactJSONEncoder().options, capacity: 2)
        writer.raw(Array("[1".utf8))
        var copy = writer
        copy.raw(Array(",2]".utf8))
        writer.raw(Array(",3,4]".utf8))
        #expect(Self.text(copy.finish()) == "[1,2]")
        #expect(Self.text(writer.bytes) == "[1,3,4]")
        #expect(Self.text(writer.finish()) == "[1,3,4]")
    }

    /// Every number of digits, at both of its edges, and the numbers that end in `.0`.
    @Test func numbersOfEveryLengthAreWrittenInFull() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 10
        for _ in 1...19 {
            values += [power - 1, power, power + 1]
            if power > UInt64.max / 10 { break }
            power *= 10
        }
        for value in values {
            for capacity in [0, 7, 1024] {
                var writer = JSONWriter(options: CompactJSONEncoder().options, capacity: capacity)
                writer.uint(value)
                #expect(Self.text(writer.finish()) == String(value))
                if value <= UInt64(Int64.max) {
                    var negative = JSONWriter(options: CompactJSONEncoder().options, capacity: capacity)
                    negative.int(-Int64(value))
                    #expect(Self.text(negative.finish()) == (value == 0 ? "0" : "-\(value)"))
                }
            }
        }
        for value in [1.0, -1.0, 10.0, 100.0, 1e15, 0.5, -0.0, 1e16, 0.0] {
            var writer = JSONWriter(options: CompactJSONEncoder().options, capacity: 0)
            try? writer.double(value)
            let expected = value.description.hasSuffix(".0") ? String(value.description.dropLast(2)) : value.description
            #expect(Self.text(writer.finish()) == expected)
        }
    }
}
