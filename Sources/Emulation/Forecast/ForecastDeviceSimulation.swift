import Foundation

/// Runs one synthetic device: a `Device` and a `DeviceEngine` in memory, driven through its timeline with the
/// engine's public calls. The engine's events are read as they are produced (runs, pushes) and dropped; no log is
/// kept.
struct ForecastDeviceSimulation {
    /// The row, and the delays of the pushes delivered on the device (milliseconds), for the fleet's percentiles.
    struct Outcome: Sendable {
        var row: ForecastDeviceRow
        var pushDelays: [Int64]
    }

    private let plan: ForecastPlan
    private let person: ForecastPerson
    private let timeline: ForecastTimeline
    private var engine: DeviceEngine
    private var installed = false
    private var runs: [RunKind: ForecastDeviceRuns] = [:]
    private var whyNot: [RunKind: ForecastWhyNot] = [:]
    private var pushes = ForecastDevicePushes()
    private var pushSent: [String: VirtualInstant] = [:]
    private var deferredPushes: Set<String> = []
    private var pushDelays: [Int64] = []
    private var prediction = ForecastPredictionCache()
    private var lastSample: VirtualInstant?

    static func run(_ plan: ForecastPlan, device index: Int) -> Outcome {
        var simulation = ForecastDeviceSimulation(plan, device: index)
        simulation.run()
        return simulation.outcome(index)
    }

    private init(_ plan: ForecastPlan, device index: Int) {
        self.plan = plan
        person = ForecastPerson.draw(plan.request, device: index)
        timeline = ForecastTimeline.build(plan.request, person)
        engine = DeviceEngine(device: Forecast.device(plan.request, index: index, person: person, timeline: timeline))
        for kind in plan.kinds {
            runs[kind] = ForecastDeviceRuns()
            whyNot[kind] = ForecastWhyNot()
        }
        if !plan.pushes.isEmpty { runs[.remoteNotification] = ForecastDeviceRuns() }
    }

    private mutating func run() {
        for action in timeline.actions {
            advance(to: action.at)
            apply(action.command)
            consumeEvents()
        }
        advance(to: timeline.end)
    }

    private mutating func apply(_ command: ForecastCommand) {
        let bundleId = plan.app.bundleId
        switch command {
        case .install:
            var app = plan.app
            app.installedAt = engine.now
            try? engine.install(app)
            if person.appBackgroundAppRefreshOff {
                try? engine.setAppSettings(bundleId, AppSettings(backgroundAppRefresh: false))
            }
            installed = true
        case .open:
            try? engine.launch(bundleId)
            for submission in plan.request.app.atLaunch.submit {
                try? engine.submit(bundleId, submission.request(at: engine.now))
            }
            if let interval = plan.request.app.atLaunch.fetchInterval { try? engine.setFetchInterval(bundleId, interval) }
        case .leave(let forceQuit):
            if forceQuit { try? engine.forceQuit(bundleId) } else { try? engine.background(bundleId) }
        case .conditions(let conditions):
            engine.setConditions(conditions)
        case .push(let n):
            _ = try? engine.receivePush(plan.pushes[n].request)
            pushes.sent += 1
        }
    }

    /// The least time between two sampled opportunities: one an hour (of the four at the iOS 13 cadence, R26)
    /// weighs the conditions as well as all of them, at a quarter of the cost.
    static let sampleSpacing = VirtualDuration(seconds: 3600)

    /// Advances to `target`; while a reported kind has not run yet, stops just before an opportunity an hour to
    /// sample its conditions (`ForecastWhyNot`).
    private mutating func advance(to target: VirtualInstant) {
        while installed, runs.contains(where: { whyNot[$0.key] != nil && $0.value.started == 0 }),
            let due = nextSampledOpportunity(by: target)
        {
            let before = due - VirtualDuration(milliseconds: 1)
            if before > engine.now {
                _ = try? engine.advance(to: before)
                consumeEvents()
            }
            sample()
            lastSample = due
            _ = try? engine.advance(to: due)
            consumeEvents()
        }
        if target > engine.now { _ = try? engine.advance(to: target) }
        consumeEvents()
    }

