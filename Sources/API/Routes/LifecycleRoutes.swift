import Emulation
import HTTPServer

/// What the user and the system do to an app: `launch`, `background`, `foreground`, `force-quit`, `terminate`.
/// Each answers the app's new representation; the delegate callbacks are events.
enum LifecycleRoutes {
    static let actions: [(path: String, act: @Sendable (inout DeviceEngine, String) throws -> Void)] = [
        ("launch", { try $0.launch($1) }),
        ("background", { try $0.background($1) }),
        ("foreground", { try $0.foreground($1) }),
        ("force-quit", { try $0.forceQuit($1) }),
        ("terminate", { try $0.terminate($1) }),
    ]

    static func register(on router: inout Router, _ env: APIEnvironment) {
        for action in actions {
            router.post("/v1/devices/{deviceId}/apps/{bundleId}/\(action.path)") { _, context in
                let bundleId = context.parameters["bundleId"] ?? ""
                let (device, _) = try env.devices.perform(for: context) {
                    engine in try action.act(&engine, bundleId)
                }
                return try AppRoutes.appResponse(device, bundleId, env)
            }
        }
    }
}
