import Foundation
import Testing
@testable import BGEmuKit

/// bgemu's refusals of `POST …/task-requests` become the `BGTaskScheduler.Error` iOS throws (R15, R17, R18); the
/// refusals iOS does not throw as that error are BGEmuKit's own.
@Suite struct BGTaskSchedulerErrorTests {
    @Test(arguments: [
        ("unavailable", BGTaskScheduler.Error.Code.unavailable),
        ("tooManyPendingTaskRequests", .tooManyPendingTaskRequests),
        ("notPermitted", .notPermitted),
        ("immediateRunIneligible", .immediateRunIneligible),
    ])
    func R15_R17_R18_aRefusalMapsToAppleCode(code: String, expected: BGTaskScheduler.Error.Code) {
        let error = BGTaskScheduler.Error.mapping(ServiceProblem(status: 409, code: code, detail: "why"))
        #expect(error?.code == expected)
        #expect(error?.detail == "why")
    }

    @Test func appleRawValuesAreKept() {
        #expect(BGTaskScheduler.Error.Code.unavailable.rawValue == 1)
        #expect(BGTaskScheduler.Error.Code.tooManyPendingTaskRequests.rawValue == 2)
        #expect(BGTaskScheduler.Error.Code.notPermitted.rawValue == 3)
        #expect(BGTaskScheduler.Error.Code.immediateRunIneligible.rawValue == 4)
    }

    @Test func R16_noLaunchHandlerIsACrashNotASchedulerError() {
        let problem = ServiceProblem(status: 409, code: "noLaunchHandler", detail: "No launch handler registered")
        #expect(BGTaskScheduler.Error.mapping(problem) == nil)
        #expect(EmulatedApp.submitError(problem) as? BGEmuError == .appCrashed("No launch handler registered"))
    }

    @Test func bgemusOwnRefusalsThrowApplesUnavailableWithBgemusReason() {
        let notRunning = ServiceProblem(status: 409, code: "appNotRunning", detail: "suspended")
        let thrown = EmulatedApp.submitError(notRunning) as? BGTaskScheduler.Error
        #expect(thrown?.code == .unavailable)
        #expect(thrown?.detail?.contains("409 appNotRunning: suspended") == true)
        let invalid = ServiceProblem(status: 422, code: "validationFailed", detail: nil, fields: ["identifier"])
        #expect(BGTaskScheduler.Error.mapping(invalid) == nil)
        #expect((EmulatedApp.submitError(invalid) as? BGTaskScheduler.Error)?.code == .unavailable)
    }

    @Test func aCatchClauseMatchesTheCodeAsWithApplesBridgedError() {
        func submit() throws { throw BGTaskScheduler.Error(.notPermitted) }
        var matched = false
        do { try submit() } catch BGTaskScheduler.Error.notPermitted { matched = true } catch {}
        #expect(matched)
        #expect(BGTaskScheduler.Error(.unavailable) == BGTaskScheduler.Error(.unavailable, detail: "another detail"))
    }

    @Test func aProblemBodyIsRead() {
        let body = Array(#"{"type":"urn:bgemu:problem:notPermitted","status":409,"code":"notPermitted","detail":"x","errors":[{"field":"identifier","message":"m"}]}"#.utf8)
        #expect(ServiceProblem(status: 409, body: body) == ServiceProblem(status: 409, code: "notPermitted", detail: "x", fields: ["identifier"]))
        #expect(ServiceProblem(status: 502, body: Array("<html>".utf8)) == ServiceProblem(status: 502, code: nil, detail: nil))
    }
}

/// `BGTaskScheduler.Error` as an `NSError`, as iOS bridges it; a health research request is a processing request.
@Suite struct BGTaskSchedulerBridgingTests {
    @Test func theErrorBridgesToNSErrorInBGTaskSchedulerErrorDomainWithAppleCode() {
        let error: any Error = BGTaskScheduler.Error(.notPermitted)
        let bridged = error as NSError
        #expect(bridged.domain == BGTaskSchedulerErrorDomain)
        #expect(BGTaskSchedulerErrorDomain == "BGTaskSchedulerErrorDomain")
        #expect(bridged.code == BGTaskScheduler.Error.Code.notPermitted.rawValue)
        #expect(BGTaskScheduler.Error(.unavailable).errorCode == 1)
        #expect(BGTaskScheduler.Error.errorDomain == BGTaskSchedulerErrorDomain)
    }

    @Test func R18_aRefusedSubmitThrowsAnErrorWhoseNSErrorIsUnavailable() async throws {
        let fixture = try await HarnessFixture()
        fixture.service.refusal = (409, "unavailable")
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
        }
        let thrown = try await fixture.app.run { () -> (any Error)? in
            do {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
                return nil
            } catch { return error }
        }
        let bridged = try #require(thrown) as NSError
        #expect(bridged.domain == BGTaskSchedulerErrorDomain && bridged.code == BGTaskScheduler.Error.Code.unavailable.rawValue)
    }

    @Test func R20_aHealthResearchRequestIsSubmittedAsAProcessingRequest() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.cleanup, using: nil) { _ in }
            let request = BGHealthResearchTaskRequest(identifier: HarnessFixture.cleanup)
            request.protectionTypeOfRequiredData = .complete
            request.requiresExternalPower = true
            try BGTaskScheduler.shared.submit(request)
        }
        #expect(fixture.service.calls.contains(.submit(TaskRequestBody(
            kind: "processing", identifier: HarnessFixture.cleanup, requiresExternalPower: true))))
    }
}
