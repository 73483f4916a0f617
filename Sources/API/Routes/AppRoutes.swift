import Emulation
import HTTPServer

/// `/v1/devices/{deviceId}/apps/…`: installing, reading and configuring apps.
enum AppRoutes {
    /// The most apps one device holds.
    static let maximumApps = 200

    static func register(on router: inout Router, _ env: APIEnvironment) {
        router.post("/v1/devices/{deviceId}/apps") { request, context in
            let installation = try installation(from: request)
            let (_, app) = try env.devices.modify(deviceId(context), tenantId: try context.tenant().id) { device in
                if device.app(installation.bundleId) != nil {
                    throw EmulationError.conflict(
                        code: "alreadyInstalled", detail: "\(installation.bundleId) is installed on this device already.")
                }
                if device.apps.count >= maximumApps {
                    throw EmulationError.conflict(code: "tooManyApps", detail: "A device holds at most \(maximumApps) apps.")
                }
                let app = try installation.validated(installedAt: device.clock.now(wallMilliseconds: env.wallMilliseconds))
                device.apps.append(app)
                return app
            }
            return try JSONBody.response(
                AppBody(app: app), status: .created,
                headers: ["Location": "/v1/devices/\(try deviceId(context))/apps/\(app.bundleId)"])
        }

        router.get("/v1/devices/{deviceId}/apps") { request, context in
            let paging = try Pagination(request)
            let device = try env.devices.device(deviceId(context), tenantId: try context.tenant().id)
            let page = try paging.page(of: device.apps)
            return try JSONBody.response(PageBody(items: page.items.map { AppBody(app: $0) }, nextCursor: page.nextCursor))
        }

        router.get("/v1/devices/{deviceId}/apps/{bundleId}") { _, context in
            let device = try env.devices.device(deviceId(context), tenantId: try context.tenant().id)
            return try JSONBody.response(AppBody(app: try app(context, in: device)))
        }

        router.delete("/v1/devices/{deviceId}/apps/{bundleId}") { _, context in
            _ = try env.devices.modify(deviceId(context), tenantId: try context.tenant().id) { device in
                let bundleId = try app(context, in: device).bundleId
                device.apps.removeAll { $0.bundleId == bundleId }
            }
            return HTTPResponse(status: .noContent)
        }

        router.get("/v1/devices/{deviceId}/apps/{bundleId}/background-modes") { _, context in
            let device = try env.devices.device(deviceId(context), tenantId: try context.tenant().id)
            return try JSONBody.response(BackgroundModesBody(try app(context, in: device).manifest.backgroundModes))
        }

        router.put("/v1/devices/{deviceId}/apps/{bundleId}/background-modes") { request, context in
            let body = try JSONBody.decode(BackgroundModesBody.self, from: request)
            let modes: [BackgroundMode]
            switch BackgroundMode.validate(body.backgroundModes) {
            case .success(let valid): modes = valid
            case .failure(let failure):
                throw EmulationError.invalid(failure.issues.map { FieldIssue("backgroundModes" + $0.field, $0.message) })
            }
            _ = try env.devices.modify(deviceId(context), tenantId: try context.tenant().id) { device in
                let bundleId = try app(context, in: device).bundleId
                let index = device.apps.firstIndex { $0.bundleId == bundleId }!
                device.apps[index].manifest.backgroundModes = modes
            }
            return try JSONBody.response(BackgroundModesBody(modes))
        }

        router.patch("/v1/devices/{deviceId}/apps/{bundleId}/settings") { request, context in
            let patch = try JSONBody.decode(SettingsPatch.self, from: request)
            let (_, settings) = try env.devices.modify(deviceId(context), tenantId: try context.tenant().id) { device in
                let bundleId = try app(context, in: device).bundleId
                let index = device.apps.firstIndex { $0.bundleId == bundleId }!
                if let refresh = patch.backgroundAppRefresh { device.apps[index].settings.backgroundAppRefresh = refresh }
                return device.apps[index].settings
            }
            return try JSONBody.response(settings)
        }
    }

    static func deviceId(_ context: HTTPRequestContext) throws -> String { context.parameters["deviceId"] ?? "" }

    static func app(_ context: HTTPRequestContext, in device: Device) throws -> App {
        let bundleId = context.parameters["bundleId"] ?? ""
        guard let app = device.app(bundleId) else { throw EmulationError.notFound(kind: "app", id: bundleId) }
        return app
    }

    /// The installation a request describes: JSON, or a real Info.plist (XML or binary).
    static func installation(from request: HTTPRequest) throws -> AppInstallation {
        switch JSONBody.mediaType(request) {
        case "application/x-plist", "application/xml", "text/xml", "application/octet-stream":
            if request.body.isEmpty { throw Problems.malformed("The request needs an Info.plist body.") }
            let plist = try InfoPlist.parse(request.body)
            let handlers = request.queryValue("launchHandlers").map {
                $0.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
            }
            return AppInstallation(plist, launchHandlers: handlers, fieldPrefix: "")
        default:
            guard JSONBody.isJSON(request) else {
                throw Problems.unsupportedMediaType(["application/json", "application/x-plist"], method: request.method)
            }
            if request.queryValue("launchHandlers") != nil {
                throw Problems.invalid("launchHandlers", "goes in the JSON body; the query parameter is for Info.plist uploads")
            }
            return try JSONBody.decode(InstallAppRequest.self, bytes: request.body).installation()
        }
    }
}
