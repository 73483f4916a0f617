import BGEmuClient
import Foundation

extension EmulatedDevice {
    /// The device's events as they are recorded, typed: every event since the device was created, then live ones,
    /// read from the service's Server-Sent Events stream on a thread of its own, resumed with `Last-Event-ID`
    /// when the stream ends or breaks (the client's one event-stream reader). The sequence ends when the loop
    /// that reads it stops (or the task is cancelled), and throws ``BGEmuError/problem(_:)`` when the service
    /// refuses the stream and ``BGEmuError/transport(_:)`` when it cannot be reached. Observing it changes nothing:
    /// the harness dispatches the app's code from its own reads of the device's events.
    public var events: AsyncThrowingStream<DeviceEvent, any Error> { events(after: 0) }

    /// The device's events after the event `id`, then live ones.
    public func events(after id: Int64) -> AsyncThrowingStream<DeviceEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DeviceEvent, any Error>.makeStream()
        guard let client = streamClient else {
            continuation.finish(throwing: BGEmuError.notConfigured("this device has no event stream"))
            return stream
        }
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        let device = self.id
        let thread = Thread {
            do {
                try client.followEvents(device, after: id, reconnectWhenUnreachable: false, shouldStop: { stop.isSet }) { data, _ in
                    if let event = DeviceEvent(json: data) { continuation.yield(event) }
                }
                continuation.finish()
            } catch ClientFailure.refused(let problem) {
                continuation.finish(throwing: BGEmuError.problem(problem))
            } catch {
                continuation.finish(throwing: BGEmuError.transport("the event stream broke: \(error)"))
            }
        }
        thread.start()
        return stream
    }
}
