import Emulation
import HTTPServer

/// The installation a `POST …/apps` request describes, in each of its forms:
/// - JSON (`InstallAppRequest`, with an optional `buildSettings` object and `behavior`);
/// - a real `Info.plist`, XML or binary (`application/x-plist`; `application/xml`, `text/xml`);
/// - a built app, `.ipa` or zipped `.app` (`application/zip`, or `application/octet-stream` holding a zip);
/// - `multipart/form-data` with an `infoPlist` part (a plist or a zip) and an optional `xcconfig` part.
/// Build settings come from the query (`bundleId`, `setting=NAME=VALUE`) first, then the body's
/// `buildSettings` or `xcconfig`, then Xcode's defaults.
enum AppUpload {
    /// The media types the route takes, for a `415`'s `Accept-Post`.
    static let accepted = ["application/json", "application/x-plist", "application/zip", "multipart/form-data"]

    /// What an upload's preparation hands its handler.
    struct Prepared: Sendable {
        let value: (AppInstallation, AppBehavior?)
        init(_ value: (AppInstallation, AppBehavior?)) { self.value = value }
    }

    static func installation(from request: HTTPRequest) throws -> (AppInstallation, AppBehavior?) {
        let query = try UploadSettings(request)
        let handlers = queryLaunchHandlers(request)
        switch JSONBody.mediaType(request) {
        case "application/zip", "application/x-zip-compressed", "application/x-ios-app":
            return (try fromPlist(AppArchive.infoPlist(in: nonEmpty(request)), query, [], handlers), nil)
        case "application/x-plist", "application/xml", "text/xml", "application/octet-stream":
            return (try fromPlist(plistBytes(nonEmpty(request)), query, [], handlers), nil)
        case "multipart/form-data":
            return (try fromForm(request, query, handlers), nil)
        default:
            guard JSONBody.isJSON(request) else { throw Problems.unsupportedMediaType(accepted, method: request.method) }
            var body = try JSONBody.decode(InstallAppRequest.self, bytes: request.body)
            // The query's identifiers join the body's (repeats are kept once when the app is installed).
            if let handlers { body.launchHandlers = (body.launchHandlers ?? []) + handlers }
            return (try body.installation(query: query), body.behavior)
        }
    }

    /// A plist, or the plist inside a zip when the bytes are one.
    private static func plistBytes(_ bytes: [UInt8]) throws -> [UInt8] {
        AppArchive.looksLikeZip(bytes) ? try AppArchive.infoPlist(in: bytes) : bytes
    }

    private static func nonEmpty(_ request: HTTPRequest) throws -> [UInt8] {
        if request.body.isEmpty { throw Problems.malformed("The request needs a body: an Info.plist, an .ipa or a zipped .app.") }
        return request.body
    }

    private static func fromPlist(
        _ bytes: [UInt8], _ query: UploadSettings, _ lower: [BuildSettings.Level], _ handlers: [String]?,
        notes: [String] = []
    ) throws -> AppInstallation {
        let settings = BuildSettings([query.level] + lower)
        let plist = try InfoPlist.parse(bytes, settings: settings, requestedBundleId: query.bundleId)
        var installation = AppInstallation(plist, launchHandlers: handlers, fieldPrefix: "")
        installation.buildSettingNotes = notes
        return installation
    }

    /// The most `.xcconfig` files one upload may carry.
    static let maximumXCConfigs = 16

    /// `infoPlist` (required: a plist, or an `.ipa` or zipped `.app`) and `xcconfig` parts (optional, repeatable:
    /// a file and the files it includes, matched by their file names).
    private static func fromForm(_ request: HTTPRequest, _ query: UploadSettings, _ handlers: [String]?) throws
        -> AppInstallation
    {
        let form: MultipartFormData
        do {
            form = try MultipartFormData(body: request.body, contentType: request.headers["Content-Type"] ?? "")
        } catch let error as MultipartFormData.ParseError {
            throw Problems.malformed("The multipart/form-data body cannot be read: \(error).")
        }
        var issues = form.parts.filter { $0.name != "infoPlist" && $0.name != "xcconfig" }.map {
            FieldIssue($0.name, "is not a known part; known parts: infoPlist, xcconfig")
        }
        let plists = form.parts.filter { $0.name == "infoPlist" }
        if plists.count > 1 { issues.append(FieldIssue("infoPlist", "is given more than once")) }
        if plists.first?.body.isEmpty ?? true {
            issues.append(FieldIssue("infoPlist", "is required: the app's Info.plist (or its .ipa)"))
        }
        var files: [(name: String, text: String)] = []
        let parts = form.parts.filter { $0.name == "xcconfig" }
        if parts.count > maximumXCConfigs { issues.append(FieldIssue("xcconfig", "at most \(maximumXCConfigs) files")) }
        for (index, part) in parts.enumerated() {
            guard let text = String(validating: part.body, as: UTF8.self) else {
                issues.append(FieldIssue("xcconfig", "\(part.filename ?? "part \(index + 1)") is not UTF-8 text"))
                continue
            }
            files.append((name: part.filename ?? "xcconfig-\(index + 1)", text: text))
        }
        let xcconfig = XCConfig(files: files)
        for (name, value) in xcconfig.settings.sorted(by: { $0.key < $1.key }) {
            if let problem = BuildSettings.clientSettingProblem(name: name, value: value) {
                issues.append(FieldIssue("xcconfig", problem))
            }
        }
        guard issues.isEmpty, let plist = plists.first else { throw EmulationError.invalid(issues) }
        do {
            return try fromPlist(
                plistBytes(plist.body), query, [BuildSettings.Level(source: "xcconfig", values: xcconfig.settings)],
                handlers, notes: xcconfig.notes)
        } catch EmulationError.invalid(let issues) where !xcconfig.notes.isEmpty {
            // What the xcconfig files left aside may be why a setting is missing: say it beside the issues.
            throw EmulationError.invalid(issues + xcconfig.notes.map { FieldIssue("xcconfig", $0) })
        }
    }

    /// `?launchHandlers=a,b`: nil when absent, empty entries skipped (so present but empty means none).
    private static func queryLaunchHandlers(_ request: HTTPRequest) -> [String]? {
        request.queryValue("launchHandlers").map { $0.split(separator: ",").map { String($0) }.filter { !$0.isEmpty } }
    }
}
