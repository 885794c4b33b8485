import DawnletCore
import DawnletStore

/// An item's own commands answer its reminders as `reminder …` and a notification's buttons do.
/// `todo done 4` records done on the reminders of that occurrence that went out and wait (or are
/// snoozed), whatever their offset, on every channel they went by: they stop waiting, and a
/// running `serve` closes a notification still on screen (`Runner.closeAnsweredElsewhere`). A
/// morning digest waiting that listed the occurrence is answered too, as its own Paid or Log
/// payment button answers it. A deleted item's reminders are answered "deleted"; an undo
/// (`money unpaid`, `todo reopen`, `unskip`) takes its answer back, so they wait again.
extension ReminderAnswers {
    /// One occurrence of one of our items, as its reminder keys name it.
    public struct Occurrence: Sendable, Hashable, CustomStringConvertible {
        public let kind: ReminderKind
        public let id: Int64
        public let date: CivilDate

        public init(_ kind: ReminderKind, id: Int64, date: CivilDate) {
            self.kind = kind
            self.id = id
            self.date = date
        }

        /// `bill 3 on 2026-12-01`.
        public var description: String { "\(kind) \(id) on \(date)" }
    }

    /// What an item's command did to one occurrence.
    public enum ItemAnswer: Sendable, Equatable {
        case done, skipped, paid
        /// A payment logged: its number, what was paid, and for which period (`the month 2026-12`;
        /// nil for a goal's).
        case logged(payment: Int64, amount: Amount, period: String?)

        /// As the delivery log keeps it.
        public var code: Answer {
            switch self {
            case .done: .done
            case .skipped: .skipped
            case .paid: .paid
            case .logged: .logged
            }
        }

        /// The words recorded on the occurrence's own reminders: those `reminder done|skip|paid|log`
        /// and the buttons record.
        public func words(_ occurrence: Occurrence) -> String {
            switch self {
            case .done: "done"
            case .skipped: "skipped"
            case .paid: "paid \(occurrence)"
            case .logged(let payment, let amount, let period):
                "logged payment #\(payment): \(occurrence.kind) \(occurrence.id), \(amount.paidOut)\(period.map { " for \($0)" } ?? "")"
            }
        }

        /// The words recorded on a digest that listed it: which of its items was answered.
        public func digestWords(_ occurrence: Occurrence) -> String {
            switch self {
            case .done, .skipped: "\(words(occurrence)) \(occurrence)"
            case .paid, .logged: words(occurrence)
            }
        }
    }

    /// The words a deleted item's reminders are answered with (as a serve taking over a
    /// notification of a deleted item records them).
    public static let deleted = "its item was deleted"

    /// Records `answer` on the reminders of `occurrence` that went out and wait, and with
    /// `digests` on the morning digests waiting that listed it and now list no other line still
    /// to answer (a digest is answered line by line: one with lines left waits, and a running
    /// `serve` shows it again without the line answered). The rows answered.
    @discardableResult
    public func answer(_ occurrence: Occurrence, _ answer: ItemAnswer, digests: Bool = true, now: Instant) throws(StoreError) -> [Delivery] {
        var answered = try record(
            .answer(answer.code, .itemCommand), answer.words(occurrence),
            on: try store.log.deliveries(ofItem: occurrence.kind, id: occurrence.id, on: occurrence.date...occurrence.date))
        guard digests else { return answered }
        let listing = try Listing(occurrence, store: store, config: config)
        let waiting = try store.log.waiting(since: now.adding(.zero - Self.waitingSpan)).filter { row in
            guard case .digest(let day) = row.key else { return false }
            return listing.lists(occurrence.date, digest: day, at: row.fireAt)
        }
        var done: [Delivery] = []
        for row in waiting where try !hasLinesLeft(row, now: now) { done.append(row) }
        answered += try record(.answer(answer.code, .itemCommand), answer.digestWords(occurrence), on: done)
        return answered
    }

    /// Whether the digest `row` went out as, planned now, still lists a line a command answers.
    /// A plan that cannot be made says so: the digest waits (it is dismissed whole anyway).
    func hasLinesLeft(_ row: Delivery, now: Instant) throws(StoreError) -> Bool {
        let planned: Plan
        do {
            planned = try PlanReader(store: store, config: config, zone: zone).plan(now: now, window: row.fireAt...row.fireAt, includeSuppressed: true)
        } catch let error as StoreError {
            throw error
        } catch {
            return true
        }
        guard let digest = planned.reminders.first(where: { $0.key == row.key }) else { return false }
        return !ReminderMessage.answerLines(ofDigest: digest).isEmpty
    }

