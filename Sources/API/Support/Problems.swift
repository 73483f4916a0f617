import Emulation
import HTTPServer
import Service
import Stores

/// Every problem the API answers, and the one place that turns domain and store errors into problems.
enum Problems {
    static func unauthorized(_ detail: String = "Send an API key as `Authorization: Bearer <key>`.") -> HTTPProblem {
        HTTPProblem(
            status: .unauthorized, code: "unauthorized", detail: detail,
            headers: ["WWW-Authenticate": "Bearer realm=\"bgemu\""])
    }

    static func notFound(_ kind: String, _ id: String) -> HTTPProblem {
        HTTPProblem(status: .notFound, code: "notFound", detail: "No \(kind) \"\(id)\".")
    }

    static func malformed(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: .badRequest, code: "malformedRequest", detail: detail)
    }

    static func invalid(_ issues: [FieldIssue]) -> HTTPProblem {
        HTTPProblem(
            status: .unprocessableContent, code: "validationFailed",
            detail: issues.map { "\($0.field): \($0.message)" }.joined(separator: "; "),
            errors: issues.map { HTTPProblem.FieldError(field: $0.field, message: $0.message) })
    }

    static func invalid(_ field: String, _ message: String) -> HTTPProblem {
        invalid([FieldIssue(field, message)])
    }

    /// `415`, with `Accept-Post` or `Accept-Patch` naming what the route takes (RFC 9110 §15.5.16, RFC 5789 §3.1).
    static func unsupportedMediaType(_ accepted: [String], method: HTTPMethod) -> HTTPProblem {
        var headers = HTTPHeaders()
        if method == .post { headers["Accept-Post"] = accepted.joined(separator: ", ") }
        if method == .patch { headers["Accept-Patch"] = accepted.joined(separator: ", ") }
        return HTTPProblem(
            status: .unsupportedMediaType, code: "unsupportedMediaType",
            detail: "Send the body as \(accepted.joined(separator: " or ")).", headers: headers)
    }

    static func conflict(_ code: String, _ detail: String) -> HTTPProblem {
        HTTPProblem(status: .conflict, code: code, detail: detail)
    }

    /// `429`: the tenant has used up its request rate (``RateLimitMiddleware``). The detail names the policy
    /// and points to `Retry-After`; the headers are the middleware's, so one body serves every refusal.
    static func rateLimited(_ policy: RateLimitPolicy) -> HTTPProblem {
        let rate = policy.rate == policy.rate.rounded() ? String(Int(policy.rate)) : String(policy.rate)
        return HTTPProblem(
            status: .tooManyRequests, code: "rateLimited",
            detail: "Your tenant may send \(rate) requests a second, in bursts of up to \(policy.burst); "
                + "retry after the seconds in Retry-After.")
    }

    /// `429`: the tenant's uploads being inspected fill its share of the ``HeavyWorkPool`` (code `uploadsBusy`), or
    /// one waited its whole turn for a processor; nothing was done, so a retry after `Retry-After` runs anew.
    static func heavyWorkBusy(_ busy: HeavyWorkBusy) -> HTTPProblem {
        let detail = switch busy.reason {
        case .tooMany(let count):
            "Your tenant has \(count) uploads being inspected already, its share of this instance; retry after the seconds in Retry-After."
        case .waitedTooLong:
            "Your upload waited too long for its inspection while the instance was busy; retry after the seconds in Retry-After."
        }
        return HTTPProblem(
            status: .tooManyRequests, code: "uploadsBusy", detail: detail,
            headers: ["Retry-After": String(busy.retryAfterSeconds)])
    }

    /// APNs refuses a push: its status and its `reason` word as the code, with the `apns-id` header (R29).
    static func push(_ rejection: PushRejection, apnsId: String) -> HTTPProblem {
        HTTPProblem(
            status: HTTPStatus(code: rejection.status), code: rejection.reason, detail: rejection.detail,
            headers: ["apns-id": apnsId])
    }

    /// `410`: the events after `afterId` of the device (or of the tenant, `deviceId` nil) are no longer all held,
    /// the retention pruned some; the answer says from where to continue.
    static func eventsPruned(_ pruned: PrunedEvents, afterId: Int64, deviceId: String?) -> EventsPrunedProblem {
        let whose = deviceId.map { "device \"\($0)\"" } ?? "your tenant"
        let held = pruned.oldestHeldId.map { "the oldest held is \($0)" } ?? "none is held now"
        return EventsPrunedProblem(
            pruned: pruned,
            detail: "The events of \(whose) after \(afterId) are no longer all kept: the retention pruned them up to "
                + "\(pruned.lastPrunedId), and \(held). Continue after \(pruned.lastPrunedId) (after= or Last-Event-ID).")
    }

    /// The problem an error thrown by a handler becomes, or nil when it is not a known kind (a 500 then).
    static func problem(for error: any Error) -> HTTPProblem? {
        switch error {
        case let problem as HTTPProblem:
            return problem
        case let error as EmulationError:
            switch error {
            case .invalid(let issues): return invalid(issues)
            case .notFound(let kind, let id): return notFound(kind, id)
            case .conflict(let code, let detail), .refused(let code, let detail): return conflict(code, detail)
            case .unprocessable(let field, let detail): return invalid(field, detail)
            }
        case is MissingRouteParameter:
            // A route's handler and its pattern disagree: a defect of the service, so a 500 (no request causes it).
            return HTTPProblem(status: .internalServerError, code: "routeParameterMissing")
        case let error as StoreError:
            switch error {
            case .invalidCursor: return invalid("cursor", "is not a cursor this list gave out")
            case .duplicate(let what): return conflict("duplicate", "\(what) exists already.")
            case .unavailable: return HTTPProblem(status: .serviceUnavailable, code: "storageUnavailable",
                                                  detail: "The database is not available; try again.",
                                                  headers: ["Retry-After": "1"])
            }
        case let busy as HeavyWorkBusy:
            return heavyWorkBusy(busy)
        case let error as ForecastServiceError:
            switch error {
            case .alreadyRunning(let id):
                return conflict(
                    "forecastRunning",
                    "Your tenant's forecast \"\(id)\" is running; one runs at a time. Wait for it, or delete it.")
            case .tooLarge(let deviceDays, let limit):
                return invalid(
                    "devices", "devices × days is \(deviceDays), past this service's limit of \(limit) device-days")
            case .notDone(let id, let state):
                return conflict(
                    "forecastNotDone", "Forecast \"\(id)\" is \(state): its devices are there once it is done.")
            }
        default:
            return nil
        }
    }
}

/// Converts domain and store errors into problems at one catch site; anything else goes on to the server's
/// catch site, which logs it and answers a generic `500`.
struct ProblemMiddleware: HTTPMiddleware {
    /// `.passes`: it only translates what the layers inside throw.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict { .passes }

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        do {
            return try next(request, context)
        } catch {
            if case StoreError.unavailable(let reason) = error {
                // The client gets a bare 503; the operator needs SQLite's own words (locked, I/O error, full, damaged).
                context.logger.error("The database is not available", metadata: ["reason": "\(reason)"])
            }
            if let missing = error as? MissingRouteParameter {
                context.logger.error(
                    "A route's handler asks for a parameter its pattern does not bind",
                    metadata: ["route": "\(context.route ?? "-")", "error": "\(missing)"])
            }
            if let problem = Problems.problem(for: error) { throw problem }
            throw error
        }
    }
}
