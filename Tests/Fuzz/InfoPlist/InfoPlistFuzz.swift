import Foundation

/// The libFuzzer entry point for the plist reader (`InfoPlist.parse` in `Sources/Emulation/App/InfoPlist.swift`, which
/// reads XML and binary property lists with Foundation's `PropertyListSerialization`), built by
/// `run-fuzz.sh --target plist` from the Emulation module's sources. Each input is an uploaded Info.plist, read
/// with a bundle identifier given (as the query's `bundleId` would) and without: whatever the bytes, an
/// `InfoPlist` or an `EmulationError`, never a trap or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfoPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for requested in [nil, "org.example.fuzz"] {
        do {
            _ = try InfoPlist.parse(bytes, requestedBundleId: requested)
        } catch is EmulationError {
            continue
        } catch {
            fuzzCheck(false, "InfoPlist.parse threw \(type(of: error)), not an EmulationError: \(error)")
        }
    }
    return 0
}
