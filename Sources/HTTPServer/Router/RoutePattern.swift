/// A parsed route pattern such as `/v1/devices/{deviceId}/apps/{bundleId}`: literal segments and `{name}`
/// parameter segments, matched against the still percent-encoded request path (RFC 3986 §3.3).
struct RoutePattern: Sendable, Equatable {
    /// One `/`-separated piece of a pattern.
    enum Segment: Sendable, Equatable {
        /// Matches a path segment byte for byte (the pattern's text, percent-encoded as on the wire).
        case literal([UInt8])
        /// Matches any non-empty segment and binds its percent-decoded value to `name`.
        case parameter(String)
    }

    /// Why a pattern was refused; a programmer error, reported when the route is registered.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let pattern: String
        let reason: String
        var description: String { "invalid route pattern \"\(pattern)\": \(reason)" }
    }

    /// The pattern as written, reported as `HTTPRequestContext.route`.
    let text: String
    let segments: [Segment]

    /// The pattern with every parameter name erased (`/v1/devices/{}`): two patterns with one shape match the
    /// same paths, so one method may be registered only once per shape.
    var shape: String {
        if segments.isEmpty { return "/" }
        return segments.map { segment -> String in
            switch segment {
            case .literal(let bytes): "/" + String(decoding: bytes, as: UTF8.self)
            case .parameter: "/{}"
            }
        }.joined()
    }

    /// The parameters with the depth (0-based segment index) each one binds, in path order.
    var parameterSlots: [(depth: Int, name: String)] {
        segments.enumerated().compactMap { depth, segment in
            if case .parameter(let name) = segment { (depth: depth, name: name) } else { nil }
        }
    }

    /// Parses `text`. `/` alone is the root; otherwise every segment is non-empty (so no trailing slash), a
    /// literal is made of RFC 3986 `pchar`s other than dot-segments, and a parameter is `{name}` with `name`
    /// made of ASCII letters, digits and `_`, unique within the pattern.
    init(_ text: String) throws(Invalid) {
        self.text = text
        guard text.utf8.first == UInt8(ascii: "/") else { throw Invalid(pattern: text, reason: "it must start with /") }
        guard text != "/" else { segments = []; return }

        var segments: [Segment] = []
        var names: Set<String> = []
        for piece in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !piece.isEmpty else {
                throw Invalid(pattern: text, reason: "empty segment (a doubled or trailing /)")
            }
            if piece.first == UInt8(ascii: "{") {
                guard piece.count > 2, piece.last == UInt8(ascii: "}") else {
                    throw Invalid(pattern: text, reason: "a parameter segment is a whole {name}")
                }
                let name = piece.dropFirst().dropLast()
                guard name.allSatisfy(Self.isNameByte) else {
                    throw Invalid(pattern: text, reason: "parameter names use letters, digits and _")
                }
                let nameString = String(decoding: name, as: UTF8.self)
                guard names.insert(nameString).inserted else {
                    throw Invalid(pattern: text, reason: "parameter {\(nameString)} appears twice")
                }
                segments.append(.parameter(nameString))
            } else {
                guard piece.allSatisfy(Self.isPathByte) else {
                    throw Invalid(pattern: text, reason: "literal segments use RFC 3986 pchar characters only")
                }
                guard !piece.elementsEqual(".".utf8), !piece.elementsEqual("..".utf8) else {
                    throw Invalid(pattern: text, reason: "dot-segments never reach a server (RFC 3986 §5.2.4)")
                }
                segments.append(.literal(Array(piece)))
            }
        }
        self.segments = segments
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"` (RFC 3986 §3.3); `%` is allowed so a
    /// literal may be written pre-encoded.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if isNameByte(byte) { return true }
        return switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: false
        }
    }
}
