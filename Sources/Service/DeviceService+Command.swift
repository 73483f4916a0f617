import Emulation

extension DeviceService {
    /// Applies `command` to the tenant's device at its current virtual time and commits what it did (see
    /// ``perform(_:tenantId:_:)``); answers the device as committed and what the command gave.
    @discardableResult
    public func perform(_ command: DeviceCommand, on id: String, tenantId: String) throws -> (Device, CommandOutcome) {
        try perform(id, tenantId: tenantId) { engine in try engine.apply(command) }
    }
}
