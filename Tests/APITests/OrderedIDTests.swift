import Foundation
import Testing
@testable import Service

/// Device identifiers follow their creation time (`dev_` + 6 bytes of milliseconds + 6 random bytes, in hex), so
/// that the rows and index entries keyed by them are appended, not scattered.
@Suite struct OrderedIDTests {
    @Test func anIdentifierMadeInALaterMillisecondSortsAfterAndKeepsTheContractsForm() throws {
        let pattern = try Regex("^dev_[0-9a-f]{24}$")
        var previous = SecretGenerator.newOrderedID("dev", milliseconds: 1_764_000_000_000)
        for step in 1...500 {
            let id = SecretGenerator.newOrderedID("dev", milliseconds: 1_764_000_000_000 + Int64(step))
            #expect(id.wholeMatch(of: pattern) != nil)
            #expect(id > previous)
            previous = id
        }
    }

    @Test func theFirstSixBytesAreTheMillisecondsAndTheRestAreRandom() {
        let milliseconds: Int64 = 0x0123_4567_89AB
        let ids = (0..<1_000).map { _ in SecretGenerator.newOrderedID("dev", milliseconds: milliseconds) }
        #expect(ids.allSatisfy { $0.hasPrefix("dev_0123456789ab") })
        #expect(Set(ids).count == ids.count)
    }
}
