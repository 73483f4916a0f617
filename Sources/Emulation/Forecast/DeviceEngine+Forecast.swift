/// What a forecast reads of an engine beyond its events: the eligibility conditions at an opportunity.
extension DeviceEngine {
    /// The names of the conditions (those `eligibility(_:identifier:)` lists, R15–R28) unmet now for a launch of
    /// `kind`, in the engine's order. For a BGTask kind with no pending request, the conditions of the request
    /// the app submits at launch (`submission`), followed by `requestPending`.
    func forecastUnmetConditions(_ i: Int, _ kind: RunKind, submission: ForecastSubmission?) -> [String] {
        var predicted: VirtualInstant?? = nil
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
