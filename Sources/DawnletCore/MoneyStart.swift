/// Money starts when it exists: nothing of an item of money falls before its first day.
///
/// An item's first day is the start the person gave it, when they gave one — a schedule's `from`
/// date, a one-off's own date — and otherwise the day it was added. A start given wins even when
/// it is before the day the item was added: `money add Rent --every "monthly on day 1 from
/// 2026-01-01"`, typed in December, writes down a rent paid all year. A schedule added without
/// `from` is stored with the day it was added as its anchor, so for bills, subscriptions and
/// income the stored anchor is the first day either way. A debt is given no start: it begins on
/// the day it was added, and its first payment is the first due day on or after it — a debt due
/// on day 3, added on 2026-12-10, is first due on 2027-01-03.
///
/// Before its first day an item has no occurrence anywhere: no bill row is laid out, no renewal,
/// debt payment or deposit is on the money calendar, so none is in `money month`, `calendar`,
/// `agenda`, `today`, the reminders, `dashboard`, or the figures kept when a month closes (a debt
/// added after a month ended has no balance at that month's end). A payment logged for a day before
/// its debt or goal was added is refused. Every one of those asks `days(of:)`.
public struct MoneyStart: Hashable, Sendable {
    /// The first day; nil when neither a start nor the day it was added is known (then no day is
    /// before it).
    public let firstDay: CivilDate?

    /// `given`: the start the person gave (nil: none); `added`: the day the item was added.
    public init(given: CivilDate?, added: CivilDate?) {
        firstDay = given ?? added
    }

    /// The days of `range` the item exists on: from its first day on; nil when every day of
    /// `range` is before it.
    public func days(of range: ClosedRange<CivilDate>) -> ClosedRange<CivilDate>? {
        guard let firstDay else { return range }
        guard range.upperBound >= firstDay else { return nil }
        return max(range.lowerBound, firstDay)...range.upperBound
    }

    /// Whether the item exists on `date`.
    public func exists(on date: CivilDate) -> Bool { days(of: date...date) != nil }
}
