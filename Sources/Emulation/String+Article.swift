public extension String {
    /// The word with "a" or "an" before it, for messages that name a kind (`an appRefresh request`,
    /// `a urlSessionEvents run`): "an" before a, e, i, o, and before u unless it sounds "you" (`url…`, `us…`,
    /// `uni…`, `ut…`, `uri…`, `ure…`). `capitalized` starts a sentence with "A"/"An".
    func withIndefiniteArticle(capitalized: Bool = false) -> String {
        let word = lowercased()
        let sounded = ["url", "uri", "ure", "us", "ut", "uni"].contains { word.hasPrefix($0) }
        let vowel = word.first.map { "aeio".contains($0) || ($0 == "u" && !sounded) } ?? false
        let article = vowel ? "an" : "a"
        return (capitalized ? article.capitalized : article) + " " + self
    }
}
