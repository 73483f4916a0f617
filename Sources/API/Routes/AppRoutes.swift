import Emulation
import HTTPServer

/// `/v1/devices/{deviceId}/apps/…`: installing, reading and configuring apps.
enum AppRoutes {
    /// The most apps one device holds.
    static let maximumApps = 200

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/devices/{deviceId}/apps") { request, context in
            let (installation, behavior) = try AppUpload.installation(from: request)
            let (device, app) = try env.devices.perform(for: context) { engine in
                if engine.device.apps.count >= maximumApps, engine.device.app(installation.bundleId) == nil {
                    throw EmulationError.conflict(code: "tooManyApps", detail: "A device holds at most \(maximumApps) apps.")
                }
                var app = try installation.validated(installedAt: engine.now)
                app.behavior = behavior
                try engine.install(app)
                return app
            }
            return try appResponse(device, app.bundleId, env, status: .created,
                                   headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: app.bundleId)])
        }

        routes.get("/devices/{deviceId}/apps") { request, context in
            let paging = try Pagination(request)
            let device = try env.devices.device(for: context)
            let page = try paging.page(of: device.apps)
            let now = device.clock.now(wallMilliseconds: env.wallMilliseconds)
            return try JSONBody.response(
                PageBody(items: page.items.map { AppBody($0, on: device, now: now) }, nextCursor: page.nextCursor))
        }

        routes.get("/devices/{deviceId}/apps/{bundleId}") { _, context in
            let device = try env.devices.device(for: context)
            return try appResponse(device, try bundleId(context, in: device), env)
        }

        routes.delete("/devices/{deviceId}/apps/{bundleId}") { _, context in
            try env.devices.perform(for: context) { engine in
                try engine.uninstall(context.parameters.require("bundleId"))
            }
            return HTTPResponse(status: .noContent)
        }

        routes.get("/devices/{deviceId}/apps/{bundleId}/background-modes") { _, context in
            return try JSONBody.response(BackgroundModesBody(try app(context, env).manifest.backgroundModes))
        }

        routes.put("/devices/{deviceId}/apps/{bundleId}/background-modes") { request, context in
            let body = try JSONBody.decode(BackgroundModesBody.self, from: request)
            let modes: [BackgroundMode]
            switch BackgroundMode.validate(body.backgroundModes) {
            case .success(let valid): modes = valid
            case .failure(let failure):
                throw EmulationError.invalid(failure.issues.map { FieldIssue("backgroundModes" + $0.field, $0.message) })
            }
            try env.devices.perform(for: context) { engine in
                try engine.setBackgroundModes(context.parameters.require("bundleId"), modes)
            }
            return try JSONBody.response(BackgroundModesBody(modes))
        }

        routes.patch("/devices/{deviceId}/apps/{bundleId}/settings") { request, context in
            let patch = try JSONBody.decode(SettingsPatch.self, from: request)
            let (_, settings) = try env.devices.perform(for: context) { engine in
                let bundleId = try context.parameters.require("bundleId")
                var settings = try require(engine.device.app(bundleId), or: bundleId).settings
                if let refresh = patch.backgroundAppRefresh { settings.backgroundAppRefresh = refresh }
                try engine.setAppSettings(bundleId, settings)
                return settings
            }
            return try JSONBody.response(settings)
        }
    }

    /// The app the route names, on the tenant's device, or `notFound`.
    static func app(_ context: HTTPRequestContext, _ env: APIEnvironment) throws -> App {
        let device = try env.devices.device(for: context)
        return try require(device.app(try bundleId(context, in: device)), or: "")
    }

    static func bundleId(_ context: HTTPRequestContext, in device: Device) throws -> String {
        let bundleId = try context.parameters.require("bundleId")
        guard device.app(bundleId) != nil else { throw EmulationError.notFound(kind: "app", id: bundleId) }
        return bundleId
    }

    /// The app's representation as the device has it now.
    static func appResponse(
        _ device: Device, _ bundleId: String, _ env: APIEnvironment, status: HTTPStatus = .ok,
        headers: HTTPHeaders = HTTPHeaders()
    ) throws -> HTTPResponse {
        guard let app = device.app(bundleId) else { throw EmulationError.notFound(kind: "app", id: bundleId) }
        let now = device.clock.now(wallMilliseconds: env.wallMilliseconds)
        return try JSONBody.response(AppBody(app, on: device, now: now), status: status, headers: headers)
    }
}

/// The installed app, or `notFound`.
func require(_ app: App?, or bundleId: String) throws -> App {
    guard let app else { throw EmulationError.notFound(kind: "app", id: bundleId) }
    return app
}
