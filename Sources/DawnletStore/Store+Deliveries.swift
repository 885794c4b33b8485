import DawnletCore

/// One row of the delivery log.
public struct Delivery: Hashable, Sendable {
    public enum State: String, Hashable, Sendable { case claimed, delivered, failed, missed }

    public let key: ReminderKey
    public let channel: Channel
    public let state: State
    /// What it reminds of (told by its key).
    public var kind: DeliveryKind { key.deliveryKind }
    public let title: String
    public let fireAt: Instant
    public let late: Bool
    public let attempts: Int
    public let detail: String?
    /// The desktop notification server's id for it.
    public let notificationID: UInt32?
    /// The process that posted it (`PID:START`).
    public let postedBy: String?
    /// What became of it (done, snoozed until an instant, expired by the server …), and where
    /// the answer came from; nil while nothing has.
    public let answer: Answer?
    public let answeredFrom: AnswerOrigin?
    /// The answer in words, as shown: `done`, `snoozed until 2026-12-04T09:10+01:00`, `logged
    /// payment #3: …`.
    public let response: String?
    /// When it was recorded delivered, failed or missed.
    public let finishedAt: Instant?
    /// When a snooze brings it back.
    public let snoozedUntil: Instant?
    /// When it first went out since it was claimed or came back from a snooze, and how many
    /// times a nag brought it back since.
    public let firstDeliveredAt: Instant?
    public let repeats: Int
    /// Why it was missed, as the runner recorded it; nil for a row recorded before it did.
    public var missedReason: ReminderLife.MissedReason? = nil

    public var id: DeliveryID { DeliveryID(key, channel) }

    /// Answered by the person (or another device): anything but the server's own closing.
    public var answered: Bool { answer?.byPerson ?? false }
}

/// The delivery log (docs/delivery.md): a reminder is claimed (committed) before it is handed to a
/// channel, and recorded delivered, failed or missed after. The primary key (key, channel) is what
/// makes a second send impossible, even from a second runner.
extension Store.Log {
    /// Every delivery that is settled (delivered, failed or missed) for reminders due at or after
    /// `since`, and how: the planner's "already done". Claimed rows are not settled: after a crash
    /// they are tried again (the one case where a notification may go out twice). Snoozed rows are
    /// not settled either: they fire again at their new instant (`snoozes()`).
    /// With `items`, only the rows of those items and of the digests, found through the index on
    /// (kind, item_id): a re-plan of a few items reads their rows.
    public func deliveryLog(since: Instant, items: [ReminderKind: Set<Int64>]? = nil) throws(StoreError) -> [DeliveryID: Settlement] {
        var log: [DeliveryID: Settlement] = [:]
        var answered = Set<ReminderKey>()
        var condition = "state != \(Delivery.State.claimed.sql) AND snoozed_until IS NULL AND fire_at >= ?"
        var arguments: [SQLValue] = [.int(since.secondsSinceEpoch)]
        if let items {
            let kinds = items.filter { !$0.value.isEmpty }.sorted { $0.key.rawValue < $1.key.rawValue }
            condition += " AND (kind = 'digest'" + kinds.map { " OR (kind = ? AND item_id IN (\(sqlList($0.value))))" }.joined() + ")"
            arguments += kinds.map { .text($0.key.rawValue) }
        }
        for row in try deliveries(where: condition, arguments) {
            let outcome: Settlement.Outcome
            switch row.state {
            case .delivered: outcome = .delivered
            case .missed: outcome = .missed
            case .failed: outcome = .failed
            case .claimed: continue  // not selected; in flight, not settled
            }
            log[row.id] = Settlement(
                outcome, at: row.finishedAt, detail: row.detail, waiting: outcome == .delivered && !row.answered, firstDelivered: row.firstDeliveredAt)
            if row.answered { answered.insert(row.key) }
        }
        // An answer on one channel answers the reminder on every channel.
        for (id, settlement) in log where settlement.waiting && answered.contains(id.key) {
            log[id] = Settlement(settlement.outcome, at: settlement.at, detail: settlement.detail, firstDelivered: settlement.firstDelivered)
        }
        return log
    }

