@testable import bgemu
import BGEmuClient
import Foundation
import Testing

/// How the client commands read their input and word the service's answers.
struct CommandOutputTests {
    @Test func installTellsTheKindOfFileByItsBytesFirst() {
        #expect(UploadFile.contentType(of: Array("bplist00\u{0}".utf8), name: "x.bin") == UploadFile.plist)
        #expect(UploadFile.contentType(of: Array("\u{FEFF}\n <?xml version=\"1.0\"?><plist/>".utf8), name: "Info") == UploadFile.plist)
        #expect(UploadFile.contentType(of: [0x50, 0x4B, 0x03, 0x04, 0], name: "App.ipa") == UploadFile.zip)
        #expect(UploadFile.contentType(of: [0x50, 0x4B, 0x03, 0x04, 0], name: "Info.plist") == UploadFile.zip)
        #expect(UploadFile.contentType(of: Array(#"{"bundleId":"a.b"}"#.utf8), name: "app.txt") == UploadFile.json)
        #expect(UploadFile.contentType(of: [1, 2, 3], name: "App.app.zip") == UploadFile.zip)
        #expect(UploadFile.contentType(of: [1, 2, 3], name: "notes.txt") == nil)
    }

    @Test func aProblemShowsItsDetailStatusCodeAndOtherFieldIssues() {
        let body = #"{"type":"urn:bgemu:problem:validationFailed","title":"Unprocessable Content","status":422,"code":"validationFailed","detail":"seconds: must be from 0 to 2592000","errors":[{"field":"seconds","message":"must be from 0 to 2592000"},{"field":"to","message":"extra"}]}"#
        let failure = CommandFailure.service(.refused(ServiceProblem(
            status: 422, body: Array(body.utf8), contentType: "application/problem+json")))
        #expect(failure.message == "error: seconds: must be from 0 to 2592000 (422 Unprocessable Content, validationFailed)\n  to: extra")
        #expect(failure.exitCode == 1 && failure.code == "validationFailed")
        #expect(CommandFailure.service(.unreachable(server: "http://h:1", reason: "x")).exitCode == 2)
        #expect(CommandFailure.service(.refused(ServiceProblem(status: 502, body: Array("bad gateway".utf8), contentType: "text/plain"))).message
            == "error: HTTP 502: bad gateway (text/plain)")
    }

    @Test func aPushAnswerIsOneHumanLine() {
        #expect(PushCommand.describe(["outcome": "delivered", "apnsId": "A", "runId": "run_3", "notificationDelivered": true], app: "x")
            == "delivered push A to x: woke the app (run run_3): application(_:didReceiveRemoteNotification:fetchCompletionHandler:), alert shown")
        // In the foreground no run is granted, and the delegate is still asked (R30), as the events say.
        #expect(PushCommand.describe(["outcome": "delivered", "apnsId": "A", "runId": nil, "inForeground": true], app: "x")
            == "delivered push A to x: the app in the foreground got application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
        #expect(PushCommand.describe(["outcome": "deferred", "apnsId": "A", "reason": "lowPowerMode"], app: "x")
            == "deferred push A to x: held by the system (lowPowerMode)")
        #expect(PushCommand.describe(["outcome": "coalesced", "apnsId": "B", "reason": "budget", "replacedApnsId": "A"], app: "x")
            == "coalesced push B to x: held by the system (budget), replacing A")
        #expect(PushCommand.describe(["outcome": "dropped", "apnsId": "A", "reason": "forceQuit"], app: "x")
            == "dropped push A to x: not delivered (forceQuit)")
        #expect(PushCommand.simulatorTargetBundle(Array(#"{"Simulator Target Bundle":"a.b","aps":{}}"#.utf8)) == "a.b")
        #expect(PushCommand.simulatorTargetBundle(Array("not json".utf8)) == nil)
    }

    @Test func anEventIsOneLineOfTimeTypeAppAndData() throws {
        let json = #"{"id":3,"at":"2026-01-01T00:15:00.000Z","type":"app.stateChanged","bundleId":"com.example.news","deviceId":"dev_1","data":{"to":"suspended","from":"background","cause":"idle","seed":5085623301430711,"ok":true,"n":1.5,"note":"two words","x":null}}"#
        let event = try JSONValue.parse(Array(json.utf8))
        #expect(EventLine.text(event) == "2026-01-01T00:15:00.000Z  app.stateChanged            com.example.news          "
            + #"cause=idle from=background n=1.5 note="two words" ok=true seed=5085623301430711 to=suspended x=null"#)
    }
}
