/// How a run is written into the device's document, by hand: what the synthesized `encode(to:)` wrote (the same
/// members, `identifier`, `result`, `endedAt` and `progress` left out when nil), with the enums written as their raw text and
/// the instants as their milliseconds directly. A device keeps up to 200 runs per app and its document is written
/// on every command, so runs are most of what is encoded; boxing each enum and instant as a value of its own cost
/// an encoder, a slot and a container apiece. The keys come in sorted order, the order the document is written in.
/// Decoding is still synthesized: it reads what this writes.
extension Run {
    private enum EncodingKey: String, CodingKey {
        case deadline, endedAt, id, identifier, kind, launchedApp, progress, reason, requiresExternalPower, result
        case startedAt, state
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKey.self)
        try container.encode(deadline.milliseconds, forKey: .deadline)
        try container.encodeIfPresent(endedAt?.milliseconds, forKey: .endedAt)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(identifier, forKey: .identifier)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(launchedApp, forKey: .launchedApp)
        try container.encodeIfPresent(progress, forKey: .progress)
        try container.encode(reason, forKey: .reason)
        try container.encode(requiresExternalPower, forKey: .requiresExternalPower)
        try container.encodeIfPresent(result?.rawValue, forKey: .result)
        try container.encode(startedAt.milliseconds, forKey: .startedAt)
        try container.encode(state.rawValue, forKey: .state)
    }
}
