/// A structural check of a binary property list (`bplist00`) before Foundation reads it: every object the offset
/// table lists lies within the bytes, has a kind an Info.plist holds (booleans, integers, reals, dates, data,
/// strings, arrays, dictionaries with string keys) and refers only to listed objects. Foundation's parser on Linux
/// dies of a null pointer on a plist holding a set (marker 0xC_) and is not total on what else it does not expect,
/// so those are refused here first. The check reads each object once, in one pass over the offset table: CPU and
/// memory linear in the input, no recursion.
enum BinaryPropertyListCheck {
    static let magic: [UInt8] = Array("bplist".utf8)

    /// Whether `bytes` claim to be a binary plist (any version); such bytes are checked before they are parsed.
    static func claims(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    /// Why `bytes` are not a binary plist Foundation may be given, or nil when they are.
    static func problem(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("bplist00".utf8)) else { return "has an unknown binary plist version" }
        let trailerLength = 32
        guard bytes.count >= 8 + 1 + trailerLength else { return "is too short for a binary plist" }
        let trailer = bytes.count - trailerLength
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { return "has a malformed trailer" }
        let objectCount = bigEndian(bytes, trailer + 8, 8), top = bigEndian(bytes, trailer + 16, 8)
        let tableOffset = bigEndian(bytes, trailer + 24, 8)
        // The offset table lies between the header and the trailer: its length, computed without overflow.
        guard objectCount >= 1, top < objectCount, tableOffset >= 9, tableOffset <= UInt64(trailer),
              objectCount <= (UInt64(trailer) - tableOffset) / UInt64(offsetSize)
        else { return "has a malformed trailer" }
        let count = Int(objectCount), table = Int(tableOffset)
        var objects = Objects(bytes: bytes, end: table, referenceSize: referenceSize, count: count)
        for index in 0..<count {
            let offset = bigEndian(bytes, table + index * offsetSize, offsetSize)
            guard offset >= 8, offset < tableOffset else { return "has an object outside its object table" }
            if let problem = objects.check(index, at: Int(offset)) { return problem }
        }
        // Dictionary keys are checked once every object's kind is known.
        for key in objects.keys {
            guard objects.isString[key] else { return "has a dictionary key that is not a string" }
        }
        return nil
    }

    /// An unsigned big-endian number of `length` (1...8) bytes at `offset`, which the caller has bounded.
    static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ length: Int) -> UInt64 {
        bytes[offset..<offset + length].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The objects read so far: which are strings, and the references used as dictionary keys.
    private struct Objects {
        let bytes: [UInt8]
        /// Where objects end: the offset table.
        let end: Int
        let referenceSize: Int
        let count: Int
        var isString: [Bool]
        var keys: [Int] = []

        init(bytes: [UInt8], end: Int, referenceSize: Int, count: Int) {
            self.bytes = bytes
            self.end = end
            self.referenceSize = referenceSize
            self.count = count
            isString = [Bool](repeating: false, count: count)
        }

        /// Why object `index`, at `offset`, cannot be given to Foundation, or nil; notes whether it is a string.
        mutating func check(_ index: Int, at offset: Int) -> String? {
            let marker = bytes[offset], kind = marker >> 4, low = Int(marker & 0x0F)
            switch kind {
            case 0x0:
                return low == 0x8 || low == 0x9 ? nil : "has a null or fill object"
            case 0x1:
                return low <= 3 && fits(offset + 1, 1 << low) ? nil : "has a malformed integer"
            case 0x2:
                return (low == 2 || low == 3) && fits(offset + 1, 1 << low) ? nil : "has a malformed real"
            case 0x3:
                return marker == 0x33 && fits(offset + 1, 8) ? nil : "has a malformed date"
            case 0x4, 0x5, 0x6:
                guard let (start, length) = length(offset, low), let bytesLength = length.multipliedChecked(kind == 0x6 ? 2 : 1),
                      fits(start, bytesLength)
                else { return "has a string or data that runs past its object table" }
                if kind != 0x4 { isString[index] = true }
                return nil
            case 0xA, 0xD:
                guard let (start, length) = length(offset, low),
                      let references = length.multipliedChecked(kind == 0xD ? 2 : 1),
                      let referencesLength = references.multipliedChecked(referenceSize), fits(start, referencesLength)
                else { return "has an array or dictionary that runs past its object table" }
                for reference in 0..<references {
                    let target = BinaryPropertyListCheck.bigEndian(bytes, start + reference * referenceSize, referenceSize)
                    guard target < UInt64(count) else { return "refers to an object it does not list" }
                    if kind == 0xD, reference < length { keys.append(Int(target)) }
                }
                return nil
            case 0xC:
                return "holds a set, which an Info.plist never does"
            default:
                return "has an object of a kind an Info.plist never holds (marker \(marker))"
            }
        }

        /// Whether `length` bytes from `start` lie before the offset table.
        func fits(_ start: Int, _ length: Int) -> Bool { start <= end && length >= 0 && end - start >= length }

        /// Where a string's, data's or collection's contents start, and its count (the low nibble, or when that is
        /// 0xF an integer object after the marker).
        func length(_ offset: Int, _ low: Int) -> (start: Int, length: Int)? {
            guard low == 0xF else { return (offset + 1, low) }
            guard fits(offset + 1, 1) else { return nil }
            let marker = bytes[offset + 1]
            let size = 1 << Int(marker & 0x0F)
            guard marker >> 4 == 0x1, size <= 8, fits(offset + 2, size) else { return nil }
            let value = BinaryPropertyListCheck.bigEndian(bytes, offset + 2, size)
            guard value <= UInt64(Int32.max) else { return nil }
            return (offset + 2 + size, Int(value))
        }
    }
}

extension Int {
    /// `self * factor`, or nil when it overflows.
    fileprivate func multipliedChecked(_ factor: Int) -> Int? {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        return overflow ? nil : product
    }
}
