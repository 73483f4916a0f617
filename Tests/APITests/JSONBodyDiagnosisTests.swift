import Foundation
import Testing
@testable import API
import HTTPServer

/// A body's faults said where they are (issue 29 §3).
@Suite struct JSONBodyDiagnosisTests {
    struct Body: Decodable {
        var name: String?
        var seed: UInt64?
        var seconds: Double?
    }

    func problem(_ text: String) -> HTTPProblem? {
        do {
            _ = try JSONBody.decode(Body.self, bytes: Array(text.utf8))
            return nil
        } catch let problem as HTTPProblem {
            return problem
        } catch {
            Issue.record("not a problem: \(error)")
            return nil
        }
    }

    @Test func invalidJSONNamesItsLineColumnAndByteOffset() {
        let broken = problem("{\"name\": \"a\",\n \"seed\": x}")
        #expect(broken?.status == .badRequest)
        #expect(broken?.detail == "The body is not valid JSON at line 2, column 10 (byte 23).", "\(String(describing: broken?.detail))")
        let cut = problem("{\"name\":")
        #expect(cut?.detail == "The body is not valid JSON at line 1, column 9 (byte 8): the body ends before its value does.")
    }

    @Test func aNumberNoIntegerHoldsIsBlamedOnItsOwnField() {
        let seed = problem(#"{"name":"a","seconds":1.5,"seed":18446744073709551616}"#)
        #expect(seed?.status == .unprocessableContent)
        #expect((seed?.errors ?? []).map(\.field) == ["seed"], "\(String(describing: seed?.detail))")
        let fraction = problem(#"{"seed":1.5}"#)
        #expect((fraction?.errors ?? []).map(\.field) == ["seed"])
    }
}
