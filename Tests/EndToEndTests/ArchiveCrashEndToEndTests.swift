import Foundation
import Glibc
import Testing
import ZIPFoundation

/// Issue 26 against the real executable: the archives that crashed the whole service (for every tenant) are each
/// refused with a `422` problem, posted as `application/zip`, as `application/octet-stream` and as a multipart
/// `infoPlist` part, and the same process still answers, another tenant included; and a large body that is not a zip
/// is refused for little CPU (the end record is looked for only in its last 65,557 bytes, not over the whole body).
/// Likewise the binary Info.plist the plist fuzzer found (it holds a set: Foundation's parser died of a null pointer),
/// alone or inside an `.ipa`.
@Suite(.serialized) struct ArchiveCrashEndToEndTests {
    static let key = "archive-crash-e2e-key-0123456789"
    static let boundary = "bgemu-e2e-boundary-26"

    static func crashFixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: CommandLineRunner.fixtures.appendingPathComponent("ArchiveCrashes/\(name)")))
    }

    static let crashes = [
        "zip64-uncompressed-size-max.zip", "data-descriptor-compressed-size-max.zip",
        "info-plist-compressed-size-2pow63.zip", "local-header-offset-max.zip",
    ]

    /// The three forms an upload takes: (content type, body).
    static func forms(of archive: [UInt8]) -> [(String, [UInt8])] {
        let part = Array("""
            --\(boundary)\r
            Content-Disposition: form-data; name="infoPlist"; filename="Crash.ipa"\r
            Content-Type: application/zip\r
            \r

            """.utf8) + archive + Array("\r\n--\(boundary)--\r\n".utf8)
        return [
            ("application/zip", archive), ("application/octet-stream", archive),
            ("multipart/form-data; boundary=\(boundary)", part),
        ]
    }

    @Test(arguments: crashes)
    func aCrashArchiveIsRefusedInEveryFormAndTheServiceStillAnswersEveryTenant(fixture: String) throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let admin = service.client(key: LiveService.adminToken)
        let other = service.client(key: try #require(
            try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"bystander"}"#).json["apiKey"] as? String))
        let device = try #require(try client.request("POST", "/v1/devices", json: #"{"name":"ci"}"#).json["id"] as? String)
        let archive = try Self.crashFixture(fixture)

        for (type, body) in Self.forms(of: archive) {
            let answer = try client.request("POST", "/v1/devices/\(device)/apps", body: body, headers: [("Content-Type", type)])
            #expect(answer.status == 422, "\(fixture) as \(type): \(answer.status) \(answer.text)")
            #expect(answer.header("Content-Type") == "application/problem+json", "\(fixture) as \(type)")
            #expect(answer.text.contains("archive"), "\(fixture) as \(type): \(answer.text)")
            #expect(service.process?.isRunning == true, "\(fixture) as \(type) ended the service:\n\(service.output)")
            #expect(try service.client().request("GET", "/healthz").status == 200)
            #expect(try other.request("POST", "/v1/devices", json: #"{"name":"bystander"}"#).status == 201)
        }
        #expect(!service.output.contains("runtime failure") && !service.output.contains("Fatal error"), "\(service.output)")
    }

    @Test func aBinaryPlistHoldingASetIsRefusedInEveryFormAndTheServiceStillAnswers() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let device = try #require(try client.request("POST", "/v1/devices", json: #"{"name":"ci"}"#).json["id"] as? String)
        let plist = Array(try Data(contentsOf: CommandLineRunner.fixtures.appendingPathComponent("PlistCrashes/set-in-binary-plist.bplist")))
        let ipa = try Archive(data: Data(), accessMode: .create)
        try ipa.addEntry(with: "Payload/Set.app/Info.plist", type: .file, uncompressedSize: Int64(plist.count),
                         compressionMethod: .deflate) { position, size in Data(plist[Int(position)..<Int(position) + size]) }
        let zipped = Array(ipa.data ?? Data())
        let forms = [("application/x-plist", plist)] + Self.forms(of: plist).filter { $0.0 != "application/zip" }
            + [("application/zip", zipped)]
        for (type, body) in forms {
            let answer = try client.request("POST", "/v1/devices/\(device)/apps", body: body, headers: [("Content-Type", type)])
            #expect(answer.status == 422, "as \(type): \(answer.status) \(answer.text)")
            #expect(answer.header("Content-Type") == "application/problem+json", "as \(type)")
            #expect(answer.text.contains("holds a set"), "as \(type): \(answer.text)")
            #expect(service.process?.isRunning == true, "as \(type) ended the service:\n\(service.output)")
            #expect(try service.client().request("GET", "/healthz").status == 200)
        }
    }

    @Test func aLargeBodyThatIsNotAZipIsRefusedForLittleCPU() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let device = try #require(try client.request("POST", "/v1/devices", json: #"{"name":"ci"}"#).json["id"] as? String)
        // 32 MiB that is no zip: the old reader searched it all, backwards a byte at a time (~0.35 s of CPU a MiB,
        // 11 s here in a debug build); reading the last 65,557 bytes costs next to nothing beside receiving it.
        var body = [UInt8](repeating: 0x41, count: 32 << 20)
        body.replaceSubrange(0..<4, with: [0x50, 0x4B, 0x03, 0x04])
        let pid = try #require(service.process?.processIdentifier)
        let before = try Self.cpuSeconds(pid)
        let answer = try client.request("POST", "/v1/devices/\(device)/apps", body: body, headers: [("Content-Type", "application/zip")])
        let spent = try Self.cpuSeconds(pid) - before
        #expect(answer.status == 422)
        #expect(answer.text.contains("not a zip archive"), "\(answer.text)")
        #expect(spent < 2, "the service spent \(spent) s of CPU refusing 32 MiB")
    }

    /// The user and system CPU time of process `pid` so far, from `/proc/PID/stat`.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
