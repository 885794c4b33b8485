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
}

/// The delivery log (DESIGN §6): a reminder is claimed (committed) before it is handed to a
/// channel, and recorded delivered, failed or missed after. The primary key (key, channel) is what
/// makes a second send impossible, even from a second runner.
extension Store {
    /// `key@channel` of every delivery that is settled (delivered, failed or missed) for reminders
    /// due at or after `since`: the planner's "already done". Claimed rows are not settled: after
    /// a crash they are tried again (the one case DESIGN §6 allows to repeat).
    public func settledDeliveries(since: Instant) throws(StoreError) -> Set<String> {
        Set(try db.query("SELECT key, channel FROM deliveries WHERE state != 'claimed' AND fire_at >= ?",
                         [.int(since.secondsSinceEpoch)]) { "\($0.text(0))@\($0.text(1))" })
    }

    /// Claims a reminder for a channel. True when this call owns the delivery: no row existed, or
    /// a claim left by a runner that stopped before recording it. False when it is settled.
    public func claim(key: String, channel: String, kind: String, title: String, fireAt: Instant, late: Bool,
                      now: Instant) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) in
            try db.run("""
                INSERT INTO deliveries (key, channel, state, kind, title, fire_at, late, claimed_at)
                VALUES (?1, ?2, 'claimed', ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (key, channel) DO UPDATE SET attempts = attempts + 1, claimed_at = ?7, late = ?6
                WHERE state = 'claimed'
                """, [.text(key), .text(channel), .text(kind), .text(title), .int(fireAt.secondsSinceEpoch),
                      .int(late ? 1 : 0), .int(now.secondsSinceEpoch)]) == 1
        }
    }

    /// Records how a claimed delivery ended.
    public func finish(key: String, channel: String, state: Delivery.State, detail: String?, now: Instant) throws(StoreError) {
        try db.run("UPDATE deliveries SET state = ?, detail = ?, finished_at = ? WHERE key = ? AND channel = ?",
                   [.text(state.rawValue), detail.sql, .int(now.secondsSinceEpoch), .text(key), .text(channel)])
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
        try db.query("""
            SELECT key, channel, state, kind, title, fire_at, late, attempts, detail FROM deliveries
            WHERE state = ? ORDER BY fire_at DESC, key
            """, [.text(state.rawValue)]) { row in
            Delivery(key: row.text(0), channel: row.text(1), state: Delivery.State(rawValue: row.text(2)) ?? state,
                     kind: row.text(3), title: row.text(4), fireAt: Instant(secondsSinceEpoch: row.int(5)),
                     late: row.int(6) == 1, attempts: Int(row.int(7)), detail: row.optionalText(8))
        }
    }

    /// The database file, for the runner's watch on its folder.
    public var path: String { db.path }
}
