import Foundation

/// What a forecast prepares once for all its devices: the validated app, the kinds it reports, the fleet's pushes.
struct ForecastPlan: Sendable {
    let request: ForecastRequest
    /// The app as the `apps` route would install it, with the behaviour the forecast scripts.
    let app: App
    let kinds: [RunKind]
    /// The fleet's pushes, by number: when (milliseconds after the start) and the request APNs hands over.
    let pushes: [ForecastPush]

    init(_ request: ForecastRequest) throws {
        self.request = request
        var app = try request.app.installation.validated(installedAt: .defaultStart)
        app.behavior = request.app.resolvedBehavior
        self.app = app
        kinds = request.app.reportedKinds
        pushes = ForecastTimeline.pushTimes(request, days: request.days).enumerated().map { n, push in
            ForecastPush(number: n, at: push.at, schedule: request.pushes[push.schedule], bundleId: request.app.bundleId)
        }
    }
}

/// One push of the fleet, as the provider sends it.
struct ForecastPush: Sendable {
    let at: Int64
    let request: PushRequest

    init(number: Int, at: Int64, schedule: ForecastPushSchedule, bundleId: String) {
        self.at = at
        let hex = String(UInt64(number), radix: 16)
        let apnsId = "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        let alert = schedule.priority == 10
        let payload = alert ? #"{"aps":{"content-available":1,"alert":{"title":"Update"}}}"# : #"{"aps":{"content-available":1}}"#
        let sent = VirtualInstant.defaultStart.milliseconds + at
        request = PushRequest(
            apnsId: apnsId, payload: Array(payload.utf8), topic: bundleId, pushType: alert ? "alert" : "background",
            priority: alert ? "10" : "5",
            expiration: schedule.expirationSeconds.map { String((sent + Int64($0 * 1000)) / 1000) })
    }
}
