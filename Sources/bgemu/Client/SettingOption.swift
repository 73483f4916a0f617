import ArgumentParser
import Emulation

/// A `--setting NAME=VALUE` of `bgemu install` and `bgemu forecast`: split at its first `=`, and checked before
/// anything is sent by the rule the service applies to every build setting a client gives
/// (``BuildSettings/clientSettingProblem(name:value:)``).
struct SettingOption {
    var name: String
    var value: String

    /// `text` split at its first `=`; a `ValidationError` when it has none, or when its name or value is not one the
    /// service takes (an empty or malformed name, a value longer than 4,096 bytes).
    init(_ text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--setting takes NAME=VALUE, not \"\(text.prefix(100))\".")
        }
        name = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
        if let problem = BuildSettings.clientSettingProblem(name: name, value: value) {
            throw ValidationError("--setting: \(problem).")
        }
    }
}
