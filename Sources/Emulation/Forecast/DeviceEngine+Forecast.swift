/// What a forecast reads of an engine beyond its events: the eligibility conditions at an opportunity.
extension DeviceEngine {
    /// The names of the conditions (those `eligibility(_:identifier:)` lists, R15–R28) unmet now for a launch of
    /// `kind`, in the engine's order. For a BGTask kind with no pending request, the conditions of the request
    /// the app submits at launch (`submission`), followed by `requestPending`. `predicted` is the app's next
    /// predicted launch (`nextPredictedLaunch`), which the caller knows.
    func forecastUnmetConditions(
        _ i: AppSlot, _ kind: RunKind, submission: ForecastSubmission?, predicted next: VirtualInstant?
    ) -> [String] {
        var predicted: VirtualInstant?? = .some(next)
        func unmet(_ candidate: Candidate) -> [String] {
            conditions(i, candidate, atPredictedUse: false, predicted: &predicted, explain: false).items.compactMap {
                $0.met ? nil : $0.name
            }
        }
        switch kind {
        case .fetch:
            return unmet(.fetch)
        case .appRefresh, .processing:
            let requestKind: TaskRequestKind = kind == .appRefresh ? .appRefresh : .processing
            if let pending = device.apps[i].runtime.taskRequests.first(where: { $0.kind == requestKind }) {
                return unmet(.request(pending))
            }
            guard var request = submission?.request(at: now) else { return [ForecastWhyNot.requestPending] }
            request.earliestBeginDate = nil
            return unmet(.request(request)) + [ForecastWhyNot.requestPending]
        default:
            return []
        }
    }
}

/// The app's next predicted launch (R26), recomputed only when it can have changed: the launch history (or the part
/// of it within the predictive engine's 14 days) changed, or the clock passed the predicted instant. Between
/// those, `nextPredictedLaunch` answers the same instant (the next one of a daily lattice after now).
struct ForecastPredictionCache {
    private var key: (count: Int, last: VirtualInstant?, expired: Int)?
    private var predicted: VirtualInstant?

    mutating func next(_ engine: DeviceEngine, _ i: AppSlot) -> VirtualInstant? {
        let history = engine.device.apps[i].runtime.launchHistory
        let now = engine.now
        var expired = 0
        for launch in history where now.milliseconds - launch.milliseconds > 14 * DeviceEngine.day { expired += 1 }
        if let key, key.count == history.count, key.last == history.last, key.expired == expired,
            predicted.map({ $0 > now }) ?? true
        {
            return predicted
        }
        key = (history.count, history.last, expired)
        predicted = engine.nextPredictedLaunch(i)
        return predicted
    }
}
