import Foundation

/// Writes nodes as compact JSON with members sorted by the UTF-8 bytes of their keys, as Foundation's
/// `JSONEncoder` does with `.sortedKeys`.
struct NodeWriter {
    var out: JSONWriter

    init(options: CompactJSONEncoder.Options) {
        out = JSONWriter(options: options)
    }

    /// What has been written, handed over without a copy (``JSONWriter/finish()``).
    mutating func finish() -> [UInt8] { out.finish() }

    mutating func write(_ node: JSONNode) {
        switch node {
        case .null: out.null()
        case .bool(let value): out.bool(value)
        case .int(let value): out.int(value)
        case .uint(let value): out.uint(value)
        case .double(let value): try? out.double(value)  // boxing let only finite numbers through
        case .float(let value): out.float(value)
        case .string(let value): out.string(value)
        case .number(let text): out.raw(Array(text.utf8))
        case .raw(let json): out.raw(json)
        case .object(let object): writeObject(object)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element)
            }
            out.append(UInt8(ascii: "]"))
        case .slot(let slot):
            write(slot.node ?? .object(ObjectNode()))
        }
    }

    private mutating func writeObject(_ object: ObjectNode) {
        out.append(UInt8(ascii: "{"))
        let members = object.members
        /// The order of members `a` and `b`: by key bytes, then by position, so that of a key encoded twice the
        /// last value is written, once (JSONEncoder keeps a dictionary: the later value replaces the earlier).
        func precedes(_ a: Int, _ b: Int) -> Bool {
            if members[a].prefix != members[b].prefix { return members[a].prefix < members[b].prefix }
            let order = JSONKeyOrder.compare(members[a].key, members[b].key)
            return order == 0 ? a < b : order < 0
        }
        func sameKey(_ a: Int, _ b: Int) -> Bool {
            members[a].prefix == members[b].prefix && JSONKeyOrder.compare(members[a].key, members[b].key) == 0
        }
        var sorted = true
        for index in members.indices.dropFirst() where !precedes(index - 1, index) || sameKey(index - 1, index) {
            sorted = false
            break
        }
        if sorted {  // the common case (keys encoded in order): no order array to make
            for index in members.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.string(members[index].key)
                out.append(UInt8(ascii: ":"))
                write(members[index].value)
            }
            out.append(UInt8(ascii: "}"))
            return
        }
        var order = Array(members.indices)
        order.sort(by: precedes)
        var first = true
        for (position, index) in order.enumerated() {
            // A repeated key sits right before its last value.
            if position + 1 < order.count, sameKey(order[position + 1], index) { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.string(members[index].key)
            out.append(UInt8(ascii: ":"))
            write(members[index].value)
        }
        out.append(UInt8(ascii: "}"))
    }
}
