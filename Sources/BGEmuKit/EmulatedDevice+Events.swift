import BGEmuHTTP
import Foundation

extension EmulatedDevice {
    /// The device's events as they are recorded, typed: every event since the device was created, then live ones,
    /// read from the service's Server-Sent Events stream (`Last-Event-ID`) on a thread of its own. The sequence
    /// ends when the loop that reads it stops (or the task is cancelled) and throws
    /// ``BGEmuError/transport(_:)`` when the stream breaks. Observing it changes nothing: the harness dispatches
    /// the app's code from its own reads of the device's events.
    public var events: AsyncThrowingStream<DeviceEvent, any Error> { events(after: 0) }

    /// The device's events after the event `id`, then live ones.
    public func events(after id: Int64) -> AsyncThrowingStream<DeviceEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DeviceEvent, any Error>.makeStream()
        guard var streaming = streamClient else {
            continuation.finish(throwing: BGEmuError.notConfigured("this device has no event stream"))
            return stream
        }
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        // Short reads so that a stopped sequence lets its thread go within a second.
        streaming.timeout = 1
        let client = streaming
        let path = "/v1/devices/\(self.id)/events"
        let thread = Thread {
            var lastId = id
            var parser = ServerSentEventParser()
            while !stop.isSet {
                do {
                    let response = try client.open(
                        "GET", path, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", String(lastId))])
                    guard response.status == 200 else {
                        let problem = ServiceProblem(status: response.status, body: (try? response.readAll()) ?? [])
                        continuation.finish(throwing: BGEmuError.problem(problem))
                        return
                    }
                    while !stop.isSet {
                        let bytes: [UInt8]?
                        do { bytes = try response.read() } catch HTTPClient.ClientError.timedOut { continue }
                        guard let bytes else { break }
                        for message in parser.feed(bytes) {
                            guard let data = try? JSONValue.parse(Array(message.data.utf8)),
                                  let event = DeviceEvent(json: data) else { continue }
                            lastId = event.id
                            continuation.yield(event)
                        }
                    }
                    response.close()
                } catch HTTPClient.ClientError.timedOut {
                    continue
                } catch {
                    continuation.finish(throwing: BGEmuError.transport("the event stream broke: \(error)"))
                    return
                }
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