    /// Every row of one reminder: one per channel it went to.
    public func deliveries(of key: ReminderKey) throws(StoreError) -> [Delivery] {
        try deliveries(where: "key = ? ORDER BY channel", [.text(key.description)])
    }

    /// The notification id a reminder was last shown with on a channel: a repeat replaces it.
    public func notificationID(_ id: DeliveryID) throws(StoreError) -> UInt32? {
        try deliveries(where: "key = ? AND channel = ?", [.text(id.key.description), .text(id.channel.rawValue)]).first?.notificationID
    }

    /// One delivery to claim.
    public struct Claim: Sendable {
        public let id: DeliveryID
        public let title: String
        public let fireAt: Instant
        public let late: Bool
        /// A nag bringing back a reminder that went out and waits for an answer.
        public let isRepeat: Bool

        public init(_ id: DeliveryID, title: String, fireAt: Instant, late: Bool, isRepeat: Bool = false) {
            self.id = id
            self.title = title
            self.fireAt = fireAt
            self.late = late
            self.isRepeat = isRepeat
        }
    }

    /// Claims a reminder for a channel. True when this call owns the delivery: no row existed, a
    /// claim left by a runner that stopped before recording it, a snoozed one, or (for a repeat)
    /// one delivered and not answered. False when it is settled.
    public func claim(
        _ id: DeliveryID, title: String, fireAt: Instant, late: Bool,
        now: Instant
    ) throws(StoreError) -> Bool {
        try claim([Claim(id, title: title, fireAt: fireAt, late: late)], now: now) == [true]
    }

    /// The claim of one delivery (`claim`), compiled once.
    static let claimSQL = """
        INSERT INTO deliveries (key, channel, state, kind, title, fire_at, late, claimed_at, item_id)
        VALUES (?1, ?2, \(Delivery.State.claimed.sql), ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (key, channel) DO UPDATE SET state = \(Delivery.State.claimed.sql), attempts = attempts + 1, claimed_at = ?7, late = ?6,
            first_delivered_at = CASE WHEN snoozed_until IS NULL THEN first_delivered_at END,
            repeats = CASE WHEN snoozed_until IS NULL THEN repeats + ?9 ELSE 0 END,
            snoozed_until = NULL, answer = NULL, answered_from = NULL, response = NULL
        WHERE state = \(Delivery.State.claimed.sql) OR snoozed_until IS NOT NULL
            OR (?9 = 1 AND state = \(Delivery.State.delivered.sql) AND NOT EXISTS (SELECT 1 FROM deliveries AS other
                WHERE other.key = excluded.key AND (other.snoozed_until IS NOT NULL
                    OR (other.answer IS NOT NULL AND other.answer NOT IN (\(Delivery.closedByServer))))))
        """

    /// Compiles the claim's statement now: `serve` does it as it starts, so that the first
    /// reminders due are not held up compiling it.
    public func prepareClaim() throws(StoreError) { try db.keep(Self.claimSQL) }

    /// Claims several deliveries in one transaction (one commit for reminders due together);
    /// for each, whether this call owns it.
    public func claim(_ claims: [Claim], now: Instant) throws(StoreError) -> [Bool] {
        try db.writeTransaction { () throws(StoreError) in
            var owned: [Bool] = []
            for claim in claims {
                owned.append(
                    try db.runPrepared(
                        Self.claimSQL,
                        [
                            .text(claim.id.key.description), .text(claim.id.channel.rawValue), .text(claim.id.key.deliveryKind.rawValue), .text(claim.title),
                            .int(claim.fireAt.secondsSinceEpoch), .int(claim.late ? 1 : 0), .int(now.secondsSinceEpoch), claim.id.key.itemID,
                            .int(claim.isRepeat ? 1 : 0),
                        ]) == 1)
            }
            return owned
        }
    }

