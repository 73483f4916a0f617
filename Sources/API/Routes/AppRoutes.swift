import Emulation
import HTTPServer

/// `/v1/devices/{deviceId}/apps/…`: installing, reading and configuring apps.
enum AppRoutes {
    /// The most apps one device holds.
    static let maximumApps = 200

    /// An upload's inspection (its body inflated, its archive read, its plist parsed), run before the install's
    /// write (see ``PreparationMiddleware``).
    static let preparation = RoutePreparation(
        .post, "/v1/devices/{deviceId}/apps", contentLimit: AppUpload.decodedContentLimit
    ) { request in
        try AppUpload.Prepared(AppUpload.installation(from: request))
    }

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/devices/{deviceId}/apps") { request, context in
            let (installation, behavior) = try context.prepared(AppUpload.Prepared.self)?.value
                ?? AppUpload.installation(from: request)
            let (device, outcome) = try env.devices.perform(
                .install(installation, behavior: behavior, maximumApps: maximumApps), for: context)
            let app = try outcome.value(\.app)
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
            try env.devices.perform(.uninstall(bundleId: context.parameters.require("bundleId")), for: context)
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
            try env.devices.perform(.setBackgroundModes(bundleId: context.parameters.require("bundleId"), modes), for: context)
            return try JSONBody.response(BackgroundModesBody(modes))
        }

        routes.patch("/devices/{deviceId}/apps/{bundleId}/settings") { request, context in
            let patch = try JSONBody.decode(SettingsPatch.self, from: request)
            let (_, outcome) = try env.devices.perform(patch.command(bundleId: context.parameters.require("bundleId")), for: context)
            return try JSONBody.response(try outcome.value(\.settings))
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
