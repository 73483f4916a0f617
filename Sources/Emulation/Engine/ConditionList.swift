/// Collects eligibility conditions; the detail text is built only when someone will read it.
struct ConditionList {
    let explain: Bool
    private(set) var items: [EligibilityCondition] = []

    init(explain: Bool) { self.explain = explain }

    mutating func add(_ name: String, _ rule: String, _ met: Bool, _ detail: @autoclosure () -> String) {
        items.append(EligibilityCondition(name, rule, met, explain ? detail() : ""))
    }
}
