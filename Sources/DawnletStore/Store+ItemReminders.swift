import DawnletCore

/// The delivery log as an item's own commands read it (`todo done`, `money paid`, `todo
/// delete`): the reminders of one item that went out, and an answer taken back when the command
/// is undone (`money unpaid`).
extension Store.Log {
    /// The delivered rows of an item's reminders, found through the index on (kind, item_id);
    /// with `dates`, only those of its occurrences on those dates. Oldest first.
    public func deliveries(ofItem kind: ReminderKind, id: Int64, on dates: ClosedRange<CivilDate>? = nil) throws(StoreError) -> [Delivery] {
        let rows = try deliveries(
            where: "kind = ? AND item_id = ? AND state = \(Delivery.State.delivered.sql) ORDER BY fire_at, key, channel",
            [.text(kind.rawValue), .int(id)])
        guard let dates else { return rows }
        return rows.filter { row in row.key.item.map { dates.contains($0.date) } ?? false }
    }

    /// Takes back an answer: the delivered row waits again when it was answered `answer` in
    /// `words`, from wherever (a running runner is told, through the change feed). False,
    /// changing nothing, when it was answered otherwise or not at all.
    @discardableResult
    public func takeBack(_ id: DeliveryID, _ answer: Answer, words: String) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) in
            let taken =
                try db.run(
                    """
                    UPDATE deliveries SET answer = NULL, answered_from = NULL, response = NULL
                    WHERE key = ? AND channel = ? AND state = \(Delivery.State.delivered.sql) AND answer = ? AND response = ?
                    """, [.text(id.key.description), .text(id.channel.rawValue), .text(answer.code), .text(words)]) == 1
            if taken { try notePlanChange(id.key) }
            return taken
        }
    }
}
