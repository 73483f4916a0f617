import Emulation
import Foundation
import Service

/// The field primitives of a scenario file: each reads one value and names its field in an issue when invalid.
extension ScenarioParser {
    mutating func fail(_ field: String, _ message: String) { issues.append(FieldIssue(field, message)) }

    mutating func object(_ value: EventValue?, _ field: String, allowed: Set<String>) -> [String: EventValue]? {
        guard case .object(let object) = value else {
            fail(field, "must be an object")
            return nil
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            fail(field == "body" ? key : "\(field).\(key)", "is not a known field; known fields: \(allowed.sorted().joined(separator: ", "))")
        }
        // A field given as null is absent, as in every request body.
        return object.filter { $0.value != .null }
    }

    mutating func seconds(_ value: EventValue?, _ field: String) -> Double? {
        let number: Double?
        switch value {
        case .int(let n)?: number = Double(n)
        case .double(let d)?: number = d
        default: number = nil
        }
        guard let number, number >= 0, number <= Scenario.maximumDuration, number.isFinite else {
            fail(field, "must be a number of seconds from 0 to \(Int(Scenario.maximumDuration))")
            return nil
        }
        return number
    }

    mutating func string(_ value: EventValue?, _ field: String, required: Bool = true) -> String? {
        guard let value else {
            if required { fail(field, "is required") }
            return nil
        }
        guard case .string(let text) = value, !text.isEmpty else {
            fail(field, "must be a non-empty string")
            return nil
        }
        return text
    }

    /// Decodes `value` as one of the API's request bodies, naming its fields under `prefix`.
    mutating func wire<T: Decodable>(_ type: T.Type, _ value: [String: EventValue], _ prefix: String) -> T? {
        let bytes = (try? JSONEncoder().encode(EventValue.object(value))) ?? Data()
        do {
            return try JSONDecoder().decode(T.self, from: bytes)
        } catch EmulationError.invalid(let more) {
            issues += more.map { FieldIssue("\(prefix).\($0.field)", $0.message) }
        } catch let error as DecodingError {
            let problem = JSONBody.problem(for: error, decoding: T.self, bytes: Array(bytes))
            for field in problem.errors ?? [] { fail("\(prefix).\(field.field)", field.message) }
            if problem.errors?.isEmpty ?? true { fail(prefix, problem.detail ?? "is not valid") }
        } catch {
            fail(prefix, "is not valid: \(error)")
        }
        return nil
    }
}
