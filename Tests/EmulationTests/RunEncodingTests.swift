import Foundation
import Testing
@testable import Emulation

/// A run's JSON in the device's document: written by hand (`Run+Encoding.swift`), it must stay what the synthesized
/// `encode(to:)` wrote, since stored documents of earlier builds hold that form, and read back as the same run.
@Suite struct RunEncodingTests {
    private func sortedJSON(_ run: Run) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(run), as: UTF8.self)
    }

    /// An open run: no identifier, result or end, so those members are left out, as the synthesized encoder did.
    @Test func openRunLeavesOutWhatIsNil() throws {
        let run = Run(
            id: "run_7", kind: .fetch, reason: "opportunity", identifier: nil,
            startedAt: VirtualInstant(milliseconds: 1_767_225_600_000),
            deadline: VirtualInstant(milliseconds: 1_767_225_630_000), launchedApp: true)
        let json = try sortedJSON(run)
        #expect(json == #"{"deadline":1767225630000,"id":"run_7","kind":"fetch","launchedApp":true,"reason":"opportunity","requiresExternalPower":false,"startedAt":1767225600000,"state":"running"}"#)
        #expect(try JSONDecoder().decode(Run.self, from: Data(json.utf8)) == run)
    }

    /// A finished run with every member set: enums as their raw text, instants as milliseconds.
    @Test func finishedRunWritesEveryMember() throws {
        var run = Run(
            id: "run_241", kind: .appRefresh, reason: "predictedUsage", identifier: "com.example.a0/refresh",
            startedAt: VirtualInstant(milliseconds: 1_767_248_917_007),
            deadline: VirtualInstant(milliseconds: 1_767_248_947_007), launchedApp: false, requiresExternalPower: true)
        run.state = .expired
        run.result = .failure
        run.endedAt = VirtualInstant(milliseconds: 1_767_248_952_007)
        let json = try sortedJSON(run)
        #expect(json == #"{"deadline":1767248947007,"endedAt":1767248952007,"id":"run_241","identifier":"com.example.a0\/refresh","kind":"appRefresh","launchedApp":false,"reason":"predictedUsage","requiresExternalPower":true,"result":"failure","startedAt":1767248917007,"state":"expired"}"#)
        #expect(try JSONDecoder().decode(Run.self, from: Data(json.utf8)) == run)
    }
}
