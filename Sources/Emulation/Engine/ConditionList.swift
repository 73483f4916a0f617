/// Collects eligibility conditions; the detail text is built only when someone will read it.
///
/// Two uses: the `eligibility` route lists every condition with its detail (`explain`); an opportunity only needs
/// to know whether all are met (`verdictOnly`), so the list keeps no items and, once one condition is unmet,
/// evaluates no further one (each `met` is an autoclosure, and the conditions have no side effects).
struct ConditionList {
    let explain: Bool
    /// Keep no items and stop at the first unmet condition.
    let verdictOnly: Bool
    private(set) var items: [EligibilityCondition] = []
    /// Whether every condition added so far is met.
    private(set) var allMet = true

    init(explain: Bool, verdictOnly: Bool = false) {
        self.explain = explain
        self.verdictOnly = verdictOnly
    }

    /// Whether a further condition would still be looked at: false once a verdict-only list has an unmet one.
    var isOpen: Bool { allMet || !verdictOnly }

    mutating func add(_ name: String, _ rule: String, _ met: @autoclosure () -> Bool, _ detail: @autoclosure () -> String) {
        guard isOpen else { return }
        let met = met()
        if !met { allMet = false }
        guard !verdictOnly else { return }
        items.append(EligibilityCondition(name, rule, met, explain ? detail() : ""))
    }
}
