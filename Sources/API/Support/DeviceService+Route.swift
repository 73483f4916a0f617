import Emulation
import HTTPServer
import Service

extension DeviceService {
    /// ``perform(_:on:tenantId:)`` on the device the route's `{deviceId}` names, for the caller's tenant.
    @discardableResult
    func perform(_ command: DeviceCommand, for context: HTTPRequestContext) throws -> (Device, CommandOutcome) {
        try perform(command, on: context.parameters.require("deviceId"), tenantId: try context.tenant().id)
    }

    /// The device the route's `{deviceId}` names, if the caller's tenant has it; else `notFound`.
    func device(for context: HTTPRequestContext) throws -> Device {
        try device(context.parameters.require("deviceId"), tenantId: try context.tenant().id)
    }
}
