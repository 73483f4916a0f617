/// Background `URLSession` transfers: they move on the virtual clock at the network's bandwidth, outlive the app's
/// process, wake or launch it when done (R32), die with a force quit (R33) and wait for good conditions when
/// discretionary (R34).
extension DeviceEngine {
    // MARK: Commands

    /// The app makes a background session (or makes it again after a launch: the settings are replaced).
    /// Answers whether the session is new.
    @discardableResult
    public mutating func makeURLSession(
        _ bundleId: String, identifier: String, discretionary: Bool, sendsLaunchEvents: Bool
    ) throws -> Bool {
        let i = try slot(of: bundleId)
        let session = BackgroundURLSession(
            identifier: identifier, discretionary: discretionary, sendsLaunchEvents: sendsLaunchEvents, createdAt: now)
        let data: [String: EventValue] = [
            "identifier": .string(identifier), "discretionary": .bool(discretionary),
            "sessionSendsLaunchEvents": .bool(sendsLaunchEvents),
        ]
        if let s = device.apps[i].runtime.urlSessions.firstIndex(where: { $0.identifier == identifier }) {
            device.apps[i].runtime.urlSessions[s].discretionary = discretionary
            device.apps[i].runtime.urlSessions[s].sendsLaunchEvents = sendsLaunchEvents
            emit(.urlSessionCreated, bundleId: bundleId, data: data.merging(["reconnected": true]) { $1 })
            return false
        }
        device.apps[i].runtime.urlSessions.append(session)
        emit(.urlSessionCreated, bundleId: bundleId, data: data.merging(["reconnected": false]) { $1 })
        return true
    }

