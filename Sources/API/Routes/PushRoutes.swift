import Emulation
import Foundation
import HTTPServer

/// `POST /v1/devices/{deviceId}/push`: APNs delivers a push to the device (R29–R31). The body is the APNs
/// payload (or a `simctl push` file), the `apns-*` headers are APNs's.
enum PushRoutes {
    /// The headers APNs reads; each may come once (APNs answers `DuplicateHeaders` otherwise).
    static let headerNames = ["apns-id", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id"]

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/devices/{deviceId}/push") { request, context in
            let apnsId = request.headers["apns-id"] ?? UUID().uuidString
            if let twice = headerNames.first(where: { request.headers.values($0).count > 1 }) {
                throw Problems.push(PushRejection(400, "DuplicateHeaders", "\(twice) is sent more than once."), apnsId: apnsId)
            }
            let push = PushRequest(
                apnsId: apnsId, payload: request.body, topic: request.headers["apns-topic"],
                pushType: request.headers["apns-push-type"], priority: request.headers["apns-priority"],
                expiration: request.headers["apns-expiration"], collapseId: request.headers["apns-collapse-id"])
            do {
                let (_, outcome) = try env.devices.perform(.push(push), for: context)
                let delivered = try outcome.value(\.push)
                return try JSONBody.response(PushOutcomeBody(outcome: delivered), headers: ["apns-id": delivered.apnsId])
            } catch let rejection as PushRejection {
                throw Problems.push(rejection, apnsId: apnsId)
            }
        }
    }
}
