import CompactJSON
import Emulation
import Foundation
import HTTPServer

/// Reading JSON request bodies and writing JSON responses.
enum JSONBody {
    /// Whether the request declares a JSON body (`application/json` or any `+json` type).
    static func isJSON(_ request: HTTPRequest) -> Bool {
        guard let type = mediaType(request) else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// The request's media type, lower-cased, without parameters.
    static func mediaType(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Content-Type"] else { return nil }
        if value == "application/json" { return value }  // what clients send: nothing to trim or lower
        let type = value.utf8.prefix { $0 != UInt8(ascii: ";") }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = type.firstIndex(where: { !isBlank($0) }), let last = type.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(Substring(type[first...last])).lowercased()
    }

    /// Decodes the body as `T`: `415` when it is not JSON, `400` when it is not well-formed, `422` naming every
    /// field whose value has the wrong type, does not fit, or is missing.
    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
        guard isJSON(request) else { throw Problems.unsupportedMediaType(["application/json"], method: request.method) }
        return try decode(type, bytes: request.body)
    }

    static func decode<T: Decodable>(_ type: T.Type, bytes: [UInt8]) throws -> T {
        if bytes.isEmpty { throw Problems.malformed("The request needs a JSON body.") }
        // I-JSON (RFC 7493 §2.3): a name given twice is a malformed request, not a silent choice of one value.
        if let duplicate = JSONDuplicateMembers.first(in: bytes), isWellFormed(bytes) {
            throw Problems.malformed("The body names the member \(duplicate) twice (I-JSON, RFC 7493).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, !isWellFormed(bytes) {
                throw malformedJSON(bytes)
            }
            throw problem(for: error, decoding: T.self, bytes: bytes)
        } catch let error as EmulationError {
            throw error
        } catch {
            throw malformedJSON(bytes)
        }
    }

    /// `400`: the body is not JSON, and where it stops being JSON.
    static func malformedJSON(_ bytes: [UInt8]) -> HTTPProblem {
        Problems.malformed("The body is not valid JSON" + (JSONBodyDiagnosis.position(in: bytes).map { " \($0)" } ?? "") + ".")
    }

    /// Whether `bytes` are one well-formed JSON value.
    static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    /// `422` naming every field of `bytes`, a well-formed body, that `T` cannot take (``JSONFieldIssues``), `error`
    /// being the first that Foundation's decoder met; the fields in the order `T` reads them.
    static func problem<T: Decodable>(for error: DecodingError, decoding type: T.Type, bytes: [UInt8]) -> HTTPProblem {
        let every = JSONFieldIssues.every(T.self, in: bytes)
        // Foundation reports a number that does not fit its field's type (1.5 or -1 for an unsigned integer, 1e30
        // for an `Int`) as corrupted data without a coding path, as if the body were not JSON: when it is
        // well-formed, that is a value problem of the body (`422`), not a malformed request.
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            if !every.isEmpty { return Problems.invalid(every) }
            let candidates = JSONBodyDiagnosis.numbersNoIntegerHolds(in: bytes)
            guard !candidates.isEmpty else {
                return Problems.invalid("body", "a number does not fit its field (a fraction, or out of range, for an integer)")
            }
            return Problems.invalid(candidates.map {
                FieldIssue($0.path, "\($0.text) is not an integer from \(Int64.min) to \(UInt64.max), as an integer field needs")
            })
        }
        let first = problem(for: error)
        guard let named = first.errors?.first, !every.isEmpty else { return first }
        // Foundation's own first issue is in the answer whatever the second decoder says.
        return Problems.invalid(every.contains { $0.field == named.field } ? every : [FieldIssue(named.field, named.message)] + every)
    }

    static func problem(for error: DecodingError) -> HTTPProblem {
        switch error {
        case .typeMismatch(let type, let context):
            return Problems.invalid(path(context.codingPath), "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            return Problems.invalid(path(context.codingPath), "must be \(describe(type)), not null")
        case .keyNotFound(let key, let context):
            return Problems.invalid(path(context.codingPath + [key]), "is required")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return Problems.malformed("The body is not valid JSON.") }  // see decode
            return Problems.invalid(path(context.codingPath), context.debugDescription)
        @unknown default:
            return Problems.malformed("The body could not be read.")
        }
    }

    /// `conditions.batteryLevel`, `infoPlist.UIBackgroundModes[2]`.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue { out += "[\(index)]" } else { out += out.isEmpty ? key.stringValue : "." + key.stringValue }
        }
        return out.isEmpty ? "body" : out
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is any FixedWidthInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is [Any].Type: "an array"
        // A keyed container is asked for as a dictionary, which is a Collection too: it is an object.
        default: String(describing: type).hasPrefix("Dictionary") || !(type is any Collection.Type) ? "an object" : "an array"
        }
    }

    /// Keys sorted, slashes as they are: what Foundation's encoder writes with `[.sortedKeys, .withoutEscapingSlashes]`.
    static let encoder = CompactJSONEncoder(escapesSlashes: false)

    /// A JSON response with keys sorted, so that answers repeat byte for byte.
    static func response<T: Encodable>(_ value: T, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) throws
        -> HTTPResponse
    {
        HTTPResponse(status: status, contentType: "application/json", bytes: try encoder.encode(value), headers: headers)
    }
}
