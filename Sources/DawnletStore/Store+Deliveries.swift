import DawnletCore

/// One row of the delivery log.
public struct Delivery: Hashable, Sendable {
    public enum State: String, Hashable, Sendable { case claimed, delivered, failed, missed }

    public let key: String
    public let channel: String
    public let state: State
    public let kind: String
    public let title: String
    public let fireAt: Instant
    public let late: Bool
    public let attempts: Int
    public let detail: String?
    /// The desktop notification server's id for it.
    public let notificationID: UInt32?
    /// What the person did: done, skipped, snoozed until …, dismissed, expired.
    public let response: String?
}

/// The delivery log (DESIGN §6): a reminder is claimed (committed) before it is handed to a
/// channel, and recorded delivered, failed or missed after. The primary key (key, channel) is what
/// makes a second send impossible, even from a second runner.
extension Store {
    /// `key@channel` of every delivery that is settled (delivered, failed or missed) for reminders
    /// due at or after `since`: the planner's "already done". Claimed rows are not settled: after
    /// a crash they are tried again (the one case DESIGN §6 allows to repeat). Snoozed rows are
    /// not settled either: they fire again at their new instant (`snoozes()`).
    public func settledDeliveries(since: Instant) throws(StoreError) -> Set<String> {
        Set(try db.query("SELECT key, channel FROM deliveries WHERE state != 'claimed' AND snoozed_until IS NULL AND fire_at >= ?",
                         [.int(since.secondsSinceEpoch)]) { "\($0.text(0))@\($0.text(1))" })
    }

    /// `key@channel` → the instant a snoozed reminder fires again.
    public func snoozes() throws(StoreError) -> [String: Instant] {
        var result: [String: Instant] = [:]
        for (id, until) in try db.query("SELECT key, channel, snoozed_until FROM deliveries WHERE snoozed_until IS NOT NULL", [], {
            ("\($0.text(0))@\($0.text(1))", Instant(secondsSinceEpoch: $0.int(2)))
        }) { result[id] = until }
        return result
    }

    /// Snooze: a delivered reminder fires again on that channel at `until`. False when there is no
    /// delivered row to snooze.
    @discardableResult
    public func snooze(key: String, channel: String, until: Instant, response: String) throws(StoreError) -> Bool {
        try db.run("UPDATE deliveries SET snoozed_until = ?, response = ? WHERE key = ? AND channel = ? AND state = 'delivered'",
                   [.int(until.secondsSinceEpoch), .text(response), .text(key), .text(channel)]) == 1
    }

    /// Records what the person did with a delivered reminder (an action, or how its notification closed).
    public func respond(key: String, channel: String, response: String) throws(StoreError) {
        try db.run("UPDATE deliveries SET response = ? WHERE key = ? AND channel = ?", [.text(response), .text(key), .text(channel)])
    }

    /// The reminder a notification id belongs to on a channel (the newest, since a server restart reuses ids).
    public func delivery(notificationID: UInt32, channel: String) throws(StoreError) -> Delivery? {
        try deliveries(where: "notification_id = ? AND channel = ? ORDER BY finished_at DESC LIMIT 1",
                       [.int(Int64(notificationID)), .text(channel)]).first
    }

    /// The notification id a reminder was last shown with on a channel: a repeat replaces it.
    public func notificationID(key: String, channel: String) throws(StoreError) -> UInt32? {
        try deliveries(where: "key = ? AND channel = ?", [.text(key), .text(channel)]).first?.notificationID
    }

    /// Claims a reminder for a channel. True when this call owns the delivery: no row existed, a
    /// claim left by a runner that stopped before recording it, or a snoozed one. False when it is settled.
    public func claim(key: String, channel: String, kind: String, title: String, fireAt: Instant, late: Bool,
                      now: Instant) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) in
            try db.run("""
                INSERT INTO deliveries (key, channel, state, kind, title, fire_at, late, claimed_at)
                VALUES (?1, ?2, 'claimed', ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (key, channel) DO UPDATE SET state = 'claimed', attempts = attempts + 1, claimed_at = ?7, late = ?6,
                    snoozed_until = NULL
                WHERE state = 'claimed' OR snoozed_until IS NOT NULL
                """, [.text(key), .text(channel), .text(kind), .text(title), .int(fireAt.secondsSinceEpoch),
                      .int(late ? 1 : 0), .int(now.secondsSinceEpoch)]) == 1
        }
    }

    /// Records how a claimed delivery ended (and the notification id it was shown with, if any).
    public func finish(key: String, channel: String, state: Delivery.State, detail: String?, notificationID: UInt32? = nil,
                       now: Instant) throws(StoreError) {
        try db.run("""
            UPDATE deliveries SET state = ?, detail = ?, finished_at = ?, notification_id = coalesce(?, notification_id)
            WHERE key = ? AND channel = ?
            """, [.text(state.rawValue), detail.sql, .int(now.secondsSinceEpoch), notificationID.map { .int(Int64($0)) } ?? .null,
                  .text(key), .text(channel)])
    }

    /// Records a reminder that was due longer ago than the grace window: never sent, never dropped silently.
    public func recordMissed(key: String, channel: String, kind: String, title: String, fireAt: Instant, now: Instant) throws(StoreError) {
        try db.run("""
            INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail)
            VALUES (?, ?, 'missed', ?, ?, ?, ?, ?, 'outside the grace window') ON CONFLICT (key, channel) DO NOTHING
            """, [.text(key), .text(channel), .text(kind), .text(title), .int(fireAt.secondsSinceEpoch),
                  .int(now.secondsSinceEpoch), .int(now.secondsSinceEpoch)])
    }

    /// Deliveries in a state, newest first.
    public func deliveries(_ state: Delivery.State) throws(StoreError) -> [Delivery] {
        try deliveries(where: "state = ? ORDER BY fire_at DESC, key", [.text(state.rawValue)])
    }

    private func deliveries(where condition: String, _ arguments: [SQLValue]) throws(StoreError) -> [Delivery] {
        try db.query("""
            SELECT key, channel, state, kind, title, fire_at, late, attempts, detail, notification_id, response FROM deliveries
            WHERE \(condition)
            """, arguments) { row in
            Delivery(key: row.text(0), channel: row.text(1), state: Delivery.State(rawValue: row.text(2)) ?? .failed,
                     kind: row.text(3), title: row.text(4), fireAt: Instant(secondsSinceEpoch: row.int(5)),
                     late: row.int(6) == 1, attempts: Int(row.int(7)), detail: row.optionalText(8),
                     notificationID: row.optionalInt(9).map { UInt32(truncatingIfNeeded: $0) }, response: row.optionalText(10))
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

    /// The namespace, if this database ever exported (reading never creates it).
    public func existingExportNamespace() throws(StoreError) -> String? {
        try db.query("SELECT value FROM settings WHERE key = 'export-namespace'", [], { $0.text(0) }).first
    }

    /// The database file, for the runner's watch on its folder.
    public var path: String { db.path }
}
