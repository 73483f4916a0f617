import BGEmuClient
import Testing

/// One reader of `application/problem+json` (RFC 9457) for every client.
@Suite struct ServiceProblemTests {
    @Test func aProblemDocumentIsReadWithItsFieldIssues() {
        let body = #"{"type":"urn:bgemu:problem:validationFailed","title":"Unprocessable Content","status":422,"code":"validationFailed","detail":"seconds: must be from 0 to 2592000","errors":[{"field":"seconds","message":"must be from 0 to 2592000"},{"field":"to","message":"extra"}]}"#
        let problem = ServiceProblem(status: 422, body: Array(body.utf8))
        #expect(problem.code == "validationFailed" && problem.title == "Unprocessable Content")
        #expect(problem.fields == ["seconds", "to"])
        #expect(problem.issues[1] == .init(field: "to", message: "extra"))
        #expect(problem.explanation == "seconds: must be from 0 to 2592000 (422 Unprocessable Content, validationFailed)\n  to: extra")
    }

    @Test func aBodyThatIsNoProblemKeepsItsStatusAndText() {
        let problem = ServiceProblem(status: 502, body: Array("<html>bad gateway</html>\n".utf8), contentType: "text/html")
        #expect(problem.code == nil && problem.detail == nil)
        #expect(problem.explanation == "HTTP 502: <html>bad gateway</html> (text/html)")
        #expect(ServiceProblem(status: 503, body: []).explanation == "HTTP 503")
    }

    @Test func problemsAreEqualByStatusCodeDetailAndFields() {
        let body = #"{"status":409,"code":"notPermitted","detail":"x","title":"Conflict","errors":[{"field":"identifier","message":"m"}]}"#
        #expect(ServiceProblem(status: 409, body: Array(body.utf8)) == ServiceProblem(status: 409, code: "notPermitted", detail: "x", fields: ["identifier"]))
    }
}