    /// The app resumes a download or upload task in a session. A task enqueued while the app is not in the
    /// foreground is discretionary whatever the session says (R34).
    @discardableResult
    public mutating func enqueueTransfer(
        _ bundleId: String, session identifier: String, kind: Transfer.Kind, bytes: Int64,
        earliestBeginDate: VirtualInstant? = nil, countOfBytesClientExpectsToReceive: Int64? = nil
    ) throws -> Transfer {
        let i = try slot(of: bundleId)
        guard let session = device.apps[i].runtime.urlSessions.first(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "urlSession", id: identifier)
        }
        guard bytes > 0 else { throw EmulationError.invalid([FieldIssue("bytes", "must be 1 or more")]) }
        let inForeground = device.apps[i].state == .active || device.apps[i].state == .inactive
        let id = "xfer_\(device.runtime.nextTransferNumber)"
        device.runtime.nextTransferNumber += 1
        let transfer = Transfer(
            id: id, session: identifier, kind: kind, bytes: bytes, discretionary: session.discretionary || !inForeground,
            earliestBeginDate: earliestBeginDate, countOfBytesClientExpectsToReceive: countOfBytesClientExpectsToReceive,
            createdAt: now)
        device.apps[i].runtime.transfers.append(transfer)
        trimTransferHistory(i)
        emit(.transferEnqueued, bundleId: bundleId, data: [
            "transferId": .string(id), "session": .string(identifier), "kind": .string(kind.rawValue),
            "bytes": .int(bytes), "discretionary": .bool(transfer.discretionary),
            "earliestBeginDate": earliestBeginDate.map(EventValue.instant) ?? .null,
            "enqueuedInBackground": .bool(!inForeground),
        ])
        let t = device.apps[i].runtime.transfers.lastSlot!
        plan(i, t, enqueued: true)
        return device.apps[i].runtime.transfers[t]
    }

    /// The app cancels a transfer (`URLSessionTask.cancel()`): its delegate hears −999.
    @discardableResult
    public mutating func cancelTransfer(_ bundleId: String, transferId: String) throws -> Transfer {
        let i = try slot(of: bundleId)
        guard let t = device.apps[i].runtime.transfers.firstSlot(where: { $0.id == transferId }) else {
            throw EmulationError.notFound(kind: "transfer", id: transferId)
        }
        guard device.apps[i].runtime.transfers[t].isOpen else {
            throw EmulationError.conflict(
                code: "transferEnded", detail: "\(transferId) is \(device.apps[i].runtime.transfers[t].state.rawValue) already.")
        }
        end(i, t, state: .cancelled, errorCode: Transfer.cancelledErrorCode, reason: "cancelledByApp")
        let transfer = device.apps[i].runtime.transfers[t]
        emit(.transferFailed, bundleId: bundleId, data: failureData(transfer))
        sessionMayBeDone(i, session: transfer.session)
        return transfer
    }

    /// The app calls the completion handler `handleEventsForBackgroundURLSession` gave it: the run ends (R32).
    @discardableResult
    public mutating func finishURLSessionEvents(_ bundleId: String, session identifier: String) throws -> Run {
        let i = try slot(of: bundleId)
        guard device.apps[i].runtime.urlSessions.contains(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "urlSession", id: identifier)
        }
        guard let r = device.apps[i].runtime.runs.firstSlot(where: {
            $0.kind == .urlSessionEvents && $0.identifier == identifier && $0.isOpen
        }) else {
            throw EmulationError.conflict(
                code: "noPendingEvents", detail: "No handleEventsForBackgroundURLSession call is waiting for \(identifier).")
        }
        finishRun(i, r, result: .success)
        return device.apps[i].runtime.runs[r]
    }

    // MARK: The system

    /// A transfer's timer: record what moved, report crossed thresholds, finish or plan the next step.
    mutating func transferTimerFired(_ bundleId: String, transferId: String) {
        guard let i = device.appSlot(bundleId),
            let t = device.apps[i].runtime.transfers.firstSlot(where: { $0.id == transferId && $0.isOpen })
        else { return }
        plan(i, t)
    }

    /// Re-plans every open transfer after the network, power or bandwidth changed.
    mutating func replanTransfers() {
        for i in device.appSlots {
            for t in device.apps[i].runtime.transfers.slots where device.apps[i].runtime.transfers[t].isOpen {
                plan(i, t)
            }
        }
    }

    /// R33: a force quit cancels every open transfer of the app; the app hears of it at its next launch.
    mutating func cancelTransfersOnForceQuit(_ i: AppSlot) {
        for t in device.apps[i].runtime.transfers.slots where device.apps[i].runtime.transfers[t].isOpen {
            end(i, t, state: .cancelled, errorCode: Transfer.cancelledErrorCode, reason: "forceQuit")
            device.apps[i].runtime.transfers[t].awaitsReport = true
            emit(.transferCancelled, bundleId: device.apps[i].bundleId, data: failureData(device.apps[i].runtime.transfers[t]))
        }
    }

    /// R33: at the user's launch, the session delegate hears of the transfers a force quit cancelled.
    mutating func reportCancelledTransfers(_ i: AppSlot) {
        for t in device.apps[i].runtime.transfers.slots where device.apps[i].runtime.transfers[t].awaitsReport {
            device.apps[i].runtime.transfers[t].awaitsReport = false
            emit(.transferFailed, bundleId: device.apps[i].bundleId, data: failureData(device.apps[i].runtime.transfers[t]))
        }
    }

    // MARK: Planning

    /// Brings transfer `t` up to now: measures the bytes moved at the old rate, reports crossed quarters, ends it
    /// when complete, then sets the rate the conditions allow and its next timer.
    private mutating func plan(_ i: AppSlot, _ t: ListSlot<Transfer>, enqueued: Bool = false) {
        let bundleId = device.apps[i].bundleId
        var transfer = device.apps[i].runtime.transfers[t]
        transfer.bytesTransferred = transfer.bytesTransferred(at: now)
        transfer.measuredAt = now
        device.apps[i].runtime.transfers[t] = transfer
        cancelTimers { $0 == .transfer(bundleId: bundleId, transferId: transfer.id) }
        reportProgress(i, t)
        if transfer.bytesTransferred >= transfer.bytes {
            end(i, t, state: .completed, errorCode: nil, reason: nil)
            emit(.transferCompleted, bundleId: bundleId, data: [
                "transferId": .string(transfer.id), "session": .string(transfer.session), "kind": .string(transfer.kind.rawValue),
                "bytes": .int(transfer.bytes), "duration": .seconds(now - transfer.createdAt),
            ])
            sessionMayBeDone(i, session: transfer.session)
            return
        }
        let (rate, waitingFor) = allowedRate(transfer)
        let wasRunning = transfer.state == .running
        device.apps[i].runtime.transfers[t].bytesPerSecond = rate
        device.apps[i].runtime.transfers[t].state = rate > 0 ? .running : .waiting
        if rate > 0, !wasRunning {
            emit(.transferStarted, bundleId: bundleId, data: [
                "transferId": .string(transfer.id), "session": .string(transfer.session), "bytesPerSecond": .int(rate),
                "bytesTransferred": .int(transfer.bytesTransferred),
            ])
        } else if rate == 0, wasRunning || enqueued, let waitingFor {
            emit(.transferWaiting, bundleId: bundleId, data: [
                "transferId": .string(transfer.id), "session": .string(transfer.session), "waitingFor": .string(waitingFor),
            ])
        }
        let updated = device.apps[i].runtime.transfers[t]
        if rate > 0 {
            let next = min(updated.reportedQuarters + 1, 4)
            if let due = updated.instant(reaching: updated.threshold(next)) {
                schedule(.transfer(bundleId: bundleId, transferId: transfer.id), at: max(due, now))
            }
        } else if waitingFor == "earliestBeginDate", let begin = updated.earliestBeginDate {
            schedule(.transfer(bundleId: bundleId, transferId: transfer.id), at: begin)
        }
    }

    /// The rate the device's conditions give a transfer now, or 0 and what it waits for.
    private func allowedRate(_ transfer: Transfer) -> (Int64, String?) {
        if let begin = transfer.earliestBeginDate, begin > now { return (0, "earliestBeginDate") }
        let conditions = device.conditions
        if conditions.network == .none { return (0, "network") }
        if transfer.discretionary {
            // R34: good conditions are Wi-Fi and power.
            if conditions.network != .wifi { return (0, "wifi") }
            if !conditions.charging { return (0, "power") }
        }
        let bandwidth = conditions.network == .wifi ? policy.wifiBandwidth : policy.cellularBandwidth
        return (Int64(max(1, bandwidth)), nil)
    }

    /// Emits `transfer.progress` for each quarter below 100 % crossed since the last report.
    private mutating func reportProgress(_ i: AppSlot, _ t: ListSlot<Transfer>) {
        let transfer = device.apps[i].runtime.transfers[t]
        var quarter = transfer.reportedQuarters
        while quarter < 3, transfer.bytesTransferred >= transfer.threshold(quarter + 1) {
            quarter += 1
            emit(.transferProgress, bundleId: device.apps[i].bundleId, data: [
                "transferId": .string(transfer.id), "session": .string(transfer.session),
                "bytesTransferred": .int(transfer.bytesTransferred), "bytes": .int(transfer.bytes),
                "fraction": .double(Double(quarter) / 4),
            ])
        }
        device.apps[i].runtime.transfers[t].reportedQuarters = transfer.bytesTransferred >= transfer.bytes ? 4 : quarter
    }

    private mutating func end(_ i: AppSlot, _ t: ListSlot<Transfer>, state: Transfer.State, errorCode: Int?, reason: String?) {
        let bundleId = device.apps[i].bundleId
        let id = device.apps[i].runtime.transfers[t].id
        device.apps[i].runtime.transfers[t].bytesTransferred = device.apps[i].runtime.transfers[t].bytesTransferred(at: now)
        device.apps[i].runtime.transfers[t].measuredAt = now
        device.apps[i].runtime.transfers[t].state = state
        device.apps[i].runtime.transfers[t].bytesPerSecond = 0
        device.apps[i].runtime.transfers[t].endedAt = now
        device.apps[i].runtime.transfers[t].errorCode = errorCode
        device.apps[i].runtime.transfers[t].errorReason = reason
        cancelTimers { $0 == .transfer(bundleId: bundleId, transferId: id) }
    }

    private func failureData(_ transfer: Transfer) -> [String: EventValue] {
        [
            "transferId": .string(transfer.id), "session": .string(transfer.session),
            "bytesTransferred": .int(transfer.bytesTransferred), "bytes": .int(transfer.bytes),
            "errorCode": .int(Int64(transfer.errorCode ?? 0)), "error": "NSURLErrorCancelled",
            "reason": .optional(transfer.errorReason),
        ]
    }

    /// R32: when the last transfer of a session ends, a session that sends launch events wakes or launches the
    /// app into the background for `handleEventsForBackgroundURLSession`. A foreground app hears the delegate
    /// directly; a force-quit app is not launched (R5).
    private mutating func sessionMayBeDone(_ i: AppSlot, session identifier: String) {
        let runtime = device.apps[i].runtime
        guard !runtime.transfers.contains(where: { $0.session == identifier && $0.isOpen }),
            let session = runtime.urlSessions.first(where: { $0.identifier == identifier })
        else { return }
        let bundleId = device.apps[i].bundleId
        switch device.apps[i].state {
        case .active, .inactive:
            emit(.urlSessionEventsDelivered, bundleId: bundleId, data: ["session": .string(identifier), "inForeground": true])
            return
        case .notRunning, .suspended, .background:
            break
        }
        guard session.sendsLaunchEvents, !runtime.forceQuit else { return }
        if runtime.runs.contains(where: { $0.kind == .urlSessionEvents && $0.identifier == identifier && $0.isOpen }) {
            return
        }
        emit(.urlSessionEventsDelivered, bundleId: bundleId, data: ["session": .string(identifier), "inForeground": false])
        startRun(
            i, kind: .urlSessionEvents, reason: "transfersFinished", identifier: identifier,
            duration: policy.appRefreshRun ?? .seconds(30))
    }

    private mutating func trimTransferHistory(_ i: AppSlot) {
        let transfers = device.apps[i].runtime.transfers
        guard transfers.count > AppRuntime.historyLimit, let first = transfers.firstIndex(where: { !$0.isOpen && !$0.awaitsReport })
        else { return }
        device.apps[i].runtime.transfers.remove(at: first)
    }
}

extension DeviceTimer.Kind {
    /// Timers that keep running after the app's process ends: transfers belong to the system's daemon (R32), the
    /// VoIP keep-alive to the system's socket watch (R37), local notifications to the notification center (R40).
    var outlivesProcess: Bool {
        switch self {
        case .transfer, .voipKeepAlive, .localNotification: true
        default: false
        }
    }
}

extension EventType {
    public static let urlSessionCreated = EventType("urlSession.created")
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` or, in the foreground, the
    /// session delegate's `urlSessionDidFinishEvents`.
    public static let urlSessionEventsDelivered = EventType("urlSession.eventsDelivered")
    public static let transferEnqueued = EventType("transfer.enqueued")
    public static let transferWaiting = EventType("transfer.waiting")
    public static let transferStarted = EventType("transfer.started")
    public static let transferProgress = EventType("transfer.progress")
    public static let transferCompleted = EventType("transfer.completed")
    public static let transferFailed = EventType("transfer.failed")
    public static let transferCancelled = EventType("transfer.cancelled")
}
