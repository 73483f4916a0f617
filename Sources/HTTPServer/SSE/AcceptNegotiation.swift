/// Content negotiation on the `Accept` request header (RFC 9110 §12.5.1) between an event stream and JSON.
public enum AcceptNegotiation {
    /// Whether the client asked for `text/event-stream`: `Accept` names it exactly, with a weight above zero,
    /// and its weight is at least that of `application/json` (whose weight comes from the most specific range
    /// matching it: `application/json`, then `application/*`, then `*/*`; RFC 9110 §12.5.1). A missing
    /// `Accept`, or one that reaches the event stream only through `*/*` or `text/*`, prefers JSON.
    /// Media type parameters other than `q` are ignored; a range with an invalid `q` is skipped.
    public static func prefersEventStream(_ request: HTTPRequest) -> Bool {
        let values = request.headers.values("Accept")
        guard !values.isEmpty else { return false }
        let ranges = AcceptMediaRange.parseList(values.joined(separator: ","))
        guard let stream = ranges.filter({ $0.type == "text" && $0.subtype == "event-stream" }).map(\.quality).max(),
            stream > 0
        else { return false }
        return stream >= quality(type: "application", subtype: "json", in: ranges)
    }

    /// The weight `ranges` give `type/subtype`: that of the most specific matching range, 0 when none matches.
    static func quality(type: String, subtype: String, in ranges: [AcceptMediaRange]) -> Double {
        var best: (specificity: Int, quality: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if best == nil || specificity > best!.specificity
                || (specificity == best!.specificity && range.quality > best!.quality)
            {
                best = (specificity, range.quality)
            }
        }
        return best?.quality ?? 0
    }
}
