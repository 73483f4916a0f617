import Emulation
import HTTPServer

/// What the user and the system do to an app: `launch`, `background`, `foreground`, `force-quit`, `terminate`.
/// Each answers the app's new representation; the delegate callbacks are events.
enum LifecycleRoutes {
    static let actions: [(path: String, act: @Sendable (inout DeviceEngine, String) throws -> Void)] = [
        ("background", { try $0.background($1) }),
        ("foreground", { try $0.foreground($1) }),
        ("force-quit", { try $0.forceQuit($1) }),
        ("terminate", { try $0.terminate($1) }),
    ]

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        // A launch may say what the app's launch registered (R16): a client running the app's own code knows it.
        routes.post("/devices/{deviceId}/apps/{bundleId}/launch") { request, context in
            let bundleId = try context.parameters.require("bundleId")
            let handlers = request.body.isEmpty ? nil : try JSONBody.decode(LaunchRequest.self, from: request).launchHandlers
            let (device, _) = try env.devices.perform(for: context) { engine in
                try engine.launch(bundleId, registering: handlers)
            }
            return try AppRoutes.appResponse(device, bundleId, env)
        }
        for action in actions {
            routes.post("/devices/{deviceId}/apps/{bundleId}/\(action.path)") { _, context in
                let bundleId = try context.parameters.require("bundleId")
                let (device, _) = try env.devices.perform(for: context) {
                    engine in try action.act(&engine, bundleId)
                }
                return try AppRoutes.appResponse(device, bundleId, env)
            }
        }
    }
}
