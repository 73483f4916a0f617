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

    @Test func aShardedCacheStaysBoundedKeepsItsHotDevicesAndForgetsInEveryShard() {
        let cache = DeviceCache(limit: 2_000)  // 16 shards of 125
        let hot = (0..<32).map { device($0, tenant: "ten_quiet") }
        for device in hot { cache.remember(device) }
        for n in 100..<20_100 {
            cache.remember(device(n))
            if n % 50 == 0 {
                for device in hot { #expect(cache.device(device.id) == device, "insertion \(n)") }
            }
        }
        #expect(cache.count <= 2_000)
        #expect(cache.count >= 1_000)  // each shard drops half of its share at most
        cache.forgetTenant("ten_quiet")
        #expect(hot.allSatisfy { cache.device($0.id) == nil })
        #expect(cache.device("dev_20099") != nil)
        cache.forgetAll()
        #expect(cache.count == 0)
    }

    @Test func forgettingATenantLeavesTheOthers() {
        let cache = DeviceCache(limit: 10)
        cache.remember(device(1))
        cache.remember(device(2, tenant: "ten_other"))
        cache.forgetTenant("ten_flood")
        #expect(cache.device("dev_1") == nil && cache.device("dev_2") != nil)
    }
}
