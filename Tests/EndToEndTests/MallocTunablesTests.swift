import Foundation
import Testing
@testable import bgemu

/// Issue 26 (defect 4, memory returned): `serve` runs with glibc's per-thread caches off, which kept the heap's
/// pages of closed streams resident for as long as the threads lived; it sets the tunable by executing itself
/// again, keeping what the user set.
@Suite struct MallocTunablesTests {
    @Test func theTunableIsAddedToWhatIsSetAndAnExplicitCountIsKept() {
        #expect(MallocTunables.wanted(current: nil) == "glibc.malloc.tcache_count=0")
        #expect(MallocTunables.wanted(current: "") == "glibc.malloc.tcache_count=0")
        #expect(MallocTunables.wanted(current: "glibc.malloc.arena_max=2") == "glibc.malloc.tcache_count=0:glibc.malloc.arena_max=2")
        #expect(MallocTunables.wanted(current: "glibc.malloc.tcache_count=7") == nil)
        #expect(MallocTunables.wanted(current: "glibc.malloc.arena_max=2:glibc.malloc.tcache_count=3") == nil)
    }

    /// The running service's environment (`/proc/PID/environ`) has the tunable, under the same process id the
    /// test started. (glibc 2.36 rewrites the variable's first bytes in place as it parses it, so that the file
    /// shows the first tunable only: the test compares that.)
    @Test func theServiceRunsWithTheCachesOffUnderItsOwnProcessId() throws {
        for (given, expected) in [(nil, "glibc.malloc.tcache_count=0"),
                                  ("glibc.malloc.arena_max=2", "glibc.malloc.tcache_count=0"),
                                  ("glibc.malloc.tcache_count=7", "glibc.malloc.tcache_count=7")] as [(String?, String)] {
            let service = try LiveService()
            try service.start(apiKey: "bgemu_tunables_key_0123456789abcdef", environment: given.map { ["GLIBC_TUNABLES": $0] } ?? [:])
            defer { service.stop() }
            let pid = try #require(service.process?.processIdentifier)
            let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
            let variables = environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let tunables = variables.filter { $0.hasPrefix("GLIBC_TUNABLES=") }
            #expect(tunables.count == 1)
            #expect(tunables.first?.split(separator: ":").first.map(String.init) == "GLIBC_TUNABLES=" + expected)
        }
    }
}
