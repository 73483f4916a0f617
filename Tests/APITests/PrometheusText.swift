import Foundation

/// A strict reader of the Prometheus text exposition format 0.0.4, for tests: it throws on anything the format
/// does not allow, and checks the rules a scraper relies on (one `# TYPE` per family, before its samples; valid
/// names; histogram buckets cumulative, ending with `+Inf` equal to `_count`, with a `_sum`).
struct PrometheusText {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    var samples: [Sample] = []
    /// Family name → type.
    var types: [String: String] = [:]
    /// Family name → help text (unescaped).
    var help: [String: String] = [:]

    init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw FormatError(description: "the text does not end with a newline") }
        var seenFamilies: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#" else { continue }  // a comment
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw FormatError(description: "bad metric name in \(line)") }
                switch parts[1] {
                case "TYPE":
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
                        throw FormatError(description: "bad TYPE line: \(line)")
                    }
                    guard types[name] == nil else { throw FormatError(description: "second TYPE for \(name)") }
                    guard !seenFamilies.contains(name) else { throw FormatError(description: "TYPE after samples of \(name)") }
                    types[name] = String(parts[3])
                case "HELP":
                    guard help[name] == nil else { throw FormatError(description: "second HELP for \(name)") }
                    help[name] = Self.unescape(parts.count == 4 ? String(parts[3]) : "")
                default:
                    continue
                }
                continue
            }
            let sample = try Self.sample(String(line))
            seenFamilies.insert(family(of: sample.name))
            samples.append(sample)
        }
        for name in seenFamilies where types[name] == nil {
            throw FormatError(description: "samples of \(name) without a TYPE line")
        }
        try checkHistograms()
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to the histogram.
    func family(of name: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" || types[base] == "summary" { return base }
        }
        return name
    }

    /// The value of the one sample named `name` with exactly `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    private func checkHistograms() throws {
        for (name, type) in types where type == "histogram" {
            var buckets: [[String: String]: [(le: Double, count: Double)]] = [:]
            for sample in samples where sample.name == name + "_bucket" {
                var labels = sample.labels
                guard let le = labels.removeValue(forKey: "le"), let bound = Double(le == "+Inf" ? "inf" : le) else {
                    throw FormatError(description: "\(name)_bucket without a numeric le")
                }
                buckets[labels, default: []].append((bound, sample.value))
            }
            guard !buckets.isEmpty else { throw FormatError(description: "histogram \(name) has no buckets") }
            for (labels, series) in buckets {
                let sorted = series.sorted { $0.le < $1.le }
                guard sorted.last?.le == .infinity else { throw FormatError(description: "\(name)\(labels) has no +Inf bucket") }
                for (lower, upper) in zip(sorted, sorted.dropFirst()) where upper.count < lower.count {
                    throw FormatError(description: "\(name)\(labels) buckets are not cumulative")
                }
                guard let count = value(name + "_count", labels), count == sorted.last?.count else {
                    throw FormatError(description: "\(name)\(labels): _count missing or not the +Inf bucket")
                }
                guard value(name + "_sum", labels) != nil else { throw FormatError(description: "\(name)\(labels): no _sum") }
            }
        }
    }

    /// `name{label="value",…} value` (no timestamps: this service writes none).
    static func sample(_ line: String) throws -> Sample {
        let bytes = Array(line.utf8)
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: " ") { index += 1 }
        let name = String(decoding: bytes[..<index], as: UTF8.self)
        guard isMetricName(name) else { throw FormatError(description: "bad metric name in \(line)") }
        var labels: [String: String] = [:]
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                let nameStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "=") { index += 1 }
                let labelName = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                guard isLabelName(labelName), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") else {
                    throw FormatError(description: "bad label in \(line)")
                }
                index += 2
                var value: [UInt8] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        guard index + 1 < bytes.count else { throw FormatError(description: "dangling escape in \(line)") }
                        switch bytes[index + 1] {
                        case UInt8(ascii: "\\"): value.append(UInt8(ascii: "\\"))
                        case UInt8(ascii: "\""): value.append(UInt8(ascii: "\""))
                        case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                        default: throw FormatError(description: "unknown escape in \(line)")
                        }
                        index += 2
                    } else {
                        value.append(bytes[index])
                        index += 1
                    }
                }
                guard index < bytes.count else { throw FormatError(description: "unterminated label value in \(line)") }
                guard labels.updateValue(String(decoding: value, as: UTF8.self), forKey: labelName) == nil else {
                    throw FormatError(description: "label \(labelName) twice in \(line)")
                }
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
            }
            guard index < bytes.count else { throw FormatError(description: "unterminated labels in \(line)") }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { throw FormatError(description: "no value in \(line)") }
        let text = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        let value: Double? = switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
        guard let value else { throw FormatError(description: "bad value in \(line)") }
        return Sample(name: name, labels: labels, value: value)
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { isWordByte($0) || $0 == UInt8(ascii: ":") }
    }

    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy(isWordByte)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\\", with: "\\")
    }
}
