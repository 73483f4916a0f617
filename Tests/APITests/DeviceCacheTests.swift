import Emulation
import Foundation
import Testing
@testable import API
@testable import Service

/// The device service's cache keeps the devices in use: another tenant creating devices fast does not evict them.
@Suite struct DeviceCacheTests {
    private func device(_ n: Int, tenant: String = "ten_flood") -> Device {
        Device(id: "dev_\(n)", tenantId: tenant, name: "d\(n)", createdAt: Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func aDeviceReadBetweenManyInsertionsStaysCachedAndTheCacheStaysBounded() {
        let cache = DeviceCache(limit: 100)
        let hot = device(0, tenant: "ten_quiet")
        cache.remember(hot)
        for n in 1...1_000 {
            cache.remember(device(n))
            if n % 10 == 0 { #expect(cache.device(hot.id) == hot, "insertion \(n)") }
            #expect(cache.count <= 100)
        }
    }

    @Test func theLeastRecentlyUsedGoFirst() {
        let cache = DeviceCache(limit: 4)
        for n in 1...4 { cache.remember(device(n)) }
        _ = cache.device("dev_1")
        _ = cache.device("dev_2")
        cache.remember(device(5))  // full: the least recently used half (3 and 4) goes
        #expect(cache.device("dev_3") == nil && cache.device("dev_4") == nil)
        #expect(cache.device("dev_1") != nil && cache.device("dev_2") != nil && cache.device("dev_5") != nil)
    }

    @Test func forgettingATenantLeavesTheOthers() {
        let cache = DeviceCache(limit: 10)
        cache.remember(device(1))
        cache.remember(device(2, tenant: "ten_other"))
        cache.forgetTenant("ten_flood")
        #expect(cache.device("dev_1") == nil && cache.device("dev_2") != nil)
    }
}
