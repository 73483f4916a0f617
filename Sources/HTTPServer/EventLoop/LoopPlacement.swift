/// Where an `HTTPServer`'s event loops run, and which loop an accepted connection goes to.
public enum LoopPlacement: Sendable, Equatable {
    /// The loops run wherever the kernel schedules them; accepted connections are dealt to them in turn.
    case shared
    /// A loop per processor: when there are exactly as many loops as processors the process may run on, each loop
    /// is bound to its own, and an accepted connection goes to the loop of the processor that handled its
    /// packets (`SO_INCOMING_CPU`; the client's own processor on loopback, the network card queue's otherwise), so
    /// a connection's packets and its requests are handled on one processor and no loop waits for a processor
    /// while another loop's client holds it. A connection whose processor has no loop is dealt in turn, and one
    /// that would set the loops further apart than 4 connections and a quarter goes to the least served loop (all
    /// of a server's packets may arrive on one core: a network card with one queue). With any other number of
    /// loops, as `.shared`.
    case perProcessor
}

/// The processors a server's loops are bound to, worked out once at start.
struct LoopBinding: Sendable, Equatable {
    /// The processor each loop is bound to, by loop index; empty when the loops are not bound.
    let processors: [Int]

    /// Loops not bound to processors.
    static let unbound = LoopBinding(processors: [])

    private init(processors: [Int]) {
        self.processors = processors
    }

    /// The binding for `loopCount` loops placed as `placement` on a process allowed the processors `allowed`.
    init(placement: LoopPlacement, loopCount: Int, allowed: [Int]) {
        guard placement == .perProcessor, loopCount > 1, loopCount == allowed.count else {
            processors = []
            return
        }
        processors = allowed
    }

    var isBound: Bool { !processors.isEmpty }

    /// The processor loop `index` is bound to, if bound.
    func processor(ofLoop index: Int) -> Int? {
        index < processors.count ? processors[index] : nil
    }

    /// The loop bound to processor `cpu`, if any.
    func loop(onProcessor cpu: Int) -> Int? {
        processors.firstIndex(of: cpu)
    }
}
