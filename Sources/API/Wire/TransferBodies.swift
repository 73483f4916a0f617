import Emulation

/// `POST …/url-sessions`: `{identifier, discretionary?, sessionSendsLaunchEvents?}`.
struct MakeURLSessionRequest: Decodable {
    var identifier: String
    var discretionary: Bool
    var sessionSendsLaunchEvents: Bool

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["identifier", "discretionary", "sessionSendsLaunchEvents"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        identifier = try c.decode(String.self, forKey: AnyKey("identifier"))
        discretionary = try c.decodeIfPresent(Bool.self, forKey: AnyKey("discretionary")) ?? false
        // URLSessionConfiguration's default.
        sessionSendsLaunchEvents = try c.decodeIfPresent(Bool.self, forKey: AnyKey("sessionSendsLaunchEvents")) ?? true
        guard !identifier.isEmpty, identifier.codePointCount <= 200, !identifier.containsControlCharacter else {
            throw EmulationError.invalid([FieldIssue("identifier", "must be 1 to 200 characters, none a control character")])
        }
    }
}

/// `POST …/url-sessions/{identifier}/transfers`.
struct EnqueueTransferRequest: Decodable {
    var kind: Transfer.Kind
    var bytes: Int64
    var earliestBeginDate: String?
    var countOfBytesClientExpectsToReceive: Int64?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["kind", "bytes", "earliestBeginDate", "countOfBytesClientExpectsToReceive"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let kind = Transfer.Kind(rawValue: try c.decode(String.self, forKey: AnyKey("kind"))) else {
            throw EmulationError.invalid([FieldIssue("kind", "must be download or upload")])
        }
        self.kind = kind
        bytes = try c.decode(Int64.self, forKey: AnyKey("bytes"))
        earliestBeginDate = try c.decodeIfPresent(String.self, forKey: AnyKey("earliestBeginDate"))
        countOfBytesClientExpectsToReceive = try c.decodeIfPresent(Int64.self, forKey: AnyKey("countOfBytesClientExpectsToReceive"))
        guard bytes >= 1, bytes <= 1_000_000_000_000 else {
            throw EmulationError.invalid([FieldIssue("bytes", "must be from 1 to 1000000000000")])
        }
        if let expected = countOfBytesClientExpectsToReceive, expected < 0 {
            throw EmulationError.invalid([FieldIssue("countOfBytesClientExpectsToReceive", "must be 0 or more")])
        }
    }

    /// The transfer `bundleId` enqueues in `session`; `earliestBeginDate` is read when it is applied.
    func command(bundleId: String, session: String) -> DeviceCommand {
        .enqueueTransfer(bundleId: bundleId, session: session, TransferDraft(
            kind: kind, bytes: bytes, earliestBeginDate: earliestBeginDate.map(CommandTime.rfc3339),
            countOfBytesClientExpectsToReceive: countOfBytesClientExpectsToReceive))
    }
}

/// A background session as answered.
struct URLSessionBody: Encodable {
    var session: BackgroundURLSession

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(session.identifier, forKey: AnyKey("identifier"))
        try c.encode(session.discretionary, forKey: AnyKey("discretionary"))
        try c.encode(session.sendsLaunchEvents, forKey: AnyKey("sessionSendsLaunchEvents"))
        try c.encode(RFC3339.format(session.createdAt), forKey: AnyKey("createdAt"))
    }
}

/// A transfer as answered, its bytes measured at `now`.
struct TransferBody: Encodable {
    var transfer: Transfer
    var now: VirtualInstant

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(transfer.id, forKey: AnyKey("id"))
        try c.encode(transfer.session, forKey: AnyKey("session"))
        try c.encode(transfer.kind.rawValue, forKey: AnyKey("kind"))
        try c.encode(transfer.bytes, forKey: AnyKey("bytes"))
        try c.encode(transfer.bytesTransferred(at: now), forKey: AnyKey("bytesTransferred"))
        try c.encode(transfer.state.rawValue, forKey: AnyKey("state"))
        try c.encode(transfer.discretionary, forKey: AnyKey("discretionary"))
        try c.encode(transfer.earliestBeginDate.map(RFC3339.format), forKey: AnyKey("earliestBeginDate"))
        try c.encode(transfer.countOfBytesClientExpectsToReceive, forKey: AnyKey("countOfBytesClientExpectsToReceive"))
        try c.encode(RFC3339.format(transfer.createdAt), forKey: AnyKey("createdAt"))
        try c.encode(transfer.endedAt.map(RFC3339.format), forKey: AnyKey("endedAt"))
        try c.encode(transfer.errorCode.map(ErrorBody.init), forKey: AnyKey("error"))
    }

    /// `{code, domain, name, reason}` of a failed or cancelled transfer.
    struct ErrorBody: Encodable {
        var code: Int
        var domain = "NSURLErrorDomain"
        var name: String
        init(_ code: Int) {
            self.code = code
            name = code == Transfer.cancelledErrorCode ? "NSURLErrorCancelled" : "NSURLErrorUnknown"
        }
    }
}
