import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

/// Writes that share a transaction (a group commit) are each durable once answered: a `kill -9` amid a flood of
/// them loses none of the writes answered before it.
@Suite struct GroupCommitEndToEndTests {
    @Test func aKill9AmidGroupedWritesLosesNoAnsweredWrite() throws {
        let key = "grouped-writes-key-0123456789"
        let service = try LiveService()
        try service.start(apiKey: key, extraArguments: ["--rate-limit", "0", "--max-devices-per-tenant", "1000000"])
        let port = service.port
        // 16 clients creating devices at once: the commits carry several writes each, and the kill lands among
        // batches being gathered, committed and answered.
        let answered = Mutex<[String]>([])
        let refused = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<16 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let client = TestClient(port: port, key: key)
                while true {
                    guard let response = try? client.request("POST", "/v1/devices", json: #"{"name":"grouped"}"#) else {
                        return  // the service is gone: this write was never answered
                    }
                    guard response.status == 201, let id = response.json["id"] as? String else {
                        refused.withLock { $0.append("\(response.status) \(response.text)") }
                        return
                    }
                    answered.withLock { $0.append(id) }
                }
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while answered.withLock({ $0.count }) < 400, Date() < deadline { usleep(5_000) }
        #expect(service.stop(signal: SIGKILL) == SIGKILL)
        group.wait()
        #expect(refused.withLock { $0 } == [])
        let ids = answered.withLock { $0 }
        #expect(ids.count >= 400)

        try service.start(apiKey: key)
        defer { service.stop() }
        let client = service.client(key: key)
        let lost = try ids.filter { try client.request("GET", "/v1/devices/\($0)").status != 200 }
        #expect(lost == [], "\(lost.count) of \(ids.count) answered creations lost")
    }
}
