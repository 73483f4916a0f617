/// Xcode build settings, in levels of precedence, as they are known when an `Info.plist` is expanded
/// ("Expand Build Settings in Info.plist File").
///
/// Levels are searched from the first (highest precedence) to the last; a value may refer to the value it
/// overrides with `$(inherited)`. The last level is always Xcode's defaults for a project that sets nothing
/// (``BuildSettings/xcodeDefaults``), whose `PRODUCT_NAME` is derived from the bundle identifier.
public struct BuildSettings: Sendable, Equatable {
    /// One source of settings (the upload's query, a JSON `buildSettings` object, an `.xcconfig` file).
    public struct Level: Sendable, Equatable {
        /// Where the values come from, for messages (`query`, `buildSettings`, `xcconfig`).
        public var source: String
        public var values: [String: String]

        public init(source: String, values: [String: String]) {
            self.source = source
            self.values = values
        }
    }

    /// Highest precedence first; ``xcodeDefaults`` comes after them all.
    public var levels: [Level]
    /// The bundle identifier written literally in the property list, used to derive `PRODUCT_NAME` when
    /// neither `PRODUCT_NAME`, `TARGET_NAME` nor `PRODUCT_BUNDLE_IDENTIFIER` is set.
    public var literalBundleId: String?

    public init(_ levels: [Level] = [], literalBundleId: String? = nil) {
        self.levels = levels
        self.literalBundleId = literalBundleId
    }

    /// What Xcode's build system gives an iOS app target that sets nothing. `PRODUCT_NAME` is not here: it
    /// comes from `TARGET_NAME`, else from the last component of the bundle identifier (``derivedProductName``).
    public static let xcodeDefaults = Level(source: "Xcode's defaults", values: [
        "EXECUTABLE_NAME": "$(PRODUCT_NAME)",
        "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
        "DEVELOPMENT_LANGUAGE": "en",
        "PRODUCT_BUNDLE_PACKAGE_TYPE": "APPL",
        "PLATFORM_NAME": "iphoneos",
        "WRAPPER_EXTENSION": "app",
    ])

    /// Every level searched, defaults last.
    var searchOrder: [Level] { levels + [Self.xcodeDefaults] }

    /// Whether `name` is a build setting's name: a letter or `_`, then letters, digits and `_`.
    public static func isSettingName(_ name: String) -> Bool { BuildSettingExpander.isSettingName(name) }

    /// Whether a level other than the defaults gives `name`.
    public func isSet(_ name: String) -> Bool { levels.contains { $0.values[name] != nil } }

    /// The setting's value as written in the first level that has it at or after `level`, with that level's index.
    func rawValue(_ name: String, from level: Int = 0) -> (value: String, level: Int)? {
        let order = searchOrder
        var index = level
        while index < order.count {
            if let value = order[index].values[name] { return (value, index) }
            index += 1
        }
        return nil
    }
}
