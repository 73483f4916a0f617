import Testing
@testable import Emulation

struct RFC3339Tests {
    @Test func formatsWithMilliseconds() {
        #expect(RFC3339.format(VirtualInstant(milliseconds: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(.defaultStart) == "2026-01-01T00:00:00.000Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: 951_782_400_123)) == "2000-02-29T00:00:00.123Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: -1)) == "1969-12-31T23:59:59.999Z")
    }

    /// The digit-by-digit writer covers years 0–9999; the years outside keep their former spelling.
    @Test func formatsEveryYearAsBefore() {
        #expect(RFC3339.format(.latest) == "9000-01-01T00:00:00.000Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: 253_402_300_799_999)) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: 253_402_300_800_000)) == "10000-01-01T00:00:00.000Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: -62_167_219_200_000)) == "0000-01-01T00:00:00.000Z")
        #expect(RFC3339.format(VirtualInstant(milliseconds: -62_167_219_200_001)) == "00-1-12-31T23:59:59.999Z")
    }

    @Test func parsesOffsetsAndFractions() {
        #expect(RFC3339.parse("2026-01-01T00:00:00Z") == .defaultStart)
        #expect(RFC3339.parse("2026-01-01T01:00:00.5+01:00")?.milliseconds == VirtualInstant.defaultStart.milliseconds + 500)
        #expect(RFC3339.parse("2025-12-31T19:00:00-05:00") == .defaultStart)
        #expect(RFC3339.parse("2000-02-29T00:00:00.123456Z")?.milliseconds == 951_782_400_123)
    }

    @Test(arguments: ["", "2026-01-01", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00",
                      "2026-01-01T24:00:00Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00Zjunk"])
    func rejectsWhatIsNotADateTime(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func roundTripsOverAYear() {
        var ms: Int64 = 1_735_689_600_000
        for _ in 0..<400 {
            let instant = VirtualInstant(milliseconds: ms)
            #expect(RFC3339.parse(RFC3339.format(instant)) == instant)
            ms += 86_400_000 + 3_723_456
        }
    }
}
