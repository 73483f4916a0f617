import Glibc
import Testing
@testable import bgemu

/// The addresses of HAProxy's runtime API that `bgemu tenants create|place|move --haproxy-socket` takes: those of
/// `stats socket` (issue 30: one per HAProxy replica, some on other machines).
@Suite struct HAProxyRuntimeTests {
    @Test func pathsAndUnixPrefixesAreUnixSockets() {
        #expect(HAProxyRuntime.endpoint("/var/run/haproxy/admin.sock") == .unix("/var/run/haproxy/admin.sock"))
        #expect(HAProxyRuntime.endpoint("./admin.sock") == .unix("./admin.sock"))
        #expect(HAProxyRuntime.endpoint("admin.sock") == .unix("admin.sock"))
        #expect(HAProxyRuntime.endpoint("unix@/state/admin.sock") == .unix("/state/admin.sock"))
    }

    @Test func ipv4AndIpv6PrefixesAndBareHostPortsAreTCP() {
        #expect(HAProxyRuntime.endpoint("ipv4@127.0.0.1:9999") == .tcp(host: "127.0.0.1", port: "9999", family: AF_INET))
        #expect(HAProxyRuntime.endpoint("ipv4@haproxy-1.bgemu:9999") == .tcp(host: "haproxy-1.bgemu", port: "9999", family: AF_INET))
        #expect(HAProxyRuntime.endpoint("ipv6@[::1]:9999") == .tcp(host: "::1", port: "9999", family: AF_INET6))
        #expect(HAProxyRuntime.endpoint("ipv6@::1:9999") == .tcp(host: "::1", port: "9999", family: AF_INET6))
        #expect(HAProxyRuntime.endpoint("haproxy-0:9999") == .tcp(host: "haproxy-0", port: "9999", family: AF_UNSPEC))
    }

    @Test func addressesNamingNoSocketAreRefused() {
        for address in ["", "unix@", "ipv4@127.0.0.1", "ipv4@:9999", "ipv4@127.0.0.1:0", "ipv4@127.0.0.1:70000", "host:port"] {
            #expect(HAProxyRuntime.endpoint(address) == nil, "\(address)")
        }
    }

    @Test func aReplicaThatDoesNotAnswerIsReportedWithinTheTimeout() throws {
        // A listening socket that never answers: connected (the kernel's backlog), then no reply.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 4) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        var runtime = HAProxyRuntime(address: "ipv4@127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
        runtime.timeout = 1
        let started = ContinuousClock.now
        #expect(throws: CommandFailure.self) { try runtime.send("show map") }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
