import DawnletCore
import DawnletStore

extension ReminderAnswers {
    /// One reminder that went out, with every channel it went by.
    public struct Entry: Sendable, Equatable {
        public let key: ReminderKey
        public let kind: DeliveryKind
        public let title: String
        public let fireAt: Instant
        public let channels: [Channel]
        public let late: Bool
        /// When a snooze brings it back.
        public let snoozedUntil: Instant?
        /// How many times a nag brought it back, on the channel it came back on most.
        public let repeats: Int
    }

    /// How far back a reminder still waits for an answer: older ones are the delivery log's history.
    public static let waitingSpan: Duration = .seconds(7 * 86_400)

    /// Reminders that went out in the last week and wait for an answer, newest first: delivered,
    /// not answered by the person on any channel, not snoozed, and not already settled by the
    /// item's own command (`todo done` after the reminder went out), nor of an item deleted since:
    /// each can be answered. (The item's commands answer them too, `ReminderAnswers+Items.swift`;
    /// this covers a log written before they did.)
    public func waiting(now: Instant) throws(StoreError) -> [Entry] {
        var entries = Self.entries(try store.log.waiting(since: now.adding(.zero - Self.waitingSpan)))
        var settled: Set<ReminderKey> = []
        for entry in entries {
            guard let target = entry.key.item else { continue }
            if !(try exists(target.kind, id: target.id)) {
                settled.insert(entry.key)
                continue
            }
            guard let kind = target.kind.itemKind else { continue }
            let stored = try store.items.storedOccurrences(kind, ids: [target.id], in: target.date...target.date)
            if let status = stored.first?.status, status != .open { settled.insert(entry.key) }
        }
        entries.removeAll { settled.contains($0.key) }
        return entries
    }

    /// Whether the item a reminder is about is still there.
    private func exists(_ kind: ReminderKind, id: Int64) throws(StoreError) -> Bool {
        switch kind {
        case .todo, .event, .habit: !(try store.items.definitions(kind.itemKind!, ids: [id]).isEmpty)
        case .bill: !(try store.money.recurringTransactions(ids: [id]).isEmpty)
        case .subscription: !(try store.sources.subscriptions(ids: [id]).isEmpty)
        case .debt: !(try store.sources.debts(ids: [id]).isEmpty)
        case .goal: !(try store.sources.goals(ids: [id]).isEmpty)
        case .income: !(try store.sources.incomeSources(ids: [id]).isEmpty)
        case .calendar: true
        }
    }

    /// Reminders a snooze brings back, soonest first.
    public func snoozed() throws(StoreError) -> [Entry] {
        Self.entries(try store.log.snoozed()).sorted { ($0.snoozedUntil ?? $0.fireAt) < ($1.snoozedUntil ?? $1.fireAt) }
    }

    /// The reminder `reminder VERB` without KEY is about: the newest one waiting that VERB fits
    /// (`verbs(for:)`: `done` takes a todo's or a habit's, never an event's); for `unsnooze`, the
    /// one snoozed, when there is exactly one.
    public func implicitKey(_ verb: String, now: Instant) throws(StoreError) -> Entry {
        if verb == "unsnooze" {
            let entries = try self.snoozed()
            guard entries.count == 1 else {
                throw StoreError(
                    .notFound, entries.isEmpty ? "no reminder is snoozed" : "\(entries.count) reminders are snoozed: name one (reminder list --snoozed)")
            }
            return entries[0]
        }
        let waiting = try waiting(now: now)
        guard !waiting.isEmpty else { throw StoreError(.notFound, "no reminder is waiting for an answer (reminder list)") }
        guard let newest = waiting.first(where: { Self.verbs(for: $0.key).contains(verb) }) else { throw Self.noneFits(verb, among: waiting) }
        return newest
    }

    /// Rows grouped into one entry per reminder, in the order of their first row.
    static func entries(_ rows: [Delivery]) -> [Entry] {
        var order: [ReminderKey] = []
        var grouped: [ReminderKey: [Delivery]] = [:]
        for row in rows {
            if grouped[row.key] == nil { order.append(row.key) }
            grouped[row.key, default: []].append(row)
        }
        return order.map { key in
            let rows = grouped[key]!
            return Entry(
                key: key, kind: rows[0].kind, title: rows[0].title, fireAt: rows[0].fireAt, channels: rows.map(\.channel),
                late: rows.contains(where: \.late), snoozedUntil: rows.compactMap(\.snoozedUntil).min(), repeats: rows.map(\.repeats).max() ?? 0)
        }
    }
}
