/// Runs: every grant of background time, its deadline and its end (R3, R22, R23).
extension DeviceEngine {
    /// The app reports the end of a run: `setTaskCompleted(success:)` or the fetch completion handler (R23).
    public mutating func completeRun(_ bundleId: String, runId: String, result: RunResult) throws {
        let i = try slot(of: bundleId)
        guard let r = device.apps[i].runtime.runs.firstSlot(where: { $0.id == runId }) else {
            throw EmulationError.notFound(kind: "run", id: runId)
        }
        let run = device.apps[i].runtime.runs[r]
        guard run.isOpen else {
            throw EmulationError.conflict(code: "runNotOpen", detail: "\(runId) is \(run.state.rawValue) already.")
        }
        let expected: [RunResult] = run.kind.takesFetchResult ? [.newData, .noData, .failed] : [.success, .failure]
        guard expected.contains(result) else {
            throw EmulationError.unprocessable(
                field: "result", detail: "\(run.kind.rawValue.withIndefiniteArticle()) run ends with \(expected.map(\.rawValue).joined(separator: ", "))")
        }
        finishRun(i, r, result: result)
    }

    /// Grants background time: a terminated app is launched into the background, a suspended one resumed (R3).
    @discardableResult
    mutating func startRun(
        _ i: AppSlot, kind: RunKind, reason: String, identifier: String? = nil, duration: VirtualDuration,
        requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false, extra: [String: EventValue] = [:]
    ) -> Run {
        let bundleId = device.apps[i].bundleId
        let launched = device.apps[i].state == .notRunning
        switch device.apps[i].state {
        case .notRunning:
            setState(i, .background, cause: kind.rawValue)
            delegate(i, .didFinishLaunching, ["launchedBy": "system", "reason": .string(kind.rawValue)])
        case .suspended:
            setState(i, .background, cause: kind.rawValue)
        case .active, .inactive, .background:
            break
        }
        let run = Run(
            id: newRunId(), kind: kind, reason: reason, identifier: identifier, startedAt: now, deadline: now + duration,
            launchedApp: launched, requiresExternalPower: requiresExternalPower,
            requiresNetworkConnectivity: requiresNetworkConnectivity)
        device.apps[i].runtime.runs.append(run)
        trimRunHistory(i)
        var data = extra
        data.reserveCapacity(extra.count + 6)  // one allocation, not a rehash per member (the JSON sorts the keys)
        data["runId"] = .string(run.id)
        data["kind"] = .string(kind.rawValue)
        data["reason"] = .string(reason)
        data["identifier"] = .optional(identifier)
        data["deadline"] = .instant(run.deadline)
        data["launchedApp"] = .bool(launched)
        emit(.runStarted, bundleId: bundleId, data: data)
        schedule(.runDeadline(bundleId: bundleId, runId: run.id), at: run.deadline)
        if let script = device.apps[i].script(kind), let after = script.completeAfter {
            schedule(.scriptedRunCompletion(bundleId: bundleId, runId: run.id), at: now + after)
        }
        return run
    }

    /// Ends an open run with `result` and lets the app suspend if nothing else holds it (R23).
    mutating func finishRun(_ i: AppSlot, _ r: ListSlot<Run>, result: RunResult) {
        let bundleId = device.apps[i].bundleId
        let run = device.apps[i].runtime.runs[r]
        device.apps[i].runtime.runs[r].state = .completed
        device.apps[i].runtime.runs[r].result = result
        device.apps[i].runtime.runs[r].endedAt = now
        cancelTimers { kind in
            kind == .runDeadline(bundleId: bundleId, runId: run.id) || kind == .runGraceEnd(bundleId: bundleId, runId: run.id)
                || kind == .scriptedRunCompletion(bundleId: bundleId, runId: run.id)
        }
        emit(.runCompleted, bundleId: bundleId, data: [
            "runId": .string(run.id), "kind": .string(run.kind.rawValue), "result": .string(result.rawValue),
            "duration": .seconds(now - run.startedAt), "afterExpiration": .bool(run.state == .expiring),
            "reason": "reported",
        ])
        scoreCompletion(i, run: run)
        settle(i)
        if run.kind == .continuedProcessing { startQueuedContinuedProcessing(i) }  // R41
    }

