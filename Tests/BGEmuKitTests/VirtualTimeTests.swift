import Foundation
import Testing
@testable import BGEmuKit

/// A wall-clock date app code passes keeps its offset from now on the device's virtual clock, both ways.
@Suite struct VirtualTimeTests {
    let virtualNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let wallNow = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func R19_fifteenMinutesFromNowIsFifteenMinutesFromTheDevicesNow() {
        let date = wallNow.addingTimeInterval(15 * 60)
        #expect(VirtualTime.toDevice(date, virtualNow: virtualNow, wallNow: wallNow) == virtualNow.addingTimeInterval(900))
        #expect(VirtualTime.toDevice(wallNow.addingTimeInterval(-5), virtualNow: virtualNow, wallNow: wallNow)
            == virtualNow.addingTimeInterval(-5))
    }

    @Test func determinism_theTimeTheAppsCodeTakesDoesNotMoveTheInstant() {
        // The app computed its date 3 ms before the submit read the wall clock.
        let date = wallNow.addingTimeInterval(900 - 0.003)
        #expect(VirtualTime.toDevice(date, virtualNow: virtualNow, wallNow: wallNow) == virtualNow.addingTimeInterval(900))
    }

    @Test func aDateComputedFromTheDevicesClockKeepsItsOffsetFromTheDevicesNow() {
        // `DeviceClock().now.addingTimeInterval(15 * 60)`, or `Date(timeIntervalSinceNow:)` under libfaketime.
        let date = virtualNow.addingTimeInterval(15 * 60)
        #expect(VirtualTime.toDevice(date, virtualNow: virtualNow, wallNow: wallNow) == virtualNow.addingTimeInterval(900))
        #expect(VirtualTime.toDevice(virtualNow.addingTimeInterval(-5), virtualNow: virtualNow, wallNow: wallNow)
            == virtualNow.addingTimeInterval(-5))
    }

    @Test func theVirtualNowIsWrittenInLibfaketimesAbsoluteFormat() throws {
        #expect(VirtualDateFile.line(virtualNow.addingTimeInterval(90.25)) == "2026-01-01 00:01:30.250")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgemukit-faketime-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        VirtualDateFile(path: path).write(virtualNow.addingTimeInterval(86_400))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "2026-01-02 00:00:00.000\n")
    }

    @Test func aDeviceDateMapsBackToTheWallClock() {
        let instant = virtualNow.addingTimeInterval(3600)
        #expect(VirtualTime.toWall(instant, virtualNow: virtualNow, wallNow: wallNow) == wallNow.addingTimeInterval(3600))
    }

    @Test func datesAreWrittenAsTheServiceWritesThem() throws {
        #expect(VirtualTime.format(virtualNow.addingTimeInterval(90.25)) == "2026-01-01T00:01:30.250Z")
        #expect(VirtualTime.parse("2026-01-01T00:01:30.250Z") == virtualNow.addingTimeInterval(90.25))
        #expect(VirtualTime.parse("2026-01-01T00:01:30Z") == virtualNow.addingTimeInterval(90))
        #expect(VirtualTime.parse("yesterday") == nil)
        // An instant read back is written as it was read, not a millisecond early.
        for text in ["2026-01-01T00:16:06.395Z", "2026-01-01T00:00:00.001Z", "1969-12-31T23:59:59.999Z"] {
            #expect(VirtualTime.format(try #require(VirtualTime.parse(text))) == text)
        }
    }

    @Test func R19_aSubmittedEarliestBeginDateIsSentInVirtualTime() async throws {
        let fixture = try await HarnessFixture()
        let start = Date()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
            let request = BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh)
            request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
            try BGTaskScheduler.shared.submit(request)
        }
        let sent = fixture.service.calls.compactMap { if case .submit(let body) = $0 { body } else { nil } }
        let offset = try #require(sent.first?.earliestBeginDate).timeIntervalSince(fixture.service.virtualNow)
        #expect(offset == 900)
        // Read back, the pending request's date is about 15 minutes from the wall clock's now again.
        let pending = try await fixture.app.run { () -> [BGTaskRequest] in
            var answer: [BGTaskRequest] = []
            BGTaskScheduler.shared.getPendingTaskRequests { answer = $0 }
            return answer
        }
        // The wall clock ran on meanwhile (seconds on a loaded machine): the date is 15 minutes after a moment
        // since the start, never later, and no earlier than the time that passed allows.
        let back = try #require(pending.first?.earliestBeginDate).timeIntervalSinceNow
        let elapsed = Date().timeIntervalSince(start)
        #expect(back <= 900 + 1)
        #expect(back >= 900 - elapsed - 1)
        #expect(pending.first is BGAppRefreshTaskRequest)
    }
}
