extension String {
    /// ASCII case-insensitive equality, as header names are compared (RFC 9110 §5.1). Internal: the server module
    /// has its own, and a file importing both must not see two.
    func headerNameEquals(_ other: String) -> Bool {
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x == y { continue }
                let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
                let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
                if lx != ly { return false }
            default: return false
            }
        }
    }
}
