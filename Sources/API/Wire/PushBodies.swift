import Emulation

/// The answer to an accepted push.
struct PushOutcomeBody: Encodable {
    var outcome: PushOutcome

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(outcome.apnsId, forKey: AnyKey("apnsId"))
        try c.encode(outcome.kind.rawValue, forKey: AnyKey("outcome"))
        try c.encode(outcome.reason, forKey: AnyKey("reason"))
        try c.encode(outcome.runId, forKey: AnyKey("runId"))
        try c.encode(outcome.notificationDelivered, forKey: AnyKey("notificationDelivered"))
        try c.encode(outcome.replacedApnsId, forKey: AnyKey("replacedApnsId"))
        try c.encode(outcome.inForeground, forKey: AnyKey("inForeground"))
    }
}
