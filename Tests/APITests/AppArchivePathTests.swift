import Testing
@testable import API

/// AppArchive's path checks, read on UTF-8 bytes in one pass: what they refuse and which Info.plist is the app's.
struct AppArchivePathTests {
    @Test func absoluteClimbingAndNULPathsAreUnsafe() {
        #expect(AppArchive.unsafePath("/etc/x") == "is absolute")
        #expect(AppArchive.unsafePath("\\etc\\x") == "is absolute")
        #expect(AppArchive.unsafePath("Payload/../../x") == "climbs out of the archive (..)")
        #expect(AppArchive.unsafePath("Payload\\..\\x") == "climbs out of the archive (..)")
        #expect(AppArchive.unsafePath("..") == "climbs out of the archive (..)")
        #expect(AppArchive.unsafePath("a/b\u{0}c") == "holds a NUL byte")
        #expect(AppArchive.unsafePath("a/..b/c../...") == nil)
        #expect(AppArchive.unsafePath("Payload/X.app/Info.plist") == nil)
        // A combining mark after the separator does not hide the `..` from a file system.
        #expect(AppArchive.unsafePath("a/\u{301}/../x") == "climbs out of the archive (..)")
    }

    @Test func theAppsInfoPlistIsNotAnExtensionsAFrameworksOrAResourceForks() {
        #expect(AppArchive.isAppInfoPlist("Payload/X.app/Info.plist"))
        #expect(AppArchive.isAppInfoPlist("X.app/Info.plist"))
        #expect(AppArchive.isAppInfoPlist("a//X.app//Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("Payload/X.app/PlugIns/W.appex/Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("Payload/X.app/Watch/W.app/Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("Payload/X.app/Frameworks/K.framework/Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("__MACOSX/X.app/Info.plist"))
        #expect(!AppArchive.isAppInfoPlist("Payload/X.appx/Info.plist"))
        #expect(AppArchive.depth("Payload/X.app/Info.plist") == 3)
        #expect(AppArchive.depth("/a//b/") == 2)
    }

    @Test func deepPathsAreCheckedInLinearTime() {
        // A path four times as deep costs about four times as much, not sixteen (quadratic work would): the two
        // are timed in turn, the fastest of five rounds each, so that a loaded machine slows both alike.
        func cost(_ components: Int) -> Duration {
            let deep = String(repeating: "d/", count: components) + "X.app/Info.plist"
            return ContinuousClock().measure {
                for _ in 0..<500 {
                    _ = AppArchive.unsafePath(deep)
                    _ = AppArchive.isAppInfoPlist(deep)
                }
            }
        }
        var short = Duration.seconds(1_000), long = Duration.seconds(1_000)
        for _ in 0..<5 {
            short = min(short, cost(300))
            long = min(long, cost(1_200))
        }
        #expect(long / short < 10, "\(short) for 300 components, \(long) for 1,200")
    }
}
