import Dispatch
import Emulation
import Foundation
import Synchronization
import HTTPServer
import Testing
@testable import API
@testable import Service

/// Concurrency per device: commands on different devices (and tenants) do not wait for each other, one device's
/// commands run one at a time in the order they came, an idempotent request's transaction runs alone, and the
/// device quota holds when creations race.
@Suite struct DeviceConcurrencyTests {
    /// Runs `body` on a thread of its own (the global queue would not start many threads that block), in `group`.
    private func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
    }

    /// Starts a command on `device` that holds it until `release` is signalled; returns once it is inside.
    private func holdDevice(
        _ api: APIHarness, _ device: String, tenantId: String, release: DispatchSemaphore, group: DispatchGroup
    ) {
        let inside = DispatchSemaphore(value: 0)
        spawn(group) {
            _ = try? api.devices.perform(device, tenantId: tenantId) { _ in
                inside.signal()
                release.wait()
            }
        }
        inside.wait()
    }

    /// Runs `body` on another thread; whether it finished within `seconds`.
    private func finishes(within seconds: Double, group: DispatchGroup, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        spawn(group) {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test func aCommandOnOneDeviceDoesNotWaitForACommandOnAnother() throws {
        let api = try APIHarness()
        let acme = try api.makeTenant("acme"), other = try api.makeTenant("other")
        let held = try api.makeDevice(key: acme.key), sibling = try api.makeDevice(key: acme.key)
        let neighbour = try api.makeDevice(key: other.key)
        let release = DispatchSemaphore(value: 0), group = DispatchGroup()
        holdDevice(api, held, tenantId: acme.id, release: release, group: group)
        defer {
            release.signal()
            group.wait()
        }
        // While `held`'s command is inside, the same tenant's other device and another tenant's device advance,
        // through the service and through the API.
        #expect(finishes(within: 5, group: group) {
            _ = try? api.devices.perform(sibling, tenantId: acme.id) { _ = try $0.advance(to: $0.now + .seconds(60)) }
        })
        #expect(finishes(within: 5, group: group) {
            let response = api.send(.post, "/v1/devices/\(neighbour)/clock/advance", key: other.key, json: #"{"seconds":60}"#)
            precondition(response.status == 200, response.text)
        })
        #expect(finishes(within: 5, group: group) { _ = try? api.makeDevice(key: other.key) })
    }

    /// A slow write of one tenant (a transaction holding SQLite's writer, as a long commit or a retention batch
    /// does) does not delay another tenant's reads: they go through the reader connections, never the writer.
    @Test func aSlowWriteOfOneTenantDoesNotDelayAnotherTenantsReads() throws {
        let api = try APIHarness()
        let acme = try api.makeTenant("acme"), other = try api.makeTenant("other")
        let slow = try api.makeDevice(key: acme.key), neighbour = try api.makeDevice(key: other.key)
        let advanced = api.send(.post, "/v1/devices/\(neighbour)/clock/advance", key: other.key, json: #"{"seconds":60}"#)
        #expect(advanced.status == 200)
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), group = DispatchGroup()
        let database = api.database
        spawn(group) {
            _ = try? database.write { db in
                try db.execute("UPDATE devices SET created_at = created_at WHERE id = ?", [slow])
                inside.signal()
                release.wait()
            }
        }
        inside.wait()
        defer {
            release.signal()
            group.wait()
        }
        for path in ["/v1/devices/\(neighbour)", "/v1/devices/\(neighbour)/events", "/v1/devices", "/v1/devices/\(neighbour)/apps"] {
            #expect(finishes(within: 5, group: group) {
                let response = api.send(.get, path, key: other.key)
                precondition(response.status == 200, "\(path): \(response.text)")
            }, "GET \(path) waited for the other tenant's write")
        }
    }

    @Test func commandsOnOneDeviceRunOneAtATimeAndNoneIsLost() throws {
        let api = try APIHarness()
        let acme = try api.makeTenant("acme")
        let device = try api.makeDevice(key: acme.key)
        let release = DispatchSemaphore(value: 0), group = DispatchGroup()
        holdDevice(api, device, tenantId: acme.id, release: release, group: group)
        // A second command on the held device waits for the first.
        let ran = Atomic(false)
        spawn(group) {
            _ = try? api.devices.perform(device, tenantId: acme.id) { _ in ran.store(true, ordering: .sequentiallyConsistent) }
        }
        usleep(200_000)
        let ranWhileHeld = ran.load(ordering: .sequentiallyConsistent)
        #expect(!ranWhileHeld)
        release.signal()
        group.wait()
        let ranAfterwards = ran.load(ordering: .sequentiallyConsistent)
        #expect(ranAfterwards)

        // 8 threads × 25 one-second advances of the same device: every one of them lands.
        let start = try api.devices.device(device, tenantId: acme.id).clock.anchor
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 {
                let response = api.send(.post, "/v1/devices/\(device)/clock/advance", key: acme.key, json: #"{"seconds":1}"#)
                precondition(response.status == 200, response.text)
            }
        }
        let end = try api.devices.device(device, tenantId: acme.id).clock.anchor
        #expect(end == start + .seconds(200))
        #expect(api.devices.deviceLocks.count == 0)
    }

    @Test func anIdempotentRequestsTransactionRunsAlone() throws {
        let api = try APIHarness()
        let acme = try api.makeTenant("acme")
        let device = try api.makeDevice(key: acme.key), other = try api.makeDevice(key: acme.key)
        let release = DispatchSemaphore(value: 0), group = DispatchGroup()
        holdDevice(api, device, tenantId: acme.id, release: release, group: group)
        // An idempotent request (on another device) waits for the command inside...
        let answered = Atomic(false)
        spawn(group) {
            var headers = HTTPHeaders()
            headers["Idempotency-Key"] = "key-1"
            headers["Content-Type"] = "application/json"
            let response = api.send(
                .post, "/v1/devices/\(other)/clock/advance", key: acme.key, body: Array(#"{"seconds":60}"#.utf8),
                headers: headers)
            precondition(response.status == 200, response.text)
            answered.store(true, ordering: .sequentiallyConsistent)
        }
        usleep(200_000)
        let answeredWhileHeld = answered.load(ordering: .sequentiallyConsistent)
        #expect(!answeredWhileHeld)
        release.signal()
        group.wait()
        let answeredAfterwards = answered.load(ordering: .sequentiallyConsistent)
        #expect(answeredAfterwards)
        // ...and a command waits while a transaction runs alone.
        let inside = DispatchSemaphore(value: 0), leave = DispatchSemaphore(value: 0)
        spawn(group) {
            api.devices.exclusively {
                inside.signal()
                leave.wait()
            }
        }
        inside.wait()
        #expect(!finishes(within: 0.2, group: group) {
            _ = try? api.devices.perform(other, tenantId: acme.id) { _ = try $0.advance(to: $0.now + .seconds(1)) }
        })
        leave.signal()
        group.wait()
    }

    @Test func creationsRacingForTheLastPlacesOfTheQuotaStopAtIt() throws {
        let api = try APIHarness(maximumDevicesPerTenant: 10)
        let acme = try api.makeTenant("acme")
        _ = try api.makeDevice(key: acme.key)
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { n in
            let response = api.send(.post, "/v1/devices", key: acme.key, json: #"{"name":"racer \#(n)"}"#)
            statuses.withLock { $0.append(response.status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 201 }.count == 9)
        #expect(all.filter { $0 == 409 }.count == 15)
        #expect(try api.devices.store.deviceCount(tenantId: acme.id) == 10)
    }
}
