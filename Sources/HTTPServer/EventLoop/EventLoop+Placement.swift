import CSystem
import Glibc

/// Which loop serves a connection when the loops are bound to processors (``LoopPlacement/perProcessor``): the
/// loop of the processor that handles the connection's packets, at accept and after.
extension EventLoop {
    /// How many reads a connection's loop answers between two looks at where its packets arrive.
    static let readsPerPlacementCheck: UInt32 = 16

    /// Joins the server's `loops` (this one among them), bound to processors as `binding` says (before the loops
    /// start).
    func join(_ loops: [EventLoop], binding: LoopBinding) {
        siblings = loops
        self.binding = binding
        boundProcessor = binding.processor(ofLoop: index) ?? -1
    }

    /// The loop an accepted connection goes to: the one bound to the processor that handled its packets, when
    /// the loops are bound and one is; the next in turn otherwise.
    func sibling(forAccepted fd: Int32) -> EventLoop {
        if binding.isBound {
            let cpu = Int(csystem_incoming_cpu(fd))
            if cpu >= 0, let index = binding.loop(onProcessor: cpu) {
                return mayTakeOneMore(siblings[index]) ? siblings[index] : leastServedSibling()
            }
        }
        let target = siblings[nextSibling]
        nextSibling = nextSibling + 1 == siblings.count ? 0 : nextSibling + 1
        return target
    }

    /// Every ``readsPerPlacementCheck`` reads, hands an idle connection whose packets now arrive on another
    /// loop's processor to that loop. A client on this machine sends from wherever the kernel runs it, and
    /// moves; its connection follows it, so that client and loop take turns on one processor instead of each
    /// waiting for the other's. Only a connection at rest moves: nothing buffered either way, no answer being
    /// made, no stream.
    func followClient(_ connection: Connection) {
        guard boundProcessor >= 0 else { return }
        connection.readsSincePlacementCheck &+= 1
        guard connection.readsSincePlacementCheck >= Self.readsPerPlacementCheck else { return }
        connection.readsSincePlacementCheck = 0
        guard !isShuttingDown, case .requests = connection.phase, !connection.hasPendingOutput,
              !connection.isMidRequest, !connection.awaitingAnswer, !connection.hasDeferredInput,
              connection.pendingStream == nil, connections[Int(connection.fd)] === connection
        else { return }
        let cpu = Int(csystem_incoming_cpu(connection.fd))
        guard cpu >= 0, cpu != boundProcessor, let index = binding.loop(onProcessor: cpu),
              mayTakeOneMore(siblings[index])
        else { return }
        epoll.remove(connection.fd)
        connections[Int(connection.fd)] = nil
        connectionLoad.subtract(1, ordering: .relaxed)
        siblings[index].connectionLoad.add(1, ordering: .relaxed)
        siblings[index].enqueueAdoption(fd: connection.fd, remoteAddress: connection.remoteAddress, handedOver: true)
    }

    /// Whether `loop` may take one more connection than it serves (``mayServe(_:leastServed:)``).
    private func mayTakeOneMore(_ loop: EventLoop) -> Bool {
        Self.mayServe(loop.connectionCount, leastServed: siblings.lazy.map(\.connectionCount).min() ?? 0)
    }

    /// Whether a loop serving `served` connections may take one more when the least served loop serves
    /// `leastServed`: following the packets, the loops may grow apart by 4 and a quarter of the least served one's
    /// connections, no more. A server's packets may all arrive on one core (a network card with one queue and no
    /// receive steering): following them alone, that core's loop would serve every connection.
    static func mayServe(_ served: Int, leastServed: Int) -> Bool {
        served <= leastServed + 4 + leastServed / 4
    }

    /// The loop serving the fewest connections (the first of them).
    private func leastServedSibling() -> EventLoop {
        siblings.min { $0.connectionCount < $1.connectionCount } ?? self
    }
}
