import DawnletCore

/// What a person (or another device, or the notification server) made of a delivered reminder:
/// answers kept as codes (`Answer`) with where they came from, snoozes that bring it back, and
/// what still waits.
extension Store.Log {
    /// The deliveries a snooze moved, and the instants they fire again.
    public func snoozes() throws(StoreError) -> [DeliveryID: Instant] {
        var result: [DeliveryID: Instant] = [:]
        for (id, until) in try db.query(
            "SELECT key, channel, snoozed_until FROM deliveries WHERE snoozed_until IS NOT NULL", [],
            {
                (DeliveryID(text: $0.text(0), channel: $0.text(1)), Instant(secondsSinceEpoch: $0.int(2)))
            })
        { if let id { result[id] = until } }
        return result
    }

    /// Snooze: a delivered reminder fires again on that channel at `until`. False when there is no
    /// delivered row to snooze.
    @discardableResult
    public func snooze(_ id: DeliveryID, until: Instant, from origin: AnswerOrigin, words: String) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) in
            let moved =
                try db.run(
                    """
                    UPDATE deliveries SET snoozed_until = ?, answer = ?, answered_from = ?, response = ?
                    WHERE key = ? AND channel = ? AND state = \(Delivery.State.delivered.sql)
                    """,
                    [
                        .int(until.secondsSinceEpoch), .text(Answer.snoozed(until: until).code), .text(origin.rawValue), .text(words),
                        .text(id.key.description), .text(id.channel.rawValue),
                    ]) == 1
            if moved { try notePlanChange(id.key) }
            return moved
        }
    }

    /// Tells a running runner that the plan of `key`'s item changed (a snooze set or called off):
    /// a row of the change feed, as the triggers of the tables a plan reads write. A digest's or a
    /// calendar item's names no item: the runner plans whole.
    func notePlanChange(_ key: ReminderKey) throws(StoreError) {
        let item = key.item
        try db.run(
            "INSERT INTO plan_changes (kind, source_id) VALUES (?, ?)",
            [.text(item?.kind.rawValue ?? "delivery"), item.map { .int($0.id) } ?? .null])
    }

    /// Calls a snooze off: the reminder waits again, and does not come back by itself. False when
    /// it was not snoozed.
    @discardableResult
    public func unsnooze(_ id: DeliveryID) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) in
            let called =
                try db.run(
                    """
                    UPDATE deliveries SET snoozed_until = NULL, answer = NULL, answered_from = NULL, response = NULL
                    WHERE key = ? AND channel = ? AND snoozed_until IS NOT NULL
                    """,
                    [.text(id.key.description), .text(id.channel.rawValue)]) == 1
            if called { try notePlanChange(id.key) }
            return called
        }
    }

    /// Reminders that went out since `since` and wait for an answer, newest first: delivered, not
    /// snoozed, and answered by the person on none of their channels (one whose notification the
    /// server let expire or closed still waits). One row per reminder and channel.
    public func waiting(since: Instant) throws(StoreError) -> [Delivery] {
        func unanswered(_ response: String) -> String { "(\(response) IS NULL OR \(response) IN (\(Delivery.closedByServer)))" }
        return try deliveries(
            where: """
                state = \(Delivery.State.delivered.sql) AND snoozed_until IS NULL AND \(unanswered("answer")) AND fire_at >= ?
                AND NOT EXISTS (SELECT 1 FROM deliveries AS other WHERE other.key = deliveries.key
                    AND (other.snoozed_until IS NOT NULL OR NOT \(unanswered("other.answer"))))
                ORDER BY fire_at DESC, key, channel
                """, [.int(since.secondsSinceEpoch)])
    }

    /// Reminders a snooze brings back, soonest first.
    public func snoozed() throws(StoreError) -> [Delivery] {
        try deliveries(where: "snoozed_until IS NOT NULL ORDER BY snoozed_until, key, channel", [])
    }

    /// Records what the person did with a delivered reminder (an action, or how its notification closed).
    /// An answer given while it was snoozed calls the snooze off, and one given while it waited
    /// ends a nag: it does not come back (a running runner is told, through the change feed).
    /// `answer` as a code, where it came from, and its words.
    public func respond(_ id: DeliveryID, _ answer: Answer, from origin: AnswerOrigin, words: String) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            let key: [SQLValue] = [.text(id.key.description), .text(id.channel.rawValue)]
            let unsnoozed = try db.run("UPDATE deliveries SET snoozed_until = NULL WHERE key = ? AND channel = ? AND snoozed_until IS NOT NULL", key) == 1
            // A person's answer ends a nag: the plan of its item changes.
            let waited = try db.query(
                """
                SELECT 1 FROM deliveries WHERE key = ?1 AND channel = ?2
                AND state = \(Delivery.State.delivered.sql) AND (answer IS NULL OR answer IN (\(Delivery.closedByServer)))
                """, key
            ) { _ in true }
            let answered = answer.byPerson && !waited.isEmpty
            if unsnoozed || answered { try notePlanChange(id.key) }
            try db.run(
                "UPDATE deliveries SET answer = ?, answered_from = ?, response = ? WHERE key = ? AND channel = ?",
                [.text(answer.code), .text(origin.rawValue), .text(words)] + key)
        }
    }
}
