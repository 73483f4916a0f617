import Emulation
import HTTPServer

/// `…/apps/{bundleId}/notifications`: local notifications (R40).
enum NotificationRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/notifications"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post(base) { request, context in
            let body = try JSONBody.decode(ScheduleNotificationRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(body.command(bundleId: bundleId), for: context)
            let notification = try outcome.value(\.notification)
            return try JSONBody.response(
                NotificationBody(notification: notification), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "notifications", notification.identifier)])
        }

        routes.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            let pending = app.runtime.notifications ?? []
            return try JSONBody.response(PageBody(items: pending.map(NotificationBody.init), nextCursor: nil))
        }

        routes.delete(base + "/{identifier}") { _, context in
            try env.devices.perform(
                .cancelNotification(bundleId: context.parameters.require("bundleId"), identifier: context.parameters.require("identifier")),
                for: context)
            return HTTPResponse(status: .noContent)
        }
    }
}
