import Foundation

/// What is wrong with a JSON body, said so that a person can find it: where a body that is not JSON stops being
/// JSON (line, column and byte offset), and which members hold numbers no integer field can take.
enum JSONBodyDiagnosis {
    /// `at line 2, column 8 (byte 14)`: where Foundation's parser stopped, from its description ("around character
    /// N", or the end for a body cut short); nil when it says neither.
    static func position(in bytes: [UInt8]) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return nil
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            let offset: Int
            if let range = description.range(of: #"character (\d+)"#, options: .regularExpression),
               let value = Int(description[range].dropFirst("character ".count)) {
                offset = min(value, bytes.count)
            } else if description.localizedCaseInsensitiveContains("end of file") {
                offset = bytes.count
            } else {
                return nil
            }
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            return "at line \(line), column \(column) (byte \(offset))"
                + (offset == bytes.count ? ": the body ends before its value does" : "")
        }
    }

    /// The 1-based line and column (in bytes) of byte `offset`.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 10 {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The paths (`seed`, `apps[0].interval`) of the numbers in a well-formed body that an integer field may refuse:
    /// whole numbers past `Int64.min`…`UInt64.max` when there are any, else fractions, else negative numbers (for
    /// an unsigned field). One of them is what an integer field refused (Foundation's decoder does not say which).
    static func numbersNoIntegerHolds(in bytes: [UInt8]) -> [(path: String, text: String)] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return [] }
        var found: [(String, String)] = []
        func visit(_ value: Any, _ path: String) {
            switch value {
            case let object as [String: Any]:
                for key in object.keys.sorted() { visit(object[key]!, path.isEmpty ? key : path + "." + key) }
            case let array as [Any]:
                for (index, element) in array.enumerated() { visit(element, path + "[\(index)]") }
            case let number as NSNumber where !(value is Bool) && String(cString: number.objCType) != "c":
                let text = "\(number)"
                let integral = Int64(text) != nil || UInt64(text) != nil
                if !integral || text.hasPrefix("-") { found.append((path.isEmpty ? "body" : path, text)) }
            default:
                break
            }
        }
        visit(root, "")
        // A whole number past every integer cannot be what a number field took: name those first; else the
        // fractions (one of which an integer field refused).
        let outOfRange = found.filter { Int64($0.1) == nil && (Double($0.1).map { $0 == $0.rounded() } ?? false) }
        if !outOfRange.isEmpty { return outOfRange }
        let fractions = found.filter { Int64($0.1) == nil }
        return fractions.isEmpty ? found : fractions  // else the negative ones (an unsigned field refused one)
    }
}
