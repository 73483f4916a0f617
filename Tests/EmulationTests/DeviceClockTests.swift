import Testing
@testable import Emulation

struct DeviceClockTests {
    @Test func manualClockIgnoresWallTime() {
        let clock = DeviceClock(mode: .manual, start: .defaultStart, wallMilliseconds: 1000)
        #expect(clock.now(wallMilliseconds: 999_999) == .defaultStart)
    }

    @Test func realtimeClockScalesWallTime() {
        let clock = DeviceClock(mode: .realtime, scale: 60, start: .defaultStart, wallMilliseconds: 10_000)
        #expect(clock.now(wallMilliseconds: 10_500) == VirtualInstant.defaultStart + .seconds(30))
        #expect(clock.now(wallMilliseconds: 9_000) == .defaultStart)
    }

    @Test func realtimeClockStopsAtTheLatestInstant() {
        let start = VirtualInstant.latest - .seconds(60)
        let clock = DeviceClock(mode: .realtime, scale: DeviceClock.maximumScale, start: start, wallMilliseconds: 0)
        #expect(clock.now(wallMilliseconds: 1) == start + .seconds(10))
        #expect(clock.now(wallMilliseconds: 86_400_000 * 365) == .latest)
    }
}
