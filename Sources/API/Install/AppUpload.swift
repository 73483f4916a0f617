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

    /// Reads the installation; the body is read where it lies (memory, or an upload's spool mapped read-only),
    /// never copied whole: only an `Info.plist` of at most 1 MiB is.
    static func installation(from request: HTTPRequest) throws -> (AppInstallation, AppBehavior?) {
        let query = try UploadSettings(request)
        let handlers = queryLaunchHandlers(request)
        switch JSONBody.mediaType(request) {
        case "application/zip", "application/x-zip-compressed", "application/x-ios-app":
            return (try request.withBodyBytes { try fromPlist(AppArchive.infoPlist(in: nonEmpty($0)), query, [], handlers) }, nil)
        case "application/x-plist", "application/xml", "text/xml", "application/octet-stream":
            return (try request.withBodyBytes { try fromPlist(plistBytes(nonEmpty($0)), query, [], handlers) }, nil)
        case "multipart/form-data":
            return (try request.withBodyBytes { try fromForm($0, request, query, handlers) }, nil)
        default:
            guard JSONBody.isJSON(request) else { throw Problems.unsupportedMediaType(accepted, method: request.method) }
            // A JSON installation is small: the larger limit of the route is for built apps.
            if request.bodyCount > maximumJSONSize { throw tooLarge("A JSON installation", maximumJSONSize) }
            var body = try JSONBody.decode(InstallAppRequest.self, bytes: request.body)
            // The query's identifiers join the body's (repeats are kept once when the app is installed).
            if let handlers { body.launchHandlers = (body.launchHandlers ?? []) + handlers }
            return (try body.installation(query: query), body.behavior)
        }
    }

    /// What the route takes of a gzip body's content that starts with `prefix`: as much as of a plain body for an
    /// archive or a form, but a plist that is not a zip (or JSON) at most as much as the handler would take, so
    /// that deciding a 255 MiB bomb of zeros is not an app costs inflating 1 MiB, not all of it; and nothing of a
    /// media type the route does not take (its `415` without inflating at all).
    static func decodedContentLimit(_ request: HTTPRequest, prefix: UnsafeRawBufferPointer) -> DecodedContentLimit? {
        switch JSONBody.mediaType(request) {
        case "application/zip", "application/x-zip-compressed", "application/x-ios-app", "multipart/form-data":
            return nil
        case "application/x-plist", "application/xml", "text/xml", "application/octet-stream":
            if looksLikeZip(prefix) { return nil }
            return DecodedContentLimit(
                bytes: AppArchive.maximumInfoPlistSize, problem: tooLarge("An Info.plist (not a zip)", AppArchive.maximumInfoPlistSize))
        default:
            guard JSONBody.isJSON(request) else {
                return DecodedContentLimit(bytes: 0, problem: Problems.unsupportedMediaType(accepted, method: request.method))
            }
            return DecodedContentLimit(bytes: maximumJSONSize, problem: tooLarge("A JSON installation", maximumJSONSize))
        }
    }

    /// The largest JSON installation: the general body limit's default.
    static let maximumJSONSize = 1 << 20

    /// A plist, or the plist inside a zip when the bytes are one. A plist sent as itself is bounded as one
    /// inside an archive is (``AppArchive/maximumInfoPlistSize``), and refused before it is parsed when larger.
    private static func plistBytes(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        if looksLikeZip(bytes) { return try AppArchive.infoPlist(in: bytes) }
        if bytes.count > AppArchive.maximumInfoPlistSize {
            throw tooLarge("An Info.plist (not a zip)", AppArchive.maximumInfoPlistSize)
        }
        return Array(bytes)
    }

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty one).
    private static func looksLikeZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B else { return false }
        return (bytes[2] == 0x03 && bytes[3] == 0x04) || (bytes[2] == 0x05 && bytes[3] == 0x06)
    }

    /// `413` for a part of an upload past its own bound, naming the bound.
    private static func tooLarge(_ what: String, _ bound: Int) -> HTTPProblem {
        HTTPProblem(
            status: .contentTooLarge, code: "contentTooLarge",
            detail: "\(what) may be at most \(bound >> 20) MiB; send a larger app as an .ipa or a zipped .app.")
    }

    private static func nonEmpty(_ bytes: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        if bytes.isEmpty { throw Problems.malformed("The request needs a body: an Info.plist, an .ipa or a zipped .app.") }
        return bytes
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
    private static func fromForm(
        _ body: UnsafeRawBufferPointer, _ request: HTTPRequest, _ query: UploadSettings, _ handlers: [String]?
    ) throws -> AppInstallation {
        let form: MultipartFormData
        do {
            form = try MultipartFormData(bytes: body, contentType: request.headers["Content-Type"] ?? "")
        } catch let error as MultipartFormData.ParseError {
            throw Problems.malformed("The multipart/form-data body cannot be read: \(error).")
        }
        var issues = form.parts.filter { $0.name != "infoPlist" && $0.name != "xcconfig" }.map {
            FieldIssue($0.name, "is not a known part; known parts: infoPlist, xcconfig")
        }
        let plists = form.parts.filter { $0.name == "infoPlist" }
        if plists.count > 1 { issues.append(FieldIssue("infoPlist", "is given more than once")) }
        if plists.first?.range.isEmpty ?? true {
            issues.append(FieldIssue("infoPlist", "is required: the app's Info.plist (or its .ipa)"))
        }
        var files: [(name: String, text: String)] = []
        let parts = form.parts.filter { $0.name == "xcconfig" }
        if parts.count > maximumXCConfigs { issues.append(FieldIssue("xcconfig", "at most \(maximumXCConfigs) files")) }
        for (index, part) in parts.enumerated() {
            guard let text = String(validating: UnsafeRawBufferPointer(rebasing: body[part.range]), as: UTF8.self) else {
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
                plistBytes(UnsafeRawBufferPointer(rebasing: body[plist.range])), query, [BuildSettings.Level(source: "xcconfig", values: xcconfig.settings)],
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
