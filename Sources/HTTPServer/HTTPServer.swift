import CSystem
import Dispatch
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server (RFC 9112) on non-blocking POSIX sockets: a fixed set of event-loop threads, each with
/// its own epoll instance, serving any number of keep-alive connections and streams without a thread apiece.
///
/// One loop owns the listening socket and hands accepted connections to all loops: with one loop per processor
/// (``LoopPlacement/perProcessor``), each to the loop of the processor that received it, otherwise in turn. Requests are
/// answered on the loop that read them, by calling the synchronous responder, except those the configuration's
/// `offloadKey` picks: a worker pool answers them, keys taking turns, while the loop goes on with the others.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running
        case stopping
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var loops: [EventLoop] = []
        var port = 0
        var workers: WorkerPool?
        var binding = LoopBinding.unbound
    }

    private let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder
    private let logger: Logger
    private let state = Mutex(State())
    private let tally = ConnectionTally()
    /// Entered once per loop thread, left when it exits.
    private let running = DispatchGroup()

    /// A server that will answer with `responder` once started.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
    }

    /// Binds and listens on the configured address and starts the event loops; returns once the server accepts
    /// connections. Throws `HTTPServerError` (`.addressInUse` when the port is taken). Also raises the
    /// process's soft open-file limit to its hard limit, since every connection holds a descriptor.
    public func start() throws {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard state.phase == .idle else { throw .alreadyStarted }
            DescriptorLimit.raiseToHardLimit()
            let listener = try Listener.open(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            let settings = LoopSettings(configuration, tally: tally)
            var loops: [EventLoop] = []
            do throws(HTTPServerError) {
                if configuration.offloadKey != nil {
                    state.workers = WorkerPool(threads: configuration.workerCount)
                    try state.workers?.start()
                }
                for index in 0..<max(1, configuration.eventLoopCount) {
                    loops.append(try EventLoop(
                        index: index, settings: settings, responder: responder, logger: logger, workers: state.workers))
                }
            } catch {
                close(listener.fd)
                state.workers?.stop()
                throw error
            }
            let binding = LoopBinding(
                placement: configuration.loopPlacement, loopCount: loops.count, allowed: ProcessorCount.allowed)
            for loop in loops { loop.join(loops, binding: binding) }
            loops[0].attachListener(listener.fd)
            for loop in loops {
                running.enter()
                do throws(HTTPServerError) {
                    try LoopThread.spawn(name: "http-loop-\(loop.index)") { [running, logger] in
                        if let cpu = binding.processor(ofLoop: loop.index) {
                            let failure = csystem_bind_thread(Int32(cpu))
                            if failure != 0 {
                                logger.warning("event loop \(loop.index) could not be bound to processor \(cpu); it runs unbound",
                                               metadata: ["errno": "\(failure)"])
                            }
                        }
                        loop.run { running.leave() }
                    }
                } catch {
                    running.leave()
                    for started in loops { started.requestShutdown(grace: .zero) }
                    state.phase = .stopping
                    throw error
                }
            }
            state.loops = loops
            state.binding = binding
            state.port = listener.port
            state.phase = .running
        }
        logger.info("HTTP server listening", metadata: [
            "host": "\(configuration.host)", "port": "\(localPort)", "eventLoops": "\(max(1, configuration.eventLoopCount))",
            "boundToProcessors": "\(boundProcessors.isEmpty ? "no" : boundProcessors.map(String.init).joined(separator: ","))",
        ])
    }

    /// The port the server listens on (the kernel's choice when configured with 0); 0 before `start`.
    public var localPort: Int { state.withLock { $0.port } }

    /// The processor each event loop is bound to, by loop index; empty when the loops run unbound.
    public var boundProcessors: [Int] { state.withLock { $0.binding.processors } }

    /// Connections open and accepted, and requests refused before routing, so far (for metrics).
    public var statistics: HTTPServerStatistics { tally.snapshot }

    /// Begins a graceful shutdown and returns at once: the listener closes, requests in flight are answered
    /// and drained, idle connections close, open streams end (their close handlers run, the last chunk is
    /// sent), and after `gracePeriod` whatever is left is closed by force. Idempotent and callable from any
    /// thread, such as a Dispatch signal source's handler. `waitUntilStopped` waits for the end.
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        let loops = state.withLock { state -> [EventLoop] in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return []
            case .running:
                state.phase = .stopping
                return state.loops
            case .stopping, .stopped:
                return []
            }
        }
        guard !loops.isEmpty else { return }
        logger.info("HTTP server shutting down", metadata: ["gracePeriod": "\(gracePeriod)"])
        for loop in loops { loop.requestShutdown(grace: gracePeriod) }
    }

    /// Blocks until every event loop has exited (at once if the server never started).
    public func waitUntilStopped() {
        running.wait()
        let workers = state.withLock { state -> WorkerPool? in
            if state.phase == .stopping { state.phase = .stopped }
            return state.workers
        }
        // The loops are gone: the workers finish what was queued (its answers have no one to go to) and exit.
        workers?.stop()
    }
}
