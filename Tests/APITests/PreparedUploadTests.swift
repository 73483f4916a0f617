import Foundation
import HTTPServer
import Synchronization
import Logging
import Testing
@testable import API
import Emulation
@testable import Service
import Stores

/// Issue 26 (defect 3): an upload's inspection runs before its write, on the heavy-work pool under its tenant —
/// outside the idempotency middleware's gate and transaction, which a keyed upload once held for the whole of its
/// inspection while every other tenant's writes waited.
@Suite struct PreparedUploadTests {
    let api: APIHarness
    let a: (key: String, device: String)
    let b: (key: String, device: String)
    let ids: (a: String, b: String)

    init() throws {
        api = try APIHarness()
        let tenantA = try api.makeTenant("tenant-a"), tenantB = try api.makeTenant("tenant-b")
        a = (tenantA.key, try api.makeDevice(key: tenantA.key))
        b = (tenantB.key, try api.makeDevice(key: tenantB.key))
        ids = (tenantA.id, tenantB.id)
    }

    final class Answer: Sendable {
        private let response = Mutex<TestResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        func set(_ value: TestResponse) { response.withLock { $0 = value }; done.signal() }
        var value: TestResponse? { response.withLock { $0 } }
    }

    /// Posts an Info.plist upload of tenant A (or `tenant`) on a thread of its own.
    func upload(bundleId: String, idempotencyKey: String?, as tenant: (key: String, device: String)? = nil) -> Answer {
        let answer = Answer()
        var headers: HTTPHeaders = ["Content-Type": "application/x-plist"]
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        let (api, a, sent) = (api, tenant ?? a, headers)
        Thread.detachNewThread {
            answer.set(api.send(
                .post, "/v1/devices/\(a.device)/apps?bundleId=\(bundleId)", key: a.key,
                body: Array(AppUploadTests.templatePlist.utf8), headers: sent))
        }
        return answer
    }

    /// The pool's only thread held by a job of another tenant until `release` is signalled.
    func holdThePool() -> DispatchSemaphore {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let pool = api.heavyWork
        Thread.detachNewThread { _ = try? pool.run(tenant: "holder") { started.signal(); release.wait() } }
        started.wait()
        return release
    }

