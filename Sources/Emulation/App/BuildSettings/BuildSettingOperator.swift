import Foundation

/// The operators a reference may apply to a setting's value, chained after its name:
/// `$(PRODUCT_NAME:rfc1034identifier:lower)`, `$(MARKETING_VERSION:default=1.0)`. These are the ones
/// Xcode's build system evaluates; `quote`, `standardizepath` and the path-relating ones are left out, since
/// an `Info.plist` has no use for them.
enum BuildSettingOperator: Equatable {
    case identifier, c99extidentifier, rfc1034identifier, lower, upper
    case base, dir, file, suffix
    /// The value when the setting is empty or not set.
    case `default`(String)

    /// Reads `name` or `name=value`; nil for an operator bgemu does not know.
    init?(_ text: Substring) {
        if let equals = text.firstIndex(of: "=") {
            guard text[..<equals] == "default" else { return nil }
            self = .default(String(text[text.index(after: equals)...]))
            return
        }
        switch text {
        case "identifier": self = .identifier
        case "c99extidentifier": self = .c99extidentifier
        case "rfc1034identifier": self = .rfc1034identifier
        case "lower": self = .lower
        case "upper": self = .upper
        case "base": self = .base
        case "dir": self = .dir
        case "file": self = .file
        case "suffix": self = .suffix
        default: return nil
        }
    }

    /// The operator applied to a setting's value (`nil` when the setting is not set at all).
    func apply(to value: String?) -> String? {
        if case .default(let fallback) = self { return (value ?? "").isEmpty ? fallback : value }
        guard let value else { return nil }
        switch self {
        case .identifier: return value.mangled(allowing: "_", replacement: "_", leadingDigit: false)
        case .rfc1034identifier: return value.mangled(allowing: "-", replacement: "-", leadingDigit: false)
        case .c99extidentifier: return value.c99ExtendedIdentifier
        case .lower: return value.lowercased()
        case .upper: return value.uppercased()
        case .file: return value.split(separator: "/").last.map(String.init) ?? ""
        case .dir:
            guard let slash = value.lastIndex(of: "/") else { return "./" }
            return String(value[...slash])
        case .base:
            let file = value.split(separator: "/").last.map(String.init) ?? ""
            guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
            return String(file[..<dot])
        case .suffix:
            let file = value.split(separator: "/").last.map(String.init) ?? ""
            guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return "" }
            return String(file[dot...])
        case .default: return value
        }
    }
}

extension String {
    /// The string with every character but ASCII letters, digits and `allowing` replaced by `replacement`, after
    /// canonical decomposition (so `é` keeps its `e`); a leading digit is replaced too unless `leadingDigit`.
    /// This is Xcode's `identifier` (`_`) and `rfc1034identifier` (`-`): "My App 2" → "My_App_2", "My-App-2".
    func mangled(allowing allowed: Character, replacement: Character, leadingDigit: Bool) -> String {
        var out = ""
        for scalar in decomposedStringWithCanonicalMapping.unicodeScalars {
            let v = scalar.value
            let letter = (v >= 65 && v <= 90) || (v >= 97 && v <= 122)
            let digit = v >= 48 && v <= 57
            if letter || Character(scalar) == allowed || (digit && (leadingDigit || !out.isEmpty)) {
                out.unicodeScalars.append(scalar)
            } else {
                out.append(replacement)
            }
        }
        return out
    }

    /// Xcode's `c99extidentifier`: letters of any script, digits and `_` kept, everything else `_`, and a `_`
    /// put before a leading digit ("2048 Game" → "_2048_Game", "Café" → "Café").
    var c99ExtendedIdentifier: String {
        var out = ""
        for scalar in precomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = scalar.properties
            let digit = scalar.value >= 48 && scalar.value <= 57
            if properties.isAlphabetic || digit || scalar == "_" {
                if out.isEmpty && digit { out.append("_") }
                out.unicodeScalars.append(scalar)
            } else {
                out.append("_")
            }
        }
        return out
    }
}
