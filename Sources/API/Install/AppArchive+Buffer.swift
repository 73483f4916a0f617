// Throw-away shim until the buffer-based zip reader lands (deleted at merge): the same entry point, by copy.
extension AppArchive {
    static func infoPlist(in buffer: UnsafeRawBufferPointer) throws -> [UInt8] { try infoPlist(in: Array(buffer)) }
}
