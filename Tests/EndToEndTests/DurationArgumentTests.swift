@testable import bgemu
import Testing

/// `bgemu advance`'s durations: the units people type, combined, plain seconds, and clear refusals.
struct DurationArgumentTests {
    @Test(arguments: [
        ("90s", 90.0), ("15m", 900), ("24h", 86_400), ("7d", 604_800), ("1h30m", 5400), ("2d12h", 216_000),
        ("1d2h3m4s", 93_784), ("3600", 3600), ("0", 0), ("0.5", 0.5), ("1.5h", 5400), ("15M", 900), (" 15m ", 900),
    ])
    func parsesUnitsCombinationsAndPlainSeconds(text: String, seconds: Double) throws {
        #expect(try DurationArgument(parsing: text).seconds == seconds)
    }

    @Test(arguments: ["", "15x", "m", "1h30", "30m1h", "1h1h", "-5m", "1..5s", ".5s", "5.s", "1h 30m", "1e3", "15mm"])
    func refusesWhatIsNotADuration(text: String) {
        #expect(throws: DurationArgument.ParseError.self) { try DurationArgument(parsing: text) }
    }

    @Test func theErrorSaysWhatIsWrongAndWhatIsExpected() {
        func message(_ text: String) -> String? {
            do {
                _ = try DurationArgument(parsing: text)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(message("15x")?.contains("unknown unit \"x\"") == true)
        #expect(message("15x")?.contains("90s, 15m, 24h, 7d, 1h30m") == true)
        #expect(message("30m1h")?.contains("largest first") == true)
        #expect(message("1h30")?.contains("a number without a unit") == true)
        #expect(message("")?.contains("empty") == true)
    }

    @Test(arguments: [(900.0, "15m"), (5400, "1h30m"), (93_784, "1d2h3m4s"), (0, "0s"), (2.5, "2.5s"), (86_400, "1d")])
    func printsBackInTheLargestUnits(seconds: Double, text: String) {
        #expect(DurationArgument(seconds: seconds).text == text)
    }
}
