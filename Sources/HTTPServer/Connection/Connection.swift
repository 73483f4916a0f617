/// One accepted TCP connection. Owned by, and only ever touched on, its event loop's thread.
///
/// An idle connection holds no buffers: bytes are read into the loop's shared read buffer and answers are
/// built in the loop's shared output buffer; a connection keeps bytes only while a request line is split
/// across reads (`input`) or while the socket will not take an answer yet (`output`).
final class Connection {
    /// What the connection is doing.
    enum Phase {
        /// Reading requests and answering them in order.
        case requests
        /// Sending a streamed body; further requests are not read.
        case streaming(ConnectionStreamWriter)
        /// Sending what is left of the last answer, then closing.
        case closing
        /// Answer sent and write side shut; draining the client's bytes until it closes or time runs out.
        case lingering
    }

    let fd: Int32
    /// The epoll key: the descriptor in the low 32 bits, a per-loop generation in the high 32, so an event for
    /// a closed connection never reaches a new one that got the same descriptor.
    let key: UInt64
    let remoteAddress: String
    var parser: HTTPRequestParser
    var phase: Phase = .requests
    /// Unconsumed bytes of a partial request line or chunk-size line.
    var input: [UInt8] = []
    /// Bytes the socket would not take yet, sent from `outputOffset` when it becomes writable.
    var output: [UInt8] = []
    var outputOffset = 0
    /// The interest currently registered with epoll.
    var interest: Epoll.Interest = .read
    /// When the connection's current timeout fires (loop-monotonic milliseconds).
    var deadline: Int64
    /// Whether `deadline` already counts the head timeout of the request being read (and `requestDeadline`
    /// runs for it).
    var headTimerArmed = true
    /// When the request being read must be complete, head and body (loop-monotonic milliseconds).
    var requestDeadline: Int64
    /// Bytes read from the socket so far, for the body-rate check.
    var bytesRead = 0
    /// When the body-rate window closes; `.max` while no body is being read or the rate is not checked.
    var rateCheckAt = Int64.max
    /// `bytesRead` when the current body-rate window opened.
    var rateWindowStart = 0
    /// A stream body whose head was queued and whose producer starts once the head is flushed.
    var pendingStream: HTTPBodyStream?
    /// Whether `input` may hold complete requests left unanswered because enough answers were queued;
    /// they are answered once the socket drains.
    var hasDeferredInput = false
    /// Whether a request of this connection is being answered by the worker pool: nothing more is read until
    /// its answer is written, and no deadline of the client's runs meanwhile.
    var awaitingAnswer = false
    /// Who the client is, for taking turns within a loop pass (``ClientTurns``): a hash of the credentials its
    /// last request carried (`Authorization`), so that one client's many connections count as one; the
    /// connection itself while it has sent none.
    var client: Int
    /// Reads answered since the loop last looked at where the connection's packets arrive
    /// (`EventLoop.followClient`).
    var readsSincePlacementCheck: UInt32 = 0

    init(fd: Int32, key: UInt64, remoteAddress: String, limits: HTTPRequestParser.Limits, deadline: Int64, requestDeadline: Int64) {
        self.fd = fd
        self.key = key
        self.remoteAddress = remoteAddress
        self.parser = HTTPRequestParser(limits: limits)
        self.deadline = deadline
        self.requestDeadline = requestDeadline
        self.client = Int(truncatingIfNeeded: key)
    }

    /// Whether a streaming connection waits on nothing from its client: its stream is open and no bytes wait for
    /// the socket. Such a stream runs without a deadline; otherwise the idle timeout runs, and one whose client takes
    /// nothing for it is closed.
    var isStreamAtRest: Bool {
        guard case .streaming(let writer) = phase else { return false }
        return writer.isOpen && !hasPendingOutput
    }

    /// Whether bytes wait to be sent.
    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Whether part of a request has arrived.
    var isMidRequest: Bool { parser.isMidRequest || !input.isEmpty }

    /// The stream writer while the connection streams.
    var streamWriter: ConnectionStreamWriter? {
        if case .streaming(let writer) = phase { return writer }
        return nil
    }

    /// The interest the connection's phase calls for.
    var desiredInterest: Epoll.Interest {
        switch phase {
        case .requests: hasPendingOutput ? .write : awaitingAnswer ? [] : .read
        case .streaming: hasPendingOutput ? [.read, .write] : .read
        case .closing: .write
        case .lingering: .read
        }
    }
}
