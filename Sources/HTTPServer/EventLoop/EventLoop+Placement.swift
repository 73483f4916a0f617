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
            if cpu >= 0, let index = binding.loop(onProcessor: cpu) { return siblings[index] }
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
        guard cpu >= 0, cpu != boundProcessor, let index = binding.loop(onProcessor: cpu) else { return }
        epoll.remove(connection.fd)
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        siblings[index].enqueueAdoption(fd: connection.fd, remoteAddress: connection.remoteAddress, handedOver: true)
    }
}
