import Service
import Testing

/// `KeyHasher`: SHA-256 as FIPS 180-4's examples give it, and equality that does not stop at the first difference.
@Suite struct KeyHasherTests {
    @Test func theDigestsAreThoseOfTheStandardsExamples() {
        #expect(KeyHasher.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(KeyHasher.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(KeyHasher.sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // A million 'a's: many blocks.
        #expect(KeyHasher.sha256Hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // A string and its UTF-8 bytes hash alike, non-ASCII included.
        #expect(KeyHasher.sha256Hex("clé-🔑") == KeyHasher.sha256Hex(Array("clé-🔑".utf8)))
    }

    /// A large body is hashed in pieces on the heavy-work pool, which yields between them: the same digest.
    @Test func theDigestInPiecesIsTheDigestAtOnce() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var pauses = 0
        let pieces = million.withUnsafeBytes { KeyHasher.sha256Hex($0, pieceSize: 65_536, between: { pauses += 1 }) }
        #expect(pieces == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(pauses == 15)  // between 16 pieces, not after the last
        for (count, piece) in [(0, 7), (1, 1), (64, 64), (65, 64), (1000, 999)] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            #expect(bytes.withUnsafeBytes { KeyHasher.sha256Hex($0, pieceSize: piece, between: {}) } == KeyHasher.sha256Hex(bytes))
        }
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(KeyHasher.constantTimeEquals("abc", "abc"))
        #expect(!KeyHasher.constantTimeEquals("abc", "abd"))
        #expect(!KeyHasher.constantTimeEquals("abc", "abcd"))
        #expect(KeyHasher.constantTimeEquals("", ""))
    }
}
