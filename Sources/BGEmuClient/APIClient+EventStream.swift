import BGEmuHTTP
import Foundation

/// Why a followed event stream paused before it resumed.
public enum EventStreamInterruption: Sendable, Equatable {
    /// The stream ended or broke (or stayed silent past the heartbeats); it resumes after `lastEventId`.
    case ended(lastEventId: String)
    /// The service could not be reached; it is tried again.
    case unreachable(reason: String)
    /// The service answered `503` (it holds its most streams, or is starting); it is tried again.
    case unavailable
}

extension APIClient {
    /// Follows a Server-Sent Events stream (`GET path` with `Accept: text/event-stream`) from after `lastEventId`,
    /// calling `onEvent` with each event in order, until `shouldStop()` (looked at at least once a second) or a
    /// refusal. A stream that ends, breaks or stays silent for `deadAfter` seconds (several of the service's
    /// heartbeats) is opened again with `Last-Event-ID` set to the last event's id, after the `retry:` time the
    /// service asked for (2 s until it asks), so that no event is lost or given twice.
    ///
    /// - Parameters:
    ///   - reconnectWhenUnreachable: keep trying while the service cannot be reached (a CLI following across a
    ///     restart), instead of throwing ``ClientFailure/unreachable(server:reason:)``.
    ///   - onInterruption: told of each pause before the stream is opened again.
    public func followEvents(
        _ path: String, query: [(String, String)] = [], after lastEventId: String, deadAfter: Double = 60,
        reconnectWhenUnreachable: Bool, shouldStop: () -> Bool = { false },
        onInterruption: (EventStreamInterruption) -> Void = { _ in },
        onEvent: (ServerSentEventParser.Event) throws -> Void
    ) throws {
        var reader = self
        reader.http.timeout = 1  // short reads, so that a stop is seen within a second
        var lastId = lastEventId
        var retry = 2.0
        while !shouldStop() {
            let opened = Result { () throws(ClientFailure) -> HTTPClient.StreamingResponse in
                try reader.open(path, query: query, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", lastId)])
            }
            let stream: HTTPClient.StreamingResponse
            switch opened {
            case .success(let opened): stream = opened
            case .failure(.unreachable(_, let reason)) where reconnectWhenUnreachable:
                onInterruption(.unreachable(reason: reason))
                Self.pause(retry, shouldStop)
                continue
            case .failure(.refused(let problem)) where problem.status == 503:
                onInterruption(.unavailable)
                Self.pause(retry, shouldStop)
                continue
            case .failure(let failure): throw failure
            }
            var parser = ServerSentEventParser()
            var silentSince = ContinuousClock.now
            reading: while !shouldStop() {
                let bytes: [UInt8]?
                do {
                    bytes = try stream.read()
                } catch HTTPClient.ClientError.timedOut {
                    if ContinuousClock.now - silentSince > .seconds(deadAfter) { break reading }
                    continue
                } catch {
                    break reading  // broken: resume below
                }
                guard let bytes else { break }
                silentSince = ContinuousClock.now
                for event in parser.feed(bytes) {
                    if let id = event.id, !id.isEmpty { lastId = id }
                    try onEvent(event)
                }
            }
            stream.close()
            if shouldStop() { return }
            if let ms = parser.retryMilliseconds { retry = Double(ms) / 1000 }
            onInterruption(.ended(lastEventId: lastId))
            Self.pause(retry, shouldStop)
        }
    }

    /// Waits `seconds`, looking at `shouldStop` ten times a second.
    static func pause(_ seconds: Double, _ shouldStop: () -> Bool) {
        let end = ContinuousClock.now + .seconds(seconds)
        while !shouldStop(), ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.1) }
    }
}
