import Foundation

/// Encodes `Encodable` values as compact JSON with members sorted by key: byte for byte what Foundation's
/// `JSONEncoder` writes with `.sortedKeys` (and `.withoutEscapingSlashes` when `escapesSlashes` is false), in a
/// fraction of its time. The hot answers (a device, an event) spend most of their CPU encoding, and Foundation's
/// encoder builds a dictionary per object and boxes every value; this one keeps members in arrays, sorts keys only
/// when they are out of order, and writes integers without going through `String`.
///
/// Dates are written by `dateText` when given, else as `Date.encode(to:)` writes them (JSONEncoder's
/// `.deferredToDate`); `Data` as Base64, `URL` as its absolute string, `Decimal` as its description, as JSONEncoder
/// does by default. Non-finite numbers throw `EncodingError.invalidValue`.
public struct CompactJSONEncoder: Sendable {
    /// What the encoder is told.
    public struct Options: Sendable {
        /// Whether `/` is written `\/` (JSONEncoder's default) or as it is (`.withoutEscapingSlashes`).
        public var escapesSlashes: Bool
        /// The text of a date; nil encodes dates as `Date.encode(to:)` does.
        public var dateText: (@Sendable (Date) -> String)?
    }

    public var options: Options

    public init(escapesSlashes: Bool = false, dateText: (@Sendable (Date) -> String)? = nil) {
        options = Options(escapesSlashes: escapesSlashes, dateText: dateText)
    }

    public init(options: Options) {
        self.options = options
    }

    /// The JSON bytes of `value`: written by its ``JSONWritable/write(to:)`` when it has one (at the top level
    /// only: a nested value is not looked up, which would cost every value of every other type a conformance
    /// check), else through its `Encodable` conformance.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter(options: options)
            try writable.write(to: &writer)
            return writer.finish()
        }
        let encoder = NodeEncoder(options: options)
        let node = try encoder.box(value, key: nil)
        var writer = NodeWriter(options: options)
        writer.write(node)
        return writer.finish()
    }
}
