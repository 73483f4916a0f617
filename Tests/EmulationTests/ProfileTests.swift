import Testing
@testable import Emulation

struct ProfileTests {
    @Test(arguments: [("4.0", "ios4"), ("6.1.3", "ios4"), ("7.0", "ios7"), ("12.5", "ios7"), ("13.0", "ios13"), ("17", "ios13"), ("26.1", "ios13")])
    func osVersionSelectsTheProfile(version: String, profile: String) throws {
        let os = try #require(OSVersion(version))
        #expect(Profile.for(os).name == profile)
    }

    @Test func profilesCarryTheTableOfRules() {
        #expect(Profile.ios4.backgroundTaskAllowance == .seconds(600))
        #expect(Profile.ios7.backgroundTaskAllowance == .seconds(180))
        #expect(Profile.ios13.backgroundTaskAllowance == .seconds(30))
        #expect([Profile.ios4, .ios7, .ios13].allSatisfy { $0.expirationWarning == .seconds(5) })
        #expect(Profile.ios4.appRefreshRun == nil && Profile.ios7.appRefreshRun == .seconds(30))
        #expect(Profile.ios13.processingRun == .seconds(300) && Profile.ios7.processingRun == nil)
        #expect(Profile.ios4.pendingNotificationLimit == 128 && Profile.ios13.pendingNotificationLimit == 64)
        #expect(!Profile.ios7.bgTaskSchedulerAvailable && Profile.ios13.bgTaskSchedulerAvailable)
    }

    @Test(arguments: ["", "3.0", "27.0", "17.x", "17..0", "1.2.3.4", "-17", "17.0 "])
    func badVersionsAreRejected(text: String) {
        #expect(OSVersion(text) == nil)
    }

    @Test func versionsRoundTripAsText() {
        #expect(OSVersion("17.0")?.description == "17.0")
        #expect(OSVersion("12.4.1")?.description == "12.4.1")
        #expect(OSVersion("9")?.description == "9.0")
        #expect(OSVersion("12.4.1")! < OSVersion("13.0")!)
    }

    /// The grammar the contract's `osVersion` pattern states: 1–3 dot-separated parts of up to 3 digits, no
    /// leading zero, major 4–26.
    @Test func versionsFollowTheContractsPattern() {
        for accepted in ["4", "26", "17.0", "12.4.1", "16.10.100"] { #expect(OSVersion(accepted) != nil, "\(accepted)") }
        for refused in ["", "3", "27", "040.1.46", "017", "17.01", "17.0.0.0", "17.", ".1", "17.1000", "17.a"] {
            #expect(OSVersion(refused) == nil, "\(refused)")
        }
    }
}
