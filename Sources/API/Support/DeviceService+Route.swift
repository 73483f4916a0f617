import Emulation
import HTTPServer
import Service

extension DeviceService {
    /// ``perform(_:tenantId:_:)`` on the device the route's `{deviceId}` names, for the caller's tenant.
    @discardableResult
    func perform<T>(for context: HTTPRequestContext, _ command: (inout DeviceEngine) throws -> T) throws -> (Device, T) {
        try perform(context.parameters.require("deviceId"), tenantId: try context.tenant().id, command)
    }

    /// The device the route's `{deviceId}` names, if the caller's tenant has it; else `notFound`.
    func device(for context: HTTPRequestContext) throws -> Device {
        try device(context.parameters.require("deviceId"), tenantId: try context.tenant().id)
    }
}
