import Foundation

/// A reproducible generator (SplitMix64), so that a failing tree is the same tree on the next run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Any JSON value, encoded through the same containers as the service's bodies.
indirect enum Tree: Encodable {
    case null, bool(Bool), int(Int), double(Double), string(String)
    case array([Tree])
    case object([String: Tree])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    static func random(_ random: inout SeededRandom, depth: Int) -> Tree {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<64, using: &random))
        case 3:
            let bits = Double(bitPattern: random.next())
            return .double(bits.isFinite ? bits : Double.random(in: -1e6...1e6, using: &random))
        case 4: return .string(text(&random))
        case 5: return .array((0..<Int.random(in: 0..<5, using: &random)).map { _ in Tree.random(&random, depth: depth + 1) })
        default:
            var members: [String: Tree] = [:]
            for _ in 0..<Int.random(in: 0..<6, using: &random) { members[text(&random)] = Tree.random(&random, depth: depth + 1) }
            return .object(members)
        }
    }

    static func text(_ random: inout SeededRandom) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "b", "A", "Z", "0", "9", "/", "\\", "\"", "\n", "\u{0}", "\u{1F}", "\u{7F}",
                                          "é", "漢", "😀", "\u{2028}", " ", "_", "-"]
        var text = ""
        for _ in 0..<Int.random(in: 0..<8, using: &random) {
            text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
        }
        return text
    }
}

struct Widths: Encodable {
    var a: Int8 = -128, b: Int16 = -32768, c: Int32 = .min, d: UInt8 = 255, e: UInt16 = .max, f: UInt32 = .max
    var g: UInt = .max, h: Int = .min, i: Float = 0.3, j: Double = 0.3
}

struct Shapes: Encodable {
    var optional: Int?
    var present: String?
    var explicitNull: String?
    var nested: [[Int]]

    enum CodingKeys: String, CodingKey { case optional, present, explicitNull, nested, inner }
    enum InnerKeys: String, CodingKey { case z, y }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(optional, forKey: .optional)
        try container.encodeIfPresent(present, forKey: .present)
        try container.encode(explicitNull, forKey: .explicitNull)
        var list = container.nestedUnkeyedContainer(forKey: .nested)
        for row in nested {
            var inner = list.nestedUnkeyedContainer()
            for value in row { try inner.encode(value) }
        }
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try inner.encode("last", forKey: .z)
        try inner.encode(true, forKey: .y)
    }
}

class Base: Encodable {
    var base = "b"
    enum CodingKeys: String, CodingKey { case base }
}

final class Subclass: Base, @unchecked Sendable {
    var own = [1.25, 2]
    enum OwnKeys: String, CodingKey { case own }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OwnKeys.self)
        try container.encode(own, forKey: .own)
        try super.encode(to: container.superEncoder())
        var again = encoder.container(keyedBy: OwnKeys.self)
        var list = again.superEncoder(forKey: .own).unkeyedContainer()
        try list.encode("replaced")
    }
}

struct Empty: Encodable {}

/// A key written twice: JSONEncoder keeps the later value.
struct TwiceKeyed: Encodable {
    enum CodingKeys: String, CodingKey { case k, a }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .k)
        try container.encode(2, forKey: .a)
        try container.encode("second", forKey: .k)
    }
}

struct Specials: Encodable {
    var data = Data([0, 1, 2, 250, 255])
    var url = URL(string: "https://example.com/a/b?c=d")!
    var decimal = Decimal(string: "12.3400")!
    var date = Date(timeIntervalSinceReferenceDate: 12.5)
}