    /// A deleted item's reminders stop waiting, answered `deleted`. A digest that listed it is
    /// left as it is: it lists other things too, answered on their own.
    @discardableResult
    public func answerDeleted(_ kind: ReminderKind, id: Int64) throws(StoreError) -> [Delivery] {
        try record(.itemDeleted, Self.deleted, on: try store.log.deliveries(ofItem: kind, id: id))
    }

    /// Takes back what `answer` recorded on the occurrence's reminders and on the digests of the
    /// last week that listed it, whichever path recorded it: they wait again. The rows taken back.
    @discardableResult
    public func takeBack(_ occurrence: Occurrence, _ answer: ItemAnswer, now: Instant) throws(StoreError) -> [Delivery] {
        var taken: [Delivery] = []
        for row in try store.log.deliveries(ofItem: occurrence.kind, id: occurrence.id, on: occurrence.date...occurrence.date)
        where try store.log.takeBack(row.id, answer.code, words: answer.words(occurrence)) {
            taken.append(row)
        }
        let listing = try Listing(occurrence, store: store, config: config)
        let since = now.adding(.zero - Self.waitingSpan)
        let today = ISO8601.localDate(of: now, in: zone).date
        for back in 0...(Self.waitingSpan.wholeSeconds / 86_400) {
            let day = today.adding(days: -Int(back))
            for row in try store.log.deliveries(of: .digest(day))
            where row.state == .delivered && row.fireAt >= since && listing.lists(occurrence.date, digest: day, at: row.fireAt) {
                if try store.log.takeBack(row.id, answer.code, words: answer.digestWords(occurrence)) { taken.append(row) }
            }
        }
        return taken
    }

    /// Hands `input` to the life of each reminder among `rows` that waits, is on screen or is
    /// snoozed, on all its rows, and records what it says (`ReminderLife`: one answered already
    /// keeps its answer; the runner closes what is on screen). The rows answered.
    private func record(_ input: ReminderLife.Input, _ words: String, on rows: [Delivery]) throws(StoreError) -> [Delivery] {
        let settled = Set(rows.filter { $0.life.isAnswered }.map(\.key))
        var answered: [Delivery] = []
        for row in rows where !settled.contains(row.key) {
            var life = row.life
            for case .record(let answer, let origin) in life.handle(input) {
                try store.log.respond(row.id, answer, from: origin, words: words)
                answered.append(row)
            }
        }
        return answered
    }

    /// Which morning digests list an item's occurrence, as the planner lays them out
    /// (`Planner.timed`, `Planner.digests`): a date-only occurrence is listed by the digest of its
    /// day, or of whole days before as its offsets say; a one-off todo, by every digest after its
    /// date (overdue). Nothing that went out before the item reminds from (made, or moved).
    struct Listing {
        /// How many days ahead of an occurrence its digests are.
        let ahead: Set<Int>
        /// A one-off todo's: listed overdue after its date.
        let overdue: Bool
        /// A timed occurrence is reminded on its own, not in a digest.
        let timed: Bool
        let from: Instant?

        init(_ occurrence: Occurrence, store: Store, config: Config) throws(StoreError) {
            let (kind, id, date) = (occurrence.kind, occurrence.id, occurrence.date)
            var offsets = config.reminders[kind] ?? []
            var overdue = false
            var timed = false
            var from: Instant?
            if let itemKind = kind.itemKind {
                let definition = try store.items.definition(itemKind, id: id)
                if !definition.reminders.isEmpty { offsets = definition.reminders }
                overdue = itemKind == .todo && definition.schedule == nil
                from = definition.remindsFrom
                let row = try store.items.storedOccurrences(itemKind, ids: [id], in: date...date).first
                timed = (row?.time ?? definition.time) != nil
            }
            ahead = Set(offsets.map { Int($0.exactSeconds / 86_400) })
            self.overdue = overdue
            self.timed = timed
            self.from = from
        }

        /// Whether the digest of `day`, gone out at `fireAt`, listed the occurrence on `date`.
        func lists(_ date: CivilDate, digest day: CivilDate, at fireAt: Instant) -> Bool {
            if let from, fireAt < from { return false }
            if overdue && day > date { return true }
            return !timed && ahead.contains(date.dayNumber - day.dayNumber)
        }
    }
}