    /// R38: a wake with no completion handler is over at its deadline; the app is suspended unless something
    /// else (a background task begun meanwhile) holds it. No result was reported.
    private mutating func endWake(_ i: AppSlot, _ r: ListSlot<Run>) {
        let bundleId = device.apps[i].bundleId
        let run = device.apps[i].runtime.runs[r]
        device.apps[i].runtime.runs[r].state = .completed
        device.apps[i].runtime.runs[r].endedAt = now
        cancelTimers { kind in
            kind == .runDeadline(bundleId: bundleId, runId: run.id) || kind == .scriptedRunCompletion(bundleId: bundleId, runId: run.id)
        }
        emit(.runCompleted, bundleId: bundleId, data: [
            "runId": .string(run.id), "kind": .string(run.kind.rawValue), "result": .null,
            "duration": .seconds(now - run.startedAt), "afterExpiration": false, "reason": "wakeEnded",
        ])
        settle(i)
    }

    /// R22: the deadline passed; the expiration handler is called and the grace period starts. A wake with no
    /// completion handler just ends instead (R38).
    mutating func runDeadlinePassed(_ bundleId: String, runId: String, reason: String = "deadline") {
        guard let i = device.appSlot(bundleId),
            let r = device.apps[i].runtime.runs.firstSlot(where: { $0.id == runId && $0.state == .running })
        else { return }
        if device.apps[i].runtime.runs[r].kind.endsBySuspension, reason == "deadline" {
            endWake(i, r)
            return
        }
        device.apps[i].runtime.runs[r].state = .expiring
        cancelTimers { $0 == .runDeadline(bundleId: bundleId, runId: runId) }
        emit(.runExpiring, bundleId: bundleId, data: ["runId": .string(runId), "reason": .string(reason)])
        schedule(.runGraceEnd(bundleId: bundleId, runId: runId), at: now + policy.runExpirationGrace)
    }

    /// R22: still not completed after the grace period: marked failed, and the app is terminated.
    mutating func runGraceEnded(_ bundleId: String, runId: String) {
        guard let i = device.appSlot(bundleId),
            let r = device.apps[i].runtime.runs.firstSlot(where: { $0.id == runId && $0.isOpen })
        else { return }
        let run = device.apps[i].runtime.runs[r]
        device.apps[i].runtime.runs[r].state = .expired
        device.apps[i].runtime.runs[r].result = .failure
        device.apps[i].runtime.runs[r].endedAt = now
        cancelTimers { $0 == .scriptedRunCompletion(bundleId: bundleId, runId: runId) }
        emit(.runExpired, bundleId: bundleId, data: [
            "runId": .string(runId), "kind": .string(run.kind.rawValue), "reason": "notCompleted", "result": "failure",
        ])
        scoreExpiration(i)
        if device.apps[i].isRunning, device.apps[i].state != .active {
            terminate(i, reason: "watchdog", tellApp: false, extra: ["terminationCode": "0x8badf00d", "runId": .string(runId)])
        }
        if run.kind == .continuedProcessing { startQueuedContinuedProcessing(i) }  // R41
    }

    mutating func scriptedRunCompletion(_ bundleId: String, runId: String) {
        guard let i = device.appSlot(bundleId),
            let r = device.apps[i].runtime.runs.firstSlot(where: { $0.id == runId && $0.isOpen }),
            let script = device.apps[i].script(device.apps[i].runtime.runs[r].kind)
        else { return }
        let run = device.apps[i].runtime.runs[r]
        // R21: a well-behaved handler schedules its next request before completing, as it made the first: the
        // conditions of the request it runs for are kept (a processing task that needs power still needs it).
        if script.resubmit, let identifier = run.identifier, let kind = TaskRequestKind(rawValue: run.kind.rawValue) {
            let request = TaskRequest(
                kind: kind, identifier: identifier, earliestBeginDate: script.resubmitAfter.map { now + $0 },
                requiresNetworkConnectivity: run.requiresNetworkConnectivity ?? false,
                requiresExternalPower: run.requiresExternalPower, submittedAt: now)
            _ = try? submit(bundleId, request)
        }
        finishRun(i, r, result: script.result)
    }

    private mutating func trimRunHistory(_ i: AppSlot) {
        let runs = device.apps[i].runtime.runs
        guard runs.count > AppRuntime.historyLimit, let first = runs.firstIndex(where: { !$0.isOpen }) else { return }
        device.apps[i].runtime.runs.remove(at: first)
    }
}
