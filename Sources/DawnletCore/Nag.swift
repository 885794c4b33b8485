/// A reminder that comes back until it is answered: every `every` seconds from when it first went
/// out, for at most `bound` seconds, each time replacing the last.
public struct Nag: Hashable, Sendable {
    public let every: Int64
    public let bound: Int64

    public init(every: Int64, bound: Int64) {
        self.every = every
        self.bound = bound
    }

    /// How many times at most it comes back.
    public var most: Int { Int(bound / every) }

    /// Its next time back after it went out at `last` (first at `first`): the first of `first +
    /// k·every` (k from 1 to `most`) after `last`; one that came while nothing ran (the machine
    /// asleep) is not made up for, the next still to come is. Nil once the bound is reached.
    public func next(first: Instant, last: Instant, now: Instant, lateAfter: Duration) -> (at: Instant, number: Int)? {
        let (first, last) = (first.secondsSinceEpoch, max(last.secondsSinceEpoch, first.secondsSinceEpoch))
        var k = (last - first) / every + 1
        // Older than "late": passed unseen. The first not yet past instead.
        let stale = now.secondsSinceEpoch - lateAfter.wholeSeconds
        if first + k * every < stale { k = (stale - first + every - 1) / every }
        guard k <= Int64(most) else { return nil }
        return (Instant(secondsSinceEpoch: first + k * every), Int(k))
    }
}
