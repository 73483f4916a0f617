/// The path checks of `AppArchive`, on an entry's UTF-8 bytes as a file system would see them: one pass over each
/// path, nothing allocated, so 100,000 entries of long, deep paths cost time linear in their bytes (no grapheme
/// breaking, no array of components).
extension AppArchive {
    /// Why a path may not be in an archive (absolute, climbing with `..`, or holding a NUL), or nil.
    static func unsafePath(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes -> String? in
            if let first = bytes.first, first == slash || first == backslash { return "is absolute" }
            if bytes.contains(0) { return "holds a NUL byte" }
            var climbs = false
            forEachComponent(of: bytes, backslashes: true) { component in
                climbs = component.elementsEqual("..".utf8)
                return !climbs
            }
            return climbs ? "climbs out of the archive (..)" : nil
        }
    }

    /// `NAME.app/Info.plist` at the end of a path not inside macOS's resource forks (`__MACOSX/`), nor inside an
    /// extension, a framework or another app (`X.app/PlugIns/Y.appex/Info.plist`, `X.app/Watch/W.app/Info.plist`).
    static func isAppInfoPlist(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes -> Bool in
            var first, previous, last: UnsafeBufferPointer<UInt8>?
            var insideBundle = false
            forEachComponent(of: bytes, backslashes: false) { component in
                // The component two back is now neither of the last two: it may not be a bundle.
                if let earlier = previous, isBundle(earlier) { insideBundle = true }
                if first == nil { first = component }
                (previous, last) = (last, component)
                return !insideBundle
            }
            guard !insideBundle, let first, let previous, let last, last.elementsEqual("Info.plist".utf8),
                  ends(previous, ".app"), !first.elementsEqual("__MACOSX".utf8)
            else { return false }
            return true
        }
    }

    /// How many components a path has (empty ones not counted).
    static func depth(_ path: String) -> Int {
        var path = path
        return path.withUTF8 { bytes in
            var count = 0
            forEachComponent(of: bytes, backslashes: false) { _ in
                count += 1
                return true
            }
            return count
        }
    }

    private static let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")

    /// Calls `body` with each non-empty component of `bytes` split at `/` (and `\` when `backslashes`), until it
    /// answers false.
    private static func forEachComponent(
        of bytes: UnsafeBufferPointer<UInt8>, backslashes: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        var start = 0
        for index in 0...bytes.count {
            let separates = index == bytes.count || bytes[index] == slash || (backslashes && bytes[index] == backslash)
            guard separates else { continue }
            if index > start, !body(UnsafeBufferPointer(rebasing: bytes[start..<index])) { return }
            start = index + 1
        }
    }

    private static func isBundle(_ component: UnsafeBufferPointer<UInt8>) -> Bool {
        ends(component, ".app") || ends(component, ".appex") || ends(component, ".framework")
    }

    private static func ends(_ component: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let suffix = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        return component.count >= suffix.count && component.suffix(suffix.count).elementsEqual(suffix)
    }
}
