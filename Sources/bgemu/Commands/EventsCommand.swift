import ArgumentParser
import Foundation
import Glibc
import BGEmuClient

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
            let service = try client.client()
            let filter = EventFilter(typePrefix: type, bundleId: bundleId)
            guard follow else {
                for event in try service.events(device, after: after.map { Int64(clamping: $0) }, filter: filter) { print(event) }
                return
            }
            Self.unblockTerminationSignals()
            // Where the stream starts: after --after, else after the newest event now, so that a reconnection
            // before the first event still resumes without a gap.
            let start = try after.map { Int64(clamping: $0) } ?? service.newestEventId(device, filter: filter)
            try service.followEvents(
                device, after: start, filter: filter, reconnectWhenUnreachable: true,
                onInterruption: { interruption in
                    switch interruption {
                    case .unreachable(let reason):
                        Terminal.error("bgemu: the event stream is unreachable (\(reason)); retrying…")
                    case .unavailable:
                        Terminal.error("bgemu: the service is busy (503); retrying…")
                    case .ended(let lastId):
                        Terminal.error("bgemu: the event stream ended; resuming after event \(lastId)…")
                    }
                }
            ) { event, message in
                if json { Terminal.line(message.data) } else if event.objectValue != nil { Terminal.line(EventLine.text(event)) }
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

    private func print(_ event: JSONValue) {
        Terminal.line(json ? event.text : EventLine.text(event))
    }
}
