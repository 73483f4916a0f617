/// One page of a list in a stable order, with the cursor of the next page (nil on the last).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: String?
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
