extension EventLoop {
    /// Whether `response` is to be held rather than written now: a sized answer that asks for a delay, while the
    /// server is not shutting down.
    func holds(_ response: HTTPResponse) -> Bool {
        guard response.delay > .zero, !isShuttingDown, case .bytes = response.body else { return false }
        return true
    }

    /// Holds `response`, the answer to `parsed`, until its ``HTTPResponse/delay`` has passed: the connection waits
    /// for it as for an offloaded answer (reading nothing more), and ``releaseHeldAnswers()`` writes it when due.
    func hold(
        _ response: HTTPResponse, to parsed: HTTPRequestParser.Parsed, requestId: String, on connection: Connection
    ) {
        var response = response
        let due = now + max(1, response.delay.milliseconds)
        response.delay = .zero
        connection.awaitingAnswer = true
        heldAnswers.hold(
            OffloadedAnswer(connection: connection.key, parsed: parsed, requestId: requestId, response: response), until: due)
        rearmTimer(connection)
    }

    /// Writes the held answers that are due (loop thread, after each wait).
    func releaseHeldAnswers() {
        while let answer = heldAnswers.takeDue(at: now) { deliver(answer) }
    }

    /// Writes every held answer now (shutdown: nothing waits for a delay any more).
    func releaseAllHeldAnswers() {
        for answer in heldAnswers.takeAll() { deliver(answer) }
    }
}