    /// Records how a claimed delivery ended (and the notification id it was shown with, if any);
    /// a delivery given up as missed, with why.
    public func finish(
        _ id: DeliveryID, state: Delivery.State, detail: String?, missed: ReminderLife.MissedReason? = nil, notificationID: UInt32? = nil,
        postedBy: String? = nil, now: Instant
    ) throws(StoreError) {
        try db.runPrepared(
            """
            UPDATE deliveries SET state = ?1, detail = ?2, finished_at = ?3, notification_id = coalesce(?4, notification_id),
                first_delivered_at = CASE WHEN ?1 = \(Delivery.State.delivered.sql) THEN coalesce(first_delivered_at, ?3) ELSE first_delivered_at END,
                posted_by = CASE WHEN ?4 IS NULL THEN posted_by ELSE ?7 END, missed_reason = ?8
            WHERE key = ?5 AND channel = ?6
            """,
            [
                .text(state.rawValue), detail.sql, .int(now.secondsSinceEpoch), notificationID.map { .int(Int64($0)) } ?? .null,
                .text(id.key.description), .text(id.channel.rawValue), postedBy.sql, (state == .missed ? missed?.rawValue : nil).sql,
            ])
    }

    /// Records a reminder the runner will not send, and why (`reason`: due longer ago than the
    /// grace window, or late and dropped by its kind's late policy); never dropped silently. The
    /// detail is the reason in words.
    public func recordMissed(
        _ id: DeliveryID, title: String, fireAt: Instant, reason: ReminderLife.MissedReason, now: Instant
    ) throws(StoreError) {
        try db.run(
            """
            INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail, item_id, missed_reason)
            VALUES (?, ?, \(Delivery.State.missed.sql), ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key, channel) DO NOTHING
            """,
            [
                .text(id.key.description), .text(id.channel.rawValue), .text(id.key.deliveryKind.rawValue), .text(title), .int(fireAt.secondsSinceEpoch),
                .int(now.secondsSinceEpoch), .int(now.secondsSinceEpoch), .text(reason.words), id.key.itemID, .text(reason.rawValue),
            ])
    }

    /// How many deliveries are in a state.
    public func count(_ state: Delivery.State) throws(StoreError) -> Int {
        Int(try db.query("SELECT count(*) FROM deliveries WHERE state = ?", [.text(state.rawValue)]) { $0.int(0) }.first ?? 0)
    }

    /// Deliveries in a state, newest first.
    public func deliveries(_ state: Delivery.State) throws(StoreError) -> [Delivery] {
        try deliveries(where: "state = ? ORDER BY fire_at DESC, key", [.text(state.rawValue)])
    }

    func deliveries(where condition: String, _ arguments: [SQLValue]) throws(StoreError) -> [Delivery] {
        try db.query(
            """
            SELECT key, channel, state, kind, title, fire_at, late, attempts, detail, notification_id, response, finished_at, snoozed_until,
                first_delivered_at, repeats, answer, answered_from, posted_by, missed_reason
            FROM deliveries
            WHERE \(condition)
            """, arguments
        ) { (row) throws(StoreError) in
            guard let id = DeliveryID(text: row.text(0), channel: row.text(1)), let state = Delivery.State(rawValue: row.text(2)) else {
                throw StoreError(.corrupt, "the delivery log has a row for \(row.text(0)) that cannot be read")
            }
            return Delivery(
                key: id.key, channel: id.channel, state: state,
                title: row.text(4), fireAt: Instant(secondsSinceEpoch: row.int(5)),
                late: row.int(6) == 1, attempts: Int(row.int(7)), detail: row.optionalText(8),
                notificationID: row.optionalInt(9).map { UInt32(truncatingIfNeeded: $0) }, postedBy: row.optionalText(17),
                answer: row.optionalText(15).flatMap(Answer.init(code:)), answeredFrom: row.optionalText(16).flatMap(AnswerOrigin.init(rawValue:)),
                response: row.optionalText(10),
                finishedAt: row.optionalInt(11).map { Instant(secondsSinceEpoch: $0) },
                snoozedUntil: row.optionalInt(12).map { Instant(secondsSinceEpoch: $0) },
                firstDeliveredAt: row.optionalInt(13).map { Instant(secondsSinceEpoch: $0) }, repeats: Int(row.int(14)),
                missedReason: row.optionalText(18).flatMap(ReminderLife.MissedReason.init(rawValue:)))
        }
    }

