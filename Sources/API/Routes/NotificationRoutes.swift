import Emulation
import HTTPServer

/// `…/apps/{bundleId}/notifications`: local notifications (R40).
enum NotificationRoutes {
    static let base = "/v1/devices/{deviceId}/apps/{bundleId}/notifications"

    static func register(on router: inout Router, _ env: APIEnvironment) {
        router.post(base) { request, context in
            let body = try JSONBody.decode(ScheduleNotificationRequest.self, from: request)
            let bundleId = context.parameters["bundleId"] ?? ""
            let (device, notification) = try env.devices.perform(for: context) { engine in
                let notification = try body.notification(scheduledAt: engine.now)
                try engine.scheduleNotification(bundleId, notification)
                return notification
            }
            return try JSONBody.response(
                NotificationBody(notification: notification), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "notifications", notification.identifier)])
        }

        router.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            let pending = app.runtime.notifications ?? []
            return try JSONBody.response(PageBody(items: pending.map(NotificationBody.init), nextCursor: nil))
        }

        router.delete(base + "/{identifier}") { _, context in
            try env.devices.perform(for: context) { engine in
                try engine.cancelNotification(context.parameters["bundleId"] ?? "", identifier: context.parameters["identifier"] ?? "")
            }
            return HTTPResponse(status: .noContent)
        }
    }
}
