import Foundation
import Testing
@testable import BGEmuKit

/// R41 in the harness: a continued processing request submitted from the foreground reaches the handler registered
/// for its wildcard identifier with a `BGContinuedProcessingTask`, whose progress and title go to the service.
@Suite struct ContinuedProcessingTests {
    static let wildcard = "com.example.photos.export.*"

    @Test func R41_theSubmitRunsTheWildcardsHandlerWithTheTaskAndItsProgressReachesTheService() async throws {
        let service = FakeRemoteDevice()
        let device = try EmulatedDevice(service: service)
        let app = try await device.install(bundleId: "com.example.photos", backgroundModes: [], permittedIdentifiers: [Self.wildcard])
        let seen = Recorder<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.wildcard, using: nil) { task in
                guard let task = task as? BGContinuedProcessingTask else { return seen.append("\(type(of: task))") }
                seen.append("\(task.identifier) \(task.title) / \(task.subtitle)")
                task.progress.totalUnitCount = 4
                task.progress.completedUnitCount = 1
                task.updateTitle("Exporting", subtitle: "1 of 4")
                task.progress.completedUnitCount += 3
                task.setTaskCompleted(success: true)
            }
        }
        let request = BGContinuedProcessingTaskRequest(identifier: "com.example.photos.export.7", title: "Export", subtitle: "4 photos")
        request.strategy = .fail
        request.requiredResources = .gpu
        try await app.run { try BGTaskScheduler.shared.submit(request) }

        #expect(seen.all == ["com.example.photos.export.7 Export / 4 photos"])
        let submitted = service.calls.compactMap { if case .submit(let body) = $0 { body } else { nil } }
        #expect(submitted.first?.kind == "continuedProcessing")
        #expect(submitted.first?.continued == ContinuedRequestBody(title: "Export", subtitle: "4 photos", strategy: "fail", requiresGPU: true))
        let reports = service.calls.compactMap { if case .progress(_, let report) = $0 { report } else { nil } }
        #expect(reports == [
            ProgressReport(completedUnitCount: 0, totalUnitCount: 4),
            ProgressReport(completedUnitCount: 1, totalUnitCount: 4),
            ProgressReport(completedUnitCount: 1, totalUnitCount: 4, title: "Exporting", subtitle: "1 of 4"),
            ProgressReport(completedUnitCount: 4, totalUnitCount: 4),
        ])
        #expect(service.calls.contains(.complete("run_c1", .success(true))))
    }

    @Test func R41_theUserCancelsTheTaskAndItsExpirationHandlerRunsBeforeTheCallReturns() async throws {
        let service = FakeRemoteDevice()
        let device = try EmulatedDevice(service: service)
        let app = try await device.install(bundleId: "com.example.photos", backgroundModes: [], permittedIdentifiers: [Self.wildcard])
        let expired = Recorder<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.wildcard, using: nil) { task in
                task.expirationHandler = {
                    expired.append(task.identifier)
                    task.setTaskCompleted(success: false)
                }
            }
        }
        try await app.run {
            try BGTaskScheduler.shared.submit(
                BGContinuedProcessingTaskRequest(identifier: "com.example.photos.export.1", title: "Export", subtitle: "1 photo"))
        }
        try await app.cancelContinuedProcessingTask(identifier: "com.example.photos.export.1")
        #expect(expired.all == ["com.example.photos.export.1"])
        #expect(service.calls.contains(.cancel("run_c1")))
        #expect(service.calls.contains(.complete("run_c1", .success(false))))
        await #expect(throws: BGEmuError.self) { try await app.cancelContinuedProcessingTask(identifier: "com.example.photos.export.9") }
    }

    @Test func R41_immediateRunIneligibleIsThrownAsApplesError() async throws {
        let fixture = try await HarnessFixture()
        fixture.service.refusal = (409, "immediateRunIneligible")
        try await fixture.app.launch()
        let thrown = await #expect(throws: BGTaskScheduler.Error.self) {
            try await fixture.app.run {
                try BGTaskScheduler.shared.submit(
                    BGContinuedProcessingTaskRequest(identifier: "com.example.news.export.1", title: "t", subtitle: "s"))
            }
        }
        #expect(thrown?.code == .immediateRunIneligible)
    }
}
