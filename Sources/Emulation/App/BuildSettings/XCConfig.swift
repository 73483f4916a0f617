/// The settings of `.xcconfig` files as Xcode reads them for an iOS device build (`sdk=iphoneos`, `arch=arm64`,
/// `config=Release`).
///
/// `NAME = VALUE` lines, with an optional `;` at the end; `//` starts a comment wherever it stands (as in Xcode,
/// which is why URLs in xcconfig files are written `https:/$()/…`); a later assignment overrides an earlier
/// one, and `$(inherited)` in it stands for the value it overrides (in these files, else in the levels below).
/// Conditional assignments (`NAME[sdk=iphoneos*][arch=*] = …`) apply when every condition matches.
/// `#include "Base.xcconfig"` (and `#include?`) is followed when a file of that name (its last path component)
/// was uploaded too, in place, as Xcode does; otherwise it is listed in ``notes``.
public struct XCConfig: Sendable, Equatable {
    public var settings: [String: String]
    /// What was read but not applied: includes not followed, lines that are not assignments.
    public var notes: [String]

    /// The build bgemu takes conditions for: an app built for devices in the Release configuration.
    static let conditions = ["sdk": "iphoneos", "arch": "arm64", "config": "Release", "variant": "normal"]
    /// The deepest chain of includes followed.
    static let maximumIncludeDepth = 16

    public init(settings: [String: String] = [:], notes: [String] = []) {
        self.settings = settings
        self.notes = notes
    }

    /// Reads one file's text.
    public init(parsing text: String) {
        self.init(files: [(name: "xcconfig", text: text)])
    }

    /// Reads uploaded files: those that no other file includes are read in the order given, each after the
    /// ones before it (so the last one has the last word), following the includes among them.
    public init(files: [(name: String, text: String)]) {
        self.init()
        var byName: [String: String] = [:]
        for file in files where byName[Self.baseName(file.name)] == nil { byName[Self.baseName(file.name)] = file.text }
        let included = Set(files.flatMap { file in Self.includes(in: file.text) })
        let roots = files.filter { !included.contains(Self.baseName($0.name)) || files.count == 1 }
        for file in roots.isEmpty ? files : roots {
            read(file.text, name: Self.baseName(file.name), files: byName, chain: [])
        }
    }

    /// Applies one file's lines, following its includes of uploaded files.
    private mutating func read(_ text: String, name: String, files: [String: String], chain: [String]) {
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
            line = line.trimmingWhiteSpace
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let target = Self.includeTarget(line) else {
                    notes.append("\(name) line \(lineNumber): \(line) names no file and was skipped")
                    continue
                }
                let base = Self.baseName(target)
                if let included = files[base], !chain.contains(base), chain.count < Self.maximumIncludeDepth {
                    read(included, name: base, files: files, chain: chain + [name])
                } else if !optional {
                    notes.append("\(name) line \(lineNumber): #include \"\(target)\" was not followed: upload "
                        + "\(base) as another xcconfig part to have it read")
                }
                continue
            }
            guard let assignment = Self.assignment(line) else {
                notes.append("\(name) line \(lineNumber): \"\(line.prefix(100))\" is not a NAME = VALUE assignment and was skipped")
                continue
            }
            guard assignment.conditionsMatch else { continue }
            var value = assignment.value
            if let earlier = settings[assignment.name] {
                value = value.replacing("$(inherited)", with: earlier).replacing("${inherited}", with: earlier)
            }
            settings[assignment.name] = value
        }
    }

    /// The file an `#include "path"` line names, or nil.
    static func includeTarget(_ line: Substring) -> String? {
        guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\""),
              close > line.index(after: open)
        else { return nil }
        return String(line[line.index(after: open)..<close])
    }

    /// The base names of the files a text includes.
    static func includes(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line in
            let trimmed = Substring(line).trimmingWhiteSpace
            guard trimmed.hasPrefix("#include") else { return nil }
            return includeTarget(trimmed).map(baseName)
        }
    }

    /// The last component of a path (`../Configs/Base.xcconfig` → `Base.xcconfig`).
    static func baseName(_ path: String) -> String {
        String(path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? Substring(path))
    }

    struct Assignment {
        var name: String
        var value: String
        var conditionsMatch: Bool
    }

    /// `NAME[cond=pattern]… = VALUE;`, or nil.
    static func assignment(_ line: Substring) -> Assignment? {
        // The `=` that assigns is the first one outside the conditions' brackets.
        var depth = 0
        var equals: Substring.Index?
        for index in line.indices {
            switch line[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "=" where depth == 0: equals = index
            default: break
            }
            if equals != nil { break }
        }
        guard let equals else { return nil }
        var left = line[..<equals].trimmingWhiteSpace
        var value = line[line.index(after: equals)...].trimmingWhiteSpace
        if value.hasSuffix(";") { value = value.dropLast().trimmingWhiteSpace }
        var matches = true
        while left.hasSuffix("]"), let open = left.lastIndex(of: "[") {
            let condition = left[left.index(after: open)..<left.index(before: left.endIndex)]
            let parts = condition.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let key = String(parts[0].trimmingWhiteSpace), pattern = String(parts[1].trimmingWhiteSpace)
            if !Glob.matches(pattern, conditions[key] ?? "") { matches = false }
            left = left[..<open].trimmingWhiteSpace
        }
        let name = String(left)
        guard BuildSettingExpander.isSettingName(name) else { return nil }
        return Assignment(name: name, value: String(value), conditionsMatch: matches)
    }
}

/// The `*` and `?` patterns of xcconfig conditions (`iphoneos*`, `*simulator*`).
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern.unicodeScalars)[...], Array(text.unicodeScalars)[...])
    }

    private static func matches(_ pattern: ArraySlice<Unicode.Scalar>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            var rest = text
            while true {
                if matches(pattern.dropFirst(), rest) { return true }
                if rest.isEmpty { return false }
                rest = rest.dropFirst()
            }
        }
        guard let c = text.first, first == "?" || first == c else { return false }
        return matches(pattern.dropFirst(), text.dropFirst())
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    var trimmingWhiteSpace: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
