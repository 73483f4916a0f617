import Emulation
import HTTPServer

/// `…/apps/{bundleId}/url-sessions` and `…/transfers`: background `URLSession`s (R32–R34).
enum URLSessionRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/url-sessions"
    static let transfers = "/devices/{deviceId}/apps/{bundleId}/transfers"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post(base) { request, context in
            let body = try JSONBody.decode(MakeURLSessionRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(body.command(bundleId: bundleId), for: context)
            let created = try outcome.value(\.sessionCreated)
            let session = try session(device.app(bundleId), body.identifier)
            return try JSONBody.response(
                URLSessionBody(session: session), status: created ? .created : .ok,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "url-sessions", body.identifier)])
        }

        routes.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            return try JSONBody.response(PageBody(items: app.runtime.urlSessions.map(URLSessionBody.init), nextCursor: nil))
        }

        routes.get(base + "/{identifier}") { _, context in
            let app = try AppRoutes.app(context, env)
            return try JSONBody.response(URLSessionBody(session: try session(app, context.parameters.require("identifier"))))
        }

        routes.post(base + "/{identifier}/transfers") { request, context in
            let body = try JSONBody.decode(EnqueueTransferRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(
                body.command(bundleId: bundleId, session: context.parameters.require("identifier")), for: context)
            let transfer = try outcome.value(\.transfer)
            return try JSONBody.response(
                TransferBody(transfer: transfer, now: device.clock.anchor), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "transfers", transfer.id)])
        }

        routes.get(base + "/{identifier}/transfers") { request, context in
            let identifier = try context.parameters.require("identifier")
            let (app, now) = try appAndNow(context, env)
            _ = try session(app, identifier)
            return try page(app.runtime.transfers.filter { $0.session == identifier }, now: now, request)
        }

        routes.post(base + "/{identifier}/finish-events") { _, context in
            let bundleId = try context.parameters.require("bundleId")
            let (_, outcome) = try env.devices.perform(
                .finishURLSessionEvents(bundleId: bundleId, session: context.parameters.require("identifier")), for: context)
            return try JSONBody.response(RunBody(run: try outcome.value(\.run)))
        }

        routes.get(transfers) { request, context in
            let (app, now) = try appAndNow(context, env)
            return try page(app.runtime.transfers, now: now, request)
        }

        routes.get(transfers + "/{transferId}") { _, context in
            let (app, now) = try appAndNow(context, env)
            let id = try context.parameters.require("transferId")
            guard let transfer = app.runtime.transfers.first(where: { $0.id == id }) else {
                throw EmulationError.notFound(kind: "transfer", id: id)
            }
            return try JSONBody.response(TransferBody(transfer: transfer, now: now))
        }

        routes.delete(transfers + "/{transferId}") { _, context in
            let (device, outcome) = try env.devices.perform(
                .cancelTransfer(bundleId: context.parameters.require("bundleId"), transferId: context.parameters.require("transferId")),
                for: context)
            return try JSONBody.response(TransferBody(transfer: try outcome.value(\.transfer), now: device.clock.anchor))
        }
    }

    private static func session(_ app: App?, _ identifier: String) throws -> BackgroundURLSession {
        guard let session = app?.runtime.urlSessions.first(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "urlSession", id: identifier)
        }
        return session
    }

    /// The app the route names and the device's virtual now (a realtime clock read at wall time).
    private static func appAndNow(_ context: HTTPRequestContext, _ env: APIEnvironment) throws -> (App, VirtualInstant) {
        let device = try env.devices.device(for: context)
        let app = try AppRoutes.app(context, env)
        return (app, max(device.clock.anchor, device.clock.now(wallMilliseconds: env.wallMilliseconds)))
    }

    private static func page(_ transfers: [Transfer], now: VirtualInstant, _ request: HTTPRequest) throws -> HTTPResponse {
        let paging = try Pagination(request)
        let page = try paging.page(of: transfers)
        return try JSONBody.response(PageBody(items: page.items.map { TransferBody(transfer: $0, now: now) }, nextCursor: page.nextCursor))
    }
}
