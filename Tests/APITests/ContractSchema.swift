import Emulation
import Foundation
import Yams

/// A schema of `openapi.yaml` checked against a JSON value: the subset of JSON Schema the contract uses for its
/// answers (`$ref`, `type` as a name or a list, `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `pattern`, `minimum`, `maximum`, `exclusiveMinimum`). Each problem names its JSON path.
struct ContractSchema {
    let schemas: [String: Any]

    /// The contract's `components.schemas`.
    static func load() throws -> ContractSchema {
        let text = try String(contentsOf: OpenAPIContractTests.specURL(), encoding: .utf8)
        let document = try Yams.load(yaml: text) as? [String: Any]
        let components = document?["components"] as? [String: Any]
        return ContractSchema(schemas: components?["schemas"] as? [String: Any] ?? [:])
    }

    /// What of `json` does not meet the schema named `name`; empty when it all does.
    func problems(_ json: [UInt8], against name: String) throws -> [String] {
        let value = try JSONDecoder().decode(EventValue.self, from: Data(json))
        return problems(value, ["$ref": "#/components/schemas/\(name)"], path: "$")
    }

    private func problems(_ value: EventValue, _ schema: [String: Any], path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let resolved = schemas[name] as? [String: Any] else { return ["\(path): no schema \(reference)"] }
            return problems(value, resolved, path: path)
        }
        var found: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
           !types.contains(where: { Self.value(value, is: $0) }) {
            return ["\(path): \(value) is not \(types.joined(separator: " or "))"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.value(value, equals: $0) }) {
            found.append("\(path): \(value) is not one of \(allowed)")
        }
        switch value {
        case .string(let text):
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): \"\(text)\" does not match \(pattern)")
            }
        case .int, .double:
            let number = Self.number(value) ?? 0
            if let minimum = Self.double(schema["minimum"]), number < minimum { found.append("\(path): \(number) < \(minimum)") }
            if let maximum = Self.double(schema["maximum"]), number > maximum { found.append("\(path): \(number) > \(maximum)") }
            if let floor = Self.double(schema["exclusiveMinimum"]), number <= floor { found.append("\(path): \(number) ≤ \(floor)") }
        case .object(let members):
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where members[name] == nil {
                found.append("\(path): \(name) is required")
            }
            for (name, member) in members {
                if let property = properties[name] as? [String: Any] {
                    found += problems(member, property, path: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    found += problems(member, additional, path: "\(path).\(name)")
                } else if schema["additionalProperties"] as? Bool == false || !properties.isEmpty {
                    // An answer's object with named properties has no others: the contract names every field.
                    found.append("\(path): \(name) is not in the schema")
                }
            }
        case .array(let elements):
            if let items = schema["items"] as? [String: Any] {
                for (index, element) in elements.enumerated() { found += problems(element, items, path: "\(path)[\(index)]") }
            }
        case .null, .bool:
            break
        }
        return found
    }

    private static func value(_ value: EventValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("object", .object), ("array", .array): true
        case ("integer", .int): true
        case ("integer", .double(let number)): number.rounded() == number
        case ("number", .int), ("number", .double): true
        default: false
        }
    }

    private static func value(_ value: EventValue, equals allowed: Any) -> Bool {
        switch value {
        case .string(let text): (allowed as? String) == text
        case .null: allowed is NSNull
        default: false
        }
    }

    private static func number(_ value: EventValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func double(_ any: Any?) -> Double? {
        if let number = any as? Int { return Double(number) }
        return any as? Double
    }
}
