/// A string with its build-setting references expanded, and the settings it names that nothing gives.
public struct BuildSettingExpansion: Sendable, Equatable {
    public var value: String
    /// Settings referred to (directly or through another setting's value) that no level sets, in order of
    /// appearance; their references are kept as written.
    public var unresolved: [String]
}

extension BuildSettings {
    /// Expands `$(NAME)` and `${NAME}` as Xcode does in an `Info.plist`: nested references
    /// (`$(NAME_$(CONFIGURATION))`), references inside settings' values, `$(inherited)`, and chained operators
    /// (`$(PRODUCT_NAME:rfc1034identifier:lower)`). A reference to a setting nothing gives, to an unknown
    /// operator, or in a cycle is kept as written and its name listed in ``BuildSettingExpansion/unresolved``.
    public func expand(_ text: String) -> BuildSettingExpansion {
        var expander = BuildSettingExpander(settings: self)
        let value = expander.expand(Array(text.unicodeScalars)[...], in: nil)
        return BuildSettingExpansion(value: value, unresolved: expander.unresolved)
    }
}

/// One expansion's state: the settings being evaluated (to break cycles), those already evaluated, and what
/// could not be resolved. Every setting is evaluated once and every value is capped in length, so a hostile
/// set of settings (`A = $(B)$(B)`, `B = $(C)$(C)`, …) costs linear time and bounded memory.
struct BuildSettingExpander {
    /// The longest value a setting may expand to.
    static let maximumLength = 65_536
    /// The deepest chain of settings referring to settings.
    static let maximumDepth = 64

    let settings: BuildSettings
    var unresolved: [String] = []
    private var evaluating: [String] = []
    private var memo: [String: String?] = [:]

    init(settings: BuildSettings) { self.settings = settings }

    /// A setting being evaluated, so that `$(inherited)` in its value reaches the level below.
    struct Frame {
        var name: String
        var level: Int
    }

    mutating func expand(_ text: ArraySlice<Unicode.Scalar>, in frame: Frame?) -> String {
        var out = String.UnicodeScalarView()
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "$", i + 1 < text.endIndex, text[i + 1] == "(" || text[i + 1] == "{",
               let close = Self.closing(text, from: i + 1)
            {
                let original = text[i...close]
                let inner = expand(text[(i + 2)..<close], in: frame)
                out.append(contentsOf: reference(inner, original: String(String.UnicodeScalarView(original)), in: frame)
                    .unicodeScalars)
                i = close + 1
            } else {
                out.append(text[i])
                i += 1
            }
            if out.count > Self.maximumLength { break }
        }
        return String(out)
    }

    /// The index of the bracket that closes the one at `open`, counting nested `$(`/`${`.
    static func closing(_ text: ArraySlice<Unicode.Scalar>, from open: Int) -> Int? {
        var expected: [Unicode.Scalar] = [text[open] == "(" ? ")" : "}"]
        var i = open + 1
        while i < text.endIndex {
            let c = text[i]
            if c == "$", i + 1 < text.endIndex, text[i + 1] == "(" || text[i + 1] == "{" {
                expected.append(text[i + 1] == "(" ? ")" : "}")
                i += 2
                continue
            }
            if c == expected.last {
                expected.removeLast()
                if expected.isEmpty { return i }
            }
            i += 1
        }
        return nil
    }

    /// The text a reference stands for: `inner` is what was between its brackets, already expanded.
    private mutating func reference(_ inner: String, original: String, in frame: Frame?) -> String {
        let parts = inner.split(separator: ":", omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard Self.isSettingName(name) else { return original }
        var operators: [BuildSettingOperator] = []
        for text in parts.dropFirst() {
            guard let op = BuildSettingOperator(text) else {
                note(name)
                return original
            }
            operators.append(op)
        }
        var value = lookup(name, in: frame)
        for op in operators { value = op.apply(to: value) }
        guard let value else {
            note(name)
            return original
        }
        return value
    }

    /// A setting's value, expanded; nil when nothing sets it.
    private mutating func lookup(_ name: String, in frame: Frame?) -> String? {
        if name == "inherited" {
            guard let frame, let below = settings.rawValue(frame.name, from: frame.level + 1) else { return "" }
            return evaluate(frame.name, raw: below.value, level: below.level)
        }
        if let found = settings.rawValue(name) { return evaluate(name, raw: found.value, level: found.level) }
        if name == "PRODUCT_NAME" { return derivedProductName() }
        // An Info.plist that writes its bundle identifier literally has, in effect, set it.
        if name == "PRODUCT_BUNDLE_IDENTIFIER" { return settings.literalBundleId }
        return nil
    }

    /// Xcode's `PRODUCT_NAME` when nothing sets it: `TARGET_NAME`, else the last component of the bundle identifier.
    private mutating func derivedProductName() -> String? {
        let key = "PRODUCT_NAME@derived"
        if let cached = memo[key] { return cached }
        guard !evaluating.contains(key) else { return nil }
        evaluating.append(key)
        defer { evaluating.removeLast() }
        var name = lookup("TARGET_NAME", in: nil)
        if name == nil, let bundleId = lookup("PRODUCT_BUNDLE_IDENTIFIER", in: nil) {
            name = bundleId.split(separator: ".").last.map(String.init) ?? bundleId
        }
        // A bundle identifier still holding a reference is no name.
        let value = name.flatMap { $0.contains("$(") || $0.contains("${") ? nil : $0 }
        memo[key] = value
        return value
    }

    /// Expands a setting's raw value at its level, once per (setting, level); nil inside a cycle.
    private mutating func evaluate(_ name: String, raw: String, level: Int) -> String? {
        let key = "\(name)@\(level)"
        if let cached = memo[key] { return cached }
        guard !evaluating.contains(key), evaluating.count < Self.maximumDepth else { return nil }
        evaluating.append(key)
        let value = expand(Array(raw.unicodeScalars)[...], in: Frame(name: name, level: level))
        evaluating.removeLast()
        memo[key] = value
        return value
    }

    private mutating func note(_ name: String) {
        if !unresolved.contains(name) { unresolved.append(name) }
    }

    /// A build setting's name: a letter or `_`, then letters, digits and `_` (as Xcode requires).
    static func isSettingName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == 95 || (first | 0x20 >= 97 && first | 0x20 <= 122) else { return false }
        return name.utf8.allSatisfy { c in c == 95 || (c >= 48 && c <= 57) || (c | 0x20 >= 97 && c | 0x20 <= 122) }
    }
}
