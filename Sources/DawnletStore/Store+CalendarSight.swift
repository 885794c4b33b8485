import DawnletCore

/// When this machine first saw each calendar item (`calendar_seen`): a reminder of a time before
/// is neither sent late nor recorded missed — a machine just set up, a calendar just added, an
/// item just synced in does not ring the past, while one that was only off still catches up.
extension Store.Log {
    /// What the machine has seen of the calendars.
    public struct CalendarSight: Sendable, Equatable {
        /// When each item was first seen, by its calendar's name and then its UID (`.zero`: there
        /// at the first look, so seen always).
        public var firstSeen: [String: [String: Instant]] = [:]
        /// Whether the calendars were ever looked at: before, what is there is seen always.
        public var looked = false

        public init() {}

        /// When the item `uid` of `calendar` was first seen; nil when never.
        public func firstSeen(calendar: String, uid: String) -> Instant? { firstSeen[calendar]?[uid] }
    }

    public func calendarSight() throws(StoreError) -> CalendarSight {
        var sight = CalendarSight()
        _ = try db.query("SELECT calendar, uid, first_seen FROM calendar_seen", []) { row throws(StoreError) in
            let calendar = row.text(0)
            if calendar.isEmpty {
                sight.looked = true
            } else {
                sight.firstSeen[calendar, default: [:]][row.text(1)] = Instant(secondsSinceEpoch: row.int(2))
            }
        }
        return sight
    }

    /// Notes `items` (calendar name, UID) seen for the first time at `now`; at the first look,
    /// as seen always. Written on the runner's own connection: no plan of another process changes.
    public func noteSeen(_ items: [(calendar: String, uid: String)], now: Instant, firstLook: Bool) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            let at = firstLook ? 0 : now.secondsSinceEpoch
            for item in items {
                try db.run(
                    "INSERT OR IGNORE INTO calendar_seen (calendar, uid, first_seen) VALUES (?, ?, ?)",
                    [.text(item.calendar), .text(item.uid), .int(at)])
            }
            if firstLook {
                try db.run("INSERT OR IGNORE INTO calendar_seen (calendar, uid, first_seen) VALUES ('', '', ?)", [.int(now.secondsSinceEpoch)])
            }
        }
    }
}
