/// A place in one of an app's lists — its runs, transfers or background tasks — found by the engine with
/// `firstSlot(where:)` and friends: the engine's functions take it, not a bare `Int`, so an index of another list
/// (or an app's ``AppSlot``) cannot be passed where a run's is meant.
///
/// Like an ``AppSlot``, a slot is good for one operation while its list is neither trimmed nor reordered.
public struct ListSlot<Element>: Hashable, Comparable, Sendable {
    /// The element's index in its array.
    let index: Int

    fileprivate init(_ index: Int) { self.index = index }

    public static func < (lhs: ListSlot, rhs: ListSlot) -> Bool { lhs.index < rhs.index }
}

extension Array {
    /// The slot of the first element that satisfies `predicate`.
    func firstSlot(where predicate: (Element) throws -> Bool) rethrows -> ListSlot<Element>? {
        try firstIndex(where: predicate).map(ListSlot.init)
    }

    /// The slot of the last element that satisfies `predicate`.
    func lastSlot(where predicate: (Element) throws -> Bool) rethrows -> ListSlot<Element>? {
        try lastIndex(where: predicate).map(ListSlot.init)
    }

    /// The slots of every element, in order.
    var slots: [ListSlot<Element>] { indices.map(ListSlot.init) }

    /// The slot of the last element (the one just appended).
    var lastSlot: ListSlot<Element>? { isEmpty ? nil : ListSlot(count - 1) }

    /// The element in `slot`, changed in place as through the `Int` subscript.
    subscript(_ slot: ListSlot<Element>) -> Element {
        // A getter, not a yielding `_read`: see `AppSlot`'s subscript.
        get { self[slot.index] }
        _modify { yield &self[slot.index] }
    }
}
