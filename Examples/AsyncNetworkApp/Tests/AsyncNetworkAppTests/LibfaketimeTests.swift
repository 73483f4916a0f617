import BGEmuKit
import Foundation
import XCTest
@testable import AsyncNetworkApp

/// The app's own `Date()` reads the device's time in BGEmuKit's libfaketime mode (this example's
/// test-against-bgemu.sh runs the test binary so: libfaketime preloaded, `FAKETIME_TIMESTAMP_FILE` that BGEmuKit
/// rewrites with the device's now): a day on the device makes the headlines stale, and a request's
/// `Date(timeIntervalSinceNow:)` keeps its offset from the device's now. Skipped without libfaketime.
///
/// An XCTest, not a Swift Testing test: with libfaketime preloaded a Swift program's `CommandLine.arguments` comes
/// out empty, so the test binary cannot be told `--testing-library swift-testing`; run without arguments it runs
/// its XCTest cases.
///
/// Not an `async` test method either: XCTest waits for one by turning the main run loop 0.1 s at a time until the
/// test's task has fulfilled its expectation, whose `CFRunLoopStop` is lost when it comes between two turns, and
/// the 0.1 s is a libdispatch timer, which under libfaketime never fires (its deadline moved by the faked time's
/// offset, here some 335 days): about one run in three hung there, its test body done. The test method turns the
/// main run loop itself until the body, on the main actor, has ended — the run loop returns after each block of the
/// main queue, so no stop or timer is needed.
final class LibfaketimeTests: XCTestCase {
    func testUnderLibfaketimeADayOnTheDeviceMakesTheAppsOwnDateCheckRefresh() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["FAKETIME_TIMESTAMP_FILE"] == nil, "runs under libfaketime")
        try runOnMainRunLoop { try await Self.aDayOnTheDeviceMakesTheAppsOwnDateCheckRefresh() }
    }

    @MainActor static func aDayOnTheDeviceMakesTheAppsOwnDateCheckRefresh() async throws {
        let server = try StubServer(delay: .milliseconds(300), body: AsyncNetworkAppTests.headlines)
        defer { server.stop() }
        let (device, app, delegate) = try await AsyncNetworkAppTests.launchedApp(server)
        let log = delegate.refresher.log
        // The process's wall clock is the device's.
        let deviceNow = try await device.now
        XCTAssertEqual(Date(), deviceNow)
        XCTAssertEqual(log.refreshes, 1)
        // Back within the hour: not stale.
        try await app.moveToBackground()
        try await app.moveToForeground()
        try await device.settle()
        XCTAssertEqual(log.refreshes, 1)
        // The request didEnterBackground submitted is 30 minutes from the device's now, as the app's Date() said.
        let events = try await device.recordedEvents()
        let submitted = try XCTUnwrap(events.last { $0.type == .taskRequestSubmitted })
        let earliest = try XCTUnwrap(submitted.string("earliestBeginDate").flatMap {
            try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0)
        })
        XCTAssertEqual(earliest.timeIntervalSince(submitted.at), 30 * 60)
        // A day away, with no background refresh meanwhile: stale on return.
        try await app.moveToBackground()
        try await app.run { BGTaskScheduler.shared.cancelAllTaskRequests() }
        try await device.advanceClock(by: 24 * 3600)
        let dayLater = try await device.now
        XCTAssertEqual(Date(), dayLater)
        try await app.moveToForeground()
        try await device.settle()
        XCTAssertEqual(log.refreshes, 2)
        XCTAssertEqual(log.failures, [])
        let last = try XCTUnwrap(log.lastRefresh)
        XCTAssertGreaterThanOrEqual(last.timeIntervalSince(dayLater), 0)
        XCTAssertLessThan(last.timeIntervalSince(dayLater), 10)
    }
}

/// Runs `body` on the main actor from a synchronous test method (on the main thread) and turns the main run loop
/// until it has ended; rethrows what it threw. Each turn (`run(mode:before:)` with no limit) returns once it has
/// run a block of the main queue — the main actor's jobs are such blocks, the body's last one among them — so
/// the loop sees the end without a timer or a `CFRunLoopStop`.
func runOnMainRunLoop(_ body: @escaping @MainActor () async throws -> Void) throws {
    try MainActor.assumeIsolated {
        let outcome = MainRunLoopOutcome()
        Task { @MainActor in
            do {
                try await body()
                outcome.result = .success(())
            } catch {
                outcome.result = .failure(error)
            }
        }
        while outcome.result == nil {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
        try outcome.result?.get()
    }
}

/// How the body of ``runOnMainRunLoop(_:)`` ended; nil while it runs.
@MainActor final class MainRunLoopOutcome {
    var result: Result<Void, any Error>?
}
