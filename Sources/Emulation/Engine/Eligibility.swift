/// One condition the system weighs before a discretionary launch, with the rule it comes from.
public struct EligibilityCondition: Sendable, Equatable {
    public var name: String
    public var rule: String
    public var met: Bool
    public var detail: String

    public init(_ name: String, _ rule: String, _ met: Bool, _ detail: String) {
        self.name = name
        self.rule = rule
        self.met = met
        self.detail = detail
    }
}

/// Why a pending request would or would not run at the next opportunity.
public struct Eligibility: Sendable, Equatable {
    public var identifier: String
    public var kind: TaskRequestKind
    public var conditions: [EligibilityCondition]
    /// Every condition is met: it runs at the next opportunity (or predicted launch).
    public var eligible: Bool { conditions.allSatisfy(\.met) }
    public var nextOpportunityAt: VirtualInstant?
    public var predictedLaunchAt: VirtualInstant?
    /// When this request would first run if nothing but time changed (its earliest begin date, the budgets, the
    /// opportunities and the predicted use all weighed); nil when `blockedBy` names what time cannot change, or
    /// when no run comes within 30 days.
    public var firstRunAt: VirtualInstant? = nil
    /// The unmet conditions no passing of time can meet (the device's, the user's or the app's state).
    public var blockedBy: [String] = []
}