    @Test func aKeyedUploadBeingInspectedHoldsNoOtherTenantsWrites() throws {
        let release = holdThePool()
        let pending = upload(bundleId: "org.example.feed", idempotencyKey: "upload-1")
        let tenantA = ids.a
        HeavyWorkPoolTests.waitUntil { api.heavyWork.load(of: tenantA) == 1 }
        #expect(api.heavyWork.load(of: tenantA) == 1)

        // While A's keyed upload waits for its inspection, B's writes and A's own unkeyed writes go through.
        let advanced = api.send(.post, "/v1/devices/\(b.device)/clock/advance", key: b.key, json: #"{"seconds":60}"#)
        #expect(advanced.status == 200)
        let keyed = api.send(
            .post, "/v1/devices/\(b.device)/clock/advance", key: b.key, json: #"{"seconds":60}"#,
            headers: ["Idempotency-Key": "b-advance"])
        #expect(keyed.status == 200)
        #expect(api.send(.post, "/v1/devices", key: a.key, json: #"{"name":"another"}"#).status == 201)
        #expect(pending.value == nil)

        release.signal()
        pending.done.wait()
        #expect(pending.value?.status == 201)
        // The key still holds the answer: a retry replays it and installs nothing.
        let retry = upload(bundleId: "org.example.feed", idempotencyKey: "upload-1")
        retry.done.wait()
        #expect(retry.value?.status == 201)
        #expect(retry.value?.headers["Idempotent-Replayed"] == "true")
        let listed = api.send(.get, "/v1/devices/\(a.device)/apps", key: a.key)
        #expect((listed.json["items"] as? [Any])?.count == 1)
    }

    @Test func aRefusedInspectionIsStoredUnderItsKeyAsBefore() {
        var headers: HTTPHeaders = ["Content-Type": "application/x-plist", "Idempotency-Key": "bad-plist"]
        let first = api.send(.post, "/v1/devices/\(a.device)/apps", key: a.key, body: Array("not a plist".utf8), headers: headers)
        #expect(first.status == 422)
        headers["Idempotency-Key"] = "bad-plist"
        let again = api.send(.post, "/v1/devices/\(a.device)/apps", key: a.key, body: Array("not a plist".utf8), headers: headers)
        #expect(again.status == 422)
        #expect(again.headers["Idempotent-Replayed"] == "true")
    }

    @Test func uploadsPastTheTenantsShareOfThePoolAre429WithRetryAfter() throws {
        let release = holdThePool()
        let tenantA = ids.a
        let share = api.heavyWork.maximumQueuedPerTenant
        let pending = (0..<share).map { upload(bundleId: "org.example.app\($0)", idempotencyKey: nil) }
        HeavyWorkPoolTests.waitUntil { api.heavyWork.load(of: tenantA) == share }
        let refused = api.send(
            .post, "/v1/devices/\(a.device)/apps?bundleId=org.example.more", key: a.key,
            body: Array(AppUploadTests.templatePlist.utf8), headers: ["Content-Type": "application/x-plist"])
        #expect(refused.status == 429)
        #expect(refused.problemCode == "uploadsBusy")
        #expect(refused.headers["Retry-After"] == "1")
        // Tenant B's uploads are not A's share: queued, not refused.
        let other = upload(bundleId: "org.example.b", idempotencyKey: nil, as: b)
        HeavyWorkPoolTests.waitUntil { api.heavyWork.load(of: ids.b) == 1 }
        #expect(other.value == nil)
        release.signal()
        for answer in pending + [other] { answer.done.wait() }
        #expect(pending.map { $0.value?.status } == Array(repeating: 201, count: share))
        #expect(other.value?.status == 201)
    }

    /// A keyed upload's idempotency fingerprint hashes its body: 40 ms of CPU for 16 MiB, once spent on the worker
    /// that answers the request, taken from every other tenant's requests (issue 26's keyed flood: B's p99 5 x its
    /// quiet p99). The preparation's job takes the digest on the pool, of the body as decoded, and hands it on.
    @Test func aKeyedUploadsBodyIsHashedInItsPreparationOnThePool() throws {
        let pool = HeavyWorkPool(threads: 1)
        pool.start()
        defer { pool.stop() }
        let threads = Mutex<[Int32]>([])
        let preparation = RoutePreparation(.post, "/v1/devices/{deviceId}/apps") { _ in
            threads.withLock { $0.append(LowPriority.currentPolicy()) }
            return 0
        }
        let middleware = PreparationMiddleware([preparation], pool: pool)
        var context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test"))
        context.route = "/v1/devices/{deviceId}/apps"
        context[AuthenticatedTenant.self] = AuthenticatedKey(
            tenant: Tenant(id: "tenant-a", name: "a", createdAt: Date(timeIntervalSince1970: 0)), keyId: "key-a")
        let body = Array(AppUploadTests.templatePlist.utf8)
        func digestSeen(headers: HTTPHeaders) throws -> String? {
            let request = HTTPRequest(method: .post, target: "/v1/devices/dev_1/apps", headers: headers, body: body)
            let seen = Mutex<String?>(nil)
            _ = try middleware.handle(request, context: context) { _, inner in
                seen.withLock { $0 = inner[BodyDigest.self] }
                return HTTPResponse(status: .created)
            }
            return seen.withLock { $0 }
        }
        #expect(try digestSeen(headers: ["Idempotency-Key": "k1"]) == KeyHasher.sha256Hex(body))
        #expect(try digestSeen(headers: [:]) == nil)
        // The job ran on the pool's thread (the preparation beside the digest saw its scheduling class).
        #expect(threads.withLock { $0 } == Array(repeating: LowPriority.schedIdle, count: 2))
    }
}