    /// This database's namespace for exported calendar UIDs (16 hex digits, made at first use):
    /// two databases exporting into one vdir never claim each other's files.
    public func exportNamespace() throws(StoreError) -> String {
        try db.writeTransaction { () throws(StoreError) in
            if let known = try existingExportNamespace() { return known }
            let made = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let value = String(repeating: "0", count: 16 - made.count) + made
            try db.run("INSERT INTO settings (key, value) VALUES ('export-namespace', ?)", [.text(value)])
            return value
        }
    }

    /// Notes when a runner started (`settings` row `runner-started`). Its commit also makes the
    /// write-ahead log ready (created, its header written and synced), so the first claim of a
    /// due reminder does not wait for that sync.
    public func noteRunnerStart(_ now: Instant) throws(StoreError) {
        try db.run(
            "INSERT INTO settings (key, value) VALUES ('runner-started', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(String(now.secondsSinceEpoch))])
    }

    /// When this database began: nothing due before it is recorded missed.
    public func createdAt() throws(StoreError) -> Instant? {
        try db.query("SELECT value FROM settings WHERE key = 'created'", [], { Int64($0.text(0)) }).first?.map(Instant.init(secondsSinceEpoch:))
    }

    /// Missed reminders not yet acknowledged (`missed --clear`), newest first.
    /// How many missed reminders are not yet acknowledged (`missed --clear`): what `next` counts.
    public func unacknowledgedMissedCount() throws(StoreError) -> Int {
        Int(
            try db.query(
                "SELECT count(*) FROM deliveries WHERE state = \(Delivery.State.missed.sql) AND (response IS NULL OR response <> \(Delivery.acknowledged))"
            ) { $0.int(0) }.first ?? 0)
    }

    public func unacknowledgedMissed() throws(StoreError) -> [Delivery] {
        try deliveries(
            where: "state = \(Delivery.State.missed.sql) AND (response IS NULL OR response <> \(Delivery.acknowledged)) ORDER BY fire_at DESC, key", [])
    }

    /// Acknowledges missed reminders (all, or those with `keys`): `missed` lists them no more.
    /// Returns how many were acknowledged.
    @discardableResult
    public func acknowledgeMissed(keys: [ReminderKey]? = nil) throws(StoreError) -> Int {
        try db.writeTransaction { () throws(StoreError) in
            guard let keys else {
                return try db.run("UPDATE deliveries SET response = \(Delivery.acknowledged) WHERE state = \(Delivery.State.missed.sql) AND response IS NULL")
            }
            var count = 0
            for key in keys {
                count += try db.run(
                    "UPDATE deliveries SET response = \(Delivery.acknowledged) WHERE state = \(Delivery.State.missed.sql) AND response IS NULL AND key = ?",
                    [.text(key.description)])
            }
            return count
        }
    }

    /// The namespace, if this database ever exported (reading never creates it).
    public func existingExportNamespace() throws(StoreError) -> String? {
        try db.query("SELECT value FROM settings WHERE key = 'export-namespace'", [], { $0.text(0) }).first
    }

}

extension DeliveryID {
    /// A delivery log row's key and channel as stored.
    init?(text key: String, channel: String) {
        guard let key = ReminderKey(key), let channel = Channel(rawValue: channel) else { return nil }
        self.init(key, channel)
    }
}

extension ReminderKey {
    /// The id of the item a reminder is about, as the delivery log keeps it (none for a digest or
    /// a calendar's item).
    var itemID: SQLValue { item.map { .int($0.id) } ?? .null }
}

extension Delivery.State {
    /// The state as an SQL literal: the delivery log's words are written in one place, here.
    var sql: String { "'\(rawValue)'" }
}

extension Delivery {
    /// The detail `recordMissed` wrote for every missed reminder before the runner recorded why
    /// (`missedReason`).
    public static let outsideGraceWindow = ReminderLife.MissedReason.graceWindow.words
    /// The response of a missed delivery someone has seen (`missed --clear`), as an SQL literal.
    static let acknowledged = "'acknowledged'"
    /// The answers a notification server records on its own (it let the notification expire,
    /// or closed it), as SQL literals: the person has not answered.
    static let closedByServer = [Answer.expired, .closed].map { "'\($0.code)'" }.joined(separator: ", ")
}
