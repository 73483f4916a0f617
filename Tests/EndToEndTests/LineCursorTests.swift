@testable import bgemu
import Testing

/// The access line's buffer (issue 29): pieces copied whole, numbers as `String(n)` writes them, and never a byte
/// past the buffer, whatever is put in it.
@Suite struct LineCursorTests {
    private func written(capacity: Int, _ write: (inout LineCursor) -> Void) -> String {
        LineCursor.withLine(capacity: capacity, write) { String(decoding: $0, as: UTF8.self) }
    }

    @Test func piecesAndNumbersAreWrittenAsStringsWriteThem() {
        let text = written(capacity: 200) { out in
            out.put("GET ")
            out.put(String(repeating: "é", count: 20))  // not ASCII, not a small string
            out.put(UInt8(ascii: " "))
            for number in [0, 7, 10, 1_234_567_890_123, -5, Int.max] {
                out.putDecimal(number)
                out.put(UInt8(ascii: ","))
            }
            out.put([UInt8(ascii: "o"), UInt8(ascii: "k")])
        }
        #expect(text == "GET " + String(repeating: "é", count: 20) + " 0,7,10,1234567890123,-5,\(Int.max),ok")
    }

    @Test func nothingIsWrittenPastTheBuffer() {
        #expect(written(capacity: 5) { $0.put("hello world") } == "hello")
        #expect(written(capacity: 5) { out in
            out.put("abc")
            out.putDecimal(123)  // does not fit: no digit is written, rather than a wrong number
            out.put(UInt8(ascii: "!"))
            out.put(UInt8(ascii: "?"))
            out.put(UInt8(ascii: "x"))  // full
        } == "abc!?")
    }
}
