import ArgumentParser
import Foundation
import Glibc
import BGEmuHTTP

/// `bgemu events DEVICE [--follow]`: a device's events as terminal lines, or live as they happen
/// (`GET /v1/devices/{deviceId}/events`, as a page or a Server-Sent Events stream).
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print a device's events, or follow them live.",
        discussion: """
            Each event is one line: its virtual time, type, app (- for the device's own) and data as \
            key=value. Without --follow, prints the device's stored events, oldest first, and exits. With \
            --follow, prints the events that happen from now on as they happen (a Server-Sent Events stream), \
            until interrupted (Ctrl-C); a broken connection is resumed after the last event printed, so \
            nothing is lost or printed twice. --after ID starts after that event id instead (0: from the \
            first event).
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Flag(name: [.short, .long], help: "Keep printing events as they happen, until interrupted.")
    var follow = false

    @Option(help: "Only events whose type starts with this (run. gives run.started, run.completed, …).")
    var type: String?

    @Option(help: "Only the events of this app.")
    var bundleId: String?

    @Option(help: "Only events after this event id (0: every event).")
    var after: UInt64?

    @Flag(help: "Print each event as a JSON line instead.")
    var json = false

    func run() throws {
        try CommandFailure.reporting {
            var service = try client.client()
            let path = ServiceClient.path("v1", "devices", device, "events")
            var filters: [(String, String)] = []
            if let type { filters.append(("type", type)) }
            if let bundleId { filters.append(("bundleId", bundleId)) }
            guard follow else {
                let query = filters + (after.map { [("after", String($0))] } ?? [])
                for event in try service.allItems(path, query: query) { print(event) }
                return
            }
            Self.unblockTerminationSignals()
            // Where the stream starts: after --after, else after the newest event now, so that a reconnection
            // before the first event still resumes without a gap.
            let newest = try service.json("GET", path, query: filters + [("order", "desc"), ("limit", "1")])
            let newestId = ((newest["items"] as? [[String: Any]])?.first?["id"] as? Int).map(String.init) ?? "0"
            var lastId = after.map(String.init) ?? newestId
            // Reads longer than a few heartbeats (15 s by default) mean a dead connection: reconnect.
            service.http.timeout = 60
            var retry = 2000
            while true {
                let stream: HTTPClient.StreamingResponse
                do {
                    stream = try service.open(
                        path, query: filters, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", lastId)])
                } catch CommandFailure.unreachable(_, let reason) {
                    Terminal.error("bgemu: the event stream is unreachable (\(reason)); retrying in \(retry / 1000) s…")
                    Thread.sleep(forTimeInterval: Double(retry) / 1000)
                    continue
                } catch CommandFailure.refused(503, _, _) {
                    Thread.sleep(forTimeInterval: Double(retry) / 1000)
                    continue
                }
                var parser = EventStreamParser()
                do {
                    while let bytes = try stream.read() {
                        for event in parser.feed(bytes) {
                            if let id = event.id, !id.isEmpty { lastId = id }
                            if json {
                                Terminal.line(event.data)
                            } else if let object = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] {
                                Terminal.line(EventLine.text(object))
                            }
                        }
                    }
                } catch {
                    // Silence past the timeout, or a broken connection: resume below.
                }
                stream.close()
                retry = parser.retryMilliseconds ?? retry
                Terminal.error("bgemu: the event stream ended; resuming after event \(lastId)…")
                Thread.sleep(forTimeInterval: Double(retry) / 1000)
            }
        }
    }

    /// Lets Ctrl-C (SIGINT), SIGTERM and SIGHUP end the stream even when the parent process started this one with
    /// them blocked: a blocked signal mask is inherited across `exec` (Foundation's `Process` passes its thread's).
    static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in InterruptFlag.signals { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    private func print(_ event: [String: Any]) {
        if json {
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? JSONSerialization.data(withJSONObject: event, options: options) else { return }
            Terminal.line(String(decoding: data, as: UTF8.self))
        } else {
            Terminal.line(EventLine.text(event))
        }
    }
}
