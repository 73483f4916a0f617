// hb-healthz: GET /healthz -> 200 {"status":"ok"} (application/json), on 127.0.0.1.
//
// Usage: hb-healthz [PORT]      (or HB_PORT=PORT hb-healthz; default 8080)
//
// Hummingbird's defaults otherwise: the singleton MultiThreadedEventLoopGroup
// (one event-loop thread per core), HTTP/1.1, no middleware, its default logger
// (level info, or LOG_LEVEL; it logs the start, not each request).
import Foundation
import Hummingbird

let arguments = CommandLine.arguments
let portText = arguments.count > 1 ? arguments[1] : ProcessInfo.processInfo.environment["HB_PORT"]
guard let port = Int(portText ?? "8080"), (1...65535).contains(port) else {
    FileHandle.standardError.write("usage: hb-healthz [PORT] (or HB_PORT=PORT)\n".data(using: .utf8)!)
    exit(64)
}

// The body is the same bytes bgemu sends; built once, so each response only copies a reference.
let body = ByteBuffer(string: #"{"status":"ok"}"#)

let router = Router()
router.get("healthz") { _, _ -> Response in
    Response(
        status: .ok,
        headers: [.contentType: "application/json"],
        body: .init(byteBuffer: body)
    )
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
    onServerRunning: { _ in
        FileHandle.standardOutput.write("hb-healthz listening on http://127.0.0.1:\(port)\n".data(using: .utf8)!)
    }
)
try await app.runService()