    /// The first opportunity by `target` at least `sampleSpacing` after the last sampled one; the ones before it
    /// fire in an ordinary advance. Opportunities come from the engine's own timer.
    private mutating func nextSampledOpportunity(by target: VirtualInstant) -> VirtualInstant? {
        while let due = engine.device.runtime.timers.first(where: { $0.kind == .opportunity })?.due, due <= target {
            if let last = lastSample, due < last + Self.sampleSpacing {
                _ = try? engine.advance(to: min(target, last + Self.sampleSpacing - VirtualDuration(milliseconds: 1)))
                consumeEvents()
                continue
            }
            return due
        }
        return nil
    }

    private mutating func sample() {
        guard let i = engine.device.appSlot(plan.app.bundleId) else { return }
        let predicted = prediction.next(engine, i)
        for kind in plan.kinds where runs[kind]?.started == 0 {
            let submission = plan.request.app.atLaunch.submit.first { $0.kind.rawValue == kind.rawValue }
            whyNot[kind]?.count(engine.forecastUnmetConditions(i, kind, submission: submission, predicted: predicted))
        }
    }

    /// Reads the app's runs and pushes from the engine's new events, then drops them.
    private mutating func consumeEvents() {
        let bundleId = plan.app.bundleId
        for event in engine.events where event.bundleId == bundleId {
            let type = event.type
            if type == .runStarted {
                guard let kind = event.data["kind"]?.stringValue.flatMap(RunKind.init(rawValue:)), runs[kind] != nil else { continue }
                runs[kind]!.started += 1
                if runs[kind]!.firstRunDelaySeconds == nil {
                    runs[kind]!.firstRunDelaySeconds = (event.at - timeline.installAt).seconds
                }
            } else if type == .runExpired {
                guard let kind = event.data["kind"]?.stringValue.flatMap(RunKind.init(rawValue:)), runs[kind] != nil else { continue }
                runs[kind]!.expired += 1
            } else if type == .pushReceived || type == .pushDelivered || type == .pushDeferred || type == .pushCoalesced
                || type == .pushDropped
            {
                guard let apnsId = event.data["apnsId"]?.stringValue else { continue }
                tallyPush(type, apnsId, at: event.at)
            }
        }
        engine.events.removeAll(keepingCapacity: true)
    }

    private mutating func tallyPush(_ type: EventType, _ apnsId: String, at: VirtualInstant) {
        switch type {
        case .pushReceived:
            pushSent[apnsId] = at
        case .pushDelivered:
            if deferredPushes.remove(apnsId) != nil {
                pushes.deliveredLater += 1
            } else {
                pushes.deliveredAtOnce += 1
            }
            pushDelays.append((at - (pushSent[apnsId] ?? at)).milliseconds)
        case .pushDeferred:
            pushes.deferred += 1
            deferredPushes.insert(apnsId)
        case .pushCoalesced:
            deferredPushes.remove(apnsId)
            pushes.coalesced += 1
        default:  // dropped
            deferredPushes.remove(apnsId)
            pushes.dropped += 1
        }
    }

    private func outcome(_ index: Int) -> Outcome {
        var rows: [String: ForecastDeviceRuns] = [:]
        for (kind, var tally) in runs {
            if tally.started == 0, let why = whyNot[kind] { tally.whyNot = why.blocker }
            rows[kind.rawValue] = tally
        }
        var pushes = self.pushes
        pushes.pending = deferredPushes.count
        let opens = timeline.actions.filter { $0.command == .open }.count
        return Outcome(
            row: ForecastDeviceRow(
                device: index, person: person, installedAtSeconds: (timeline.installAt - timeline.start).seconds,
                opens: opens, runs: rows, pushes: plan.pushes.isEmpty ? nil : pushes),
            pushDelays: pushDelays)
    }
}
