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
        let deep = String(repeating: "d/", count: 600) + "X.app/Info.plist"
        let clock = ContinuousClock()
        let spent = clock.measure {
            for _ in 0..<2_000 {
                _ = AppArchive.unsafePath(deep)
                _ = AppArchive.isAppInfoPlist(deep)
            }
        }
        // Debug build: about 0.4 s for 2,000 paths of 1,200 bytes and 601 components; quadratic work would not be.
        #expect(spent < .seconds(3), "\(spent)")
    }
}
