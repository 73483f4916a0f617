import Testing
@testable import HTTPServer

/// `ProcessorCount`: a container's CPU limit caps the processors counted.
@Suite struct ProcessorCountTests {
    @Test func aCgroupV2LimitIsWholeProcessorsRoundedUpAndMaxIsNone() {
        #expect(ProcessorCount.limit(cpuMax: "200000 100000\n") == 2)
        #expect(ProcessorCount.limit(cpuMax: "150000 100000") == 2)
        #expect(ProcessorCount.limit(cpuMax: "50000 100000") == 1)
        #expect(ProcessorCount.limit(cpuMax: "max 100000\n") == nil)
        #expect(ProcessorCount.limit(cpuMax: "") == nil)
    }

    @Test func aCgroupV1QuotaOfMinusOneIsNone() {
        #expect(ProcessorCount.limit(quota: "400000\n", period: "100000\n") == 4)
        #expect(ProcessorCount.limit(quota: "-1\n", period: "100000\n") == nil)
        #expect(ProcessorCount.limit(quota: nil, period: "100000") == nil)
    }

    @Test func theProcessorsAvailableAreAtLeastOne() {
        #expect(ProcessorCount.available >= 1)
    }
}
