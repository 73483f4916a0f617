import Emulation
import HTTPServer

/// What the user and the system do to an app: `launch`, `background`, `foreground`, `force-quit`, `terminate`.
/// Each answers the app's new representation; the delegate callbacks are events.
enum LifecycleRoutes {
    static let actions: [(path: String, command: @Sendable (String) -> DeviceCommand)] = [
        ("background", { .background(bundleId: $0) }),
        ("foreground", { .foreground(bundleId: $0) }),
        ("force-quit", { .forceQuit(bundleId: $0) }),
        ("terminate", { .terminate(bundleId: $0) }),
    ]

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        // A launch may say what the app's launch registered (R16): a client running the app's own code knows it.
        routes.post("/devices/{deviceId}/apps/{bundleId}/launch") { request, context in
            let bundleId = try context.parameters.require("bundleId")
            let body = request.body.isEmpty ? nil : try JSONBody.decode(LaunchRequest.self, from: request)
            let (device, _) = try env.devices.perform(LaunchRequest.command(body, bundleId: bundleId), for: context)
            return try AppRoutes.appResponse(device, bundleId, env)
        }
        for action in actions {
            routes.post("/devices/{deviceId}/apps/{bundleId}/\(action.path)") { _, context in
                let bundleId = try context.parameters.require("bundleId")
                let (device, _) = try env.devices.perform(action.command(bundleId), for: context)
                return try AppRoutes.appResponse(device, bundleId, env)
            }
        }
    }
}
