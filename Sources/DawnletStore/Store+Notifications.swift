import DawnletCore

/// Desktop notifications left on screen by another process: which `serve` posted the one a
/// delivery shows, so that a later serve can take over what an earlier one left.
extension Store.Log {
    /// Desktop notifications another process posted (a serve before this one) that still wait
    /// on screen since `since`: delivered, unanswered, not closed and not snoozed (a summary's
    /// members share one notification). Oldest first.
    public func postedElsewhere(than process: String, since: Instant) throws(StoreError) -> [Delivery] {
        try deliveries(
            where: """
                channel = '\(Channel.desktop.rawValue)' AND state = \(Delivery.State.delivered.sql) AND answer IS NULL
                AND snoozed_until IS NULL AND notification_id IS NOT NULL AND fire_at >= ?1 AND coalesce(posted_by, '') != ?2
                ORDER BY fire_at, key
                """, [.int(since.secondsSinceEpoch), .text(process)])
    }

    /// A notification now shown by `process` (taken over, perhaps under a new id), or none
    /// (nil: shown again without this reminder).
    public func notePosted(_ id: DeliveryID, notificationID: UInt32?, by process: String) throws(StoreError) {
        try db.run(
            "UPDATE deliveries SET notification_id = ?, posted_by = ? WHERE key = ? AND channel = ?",
            [notificationID.map { .int(Int64($0)) } ?? .null, .text(process), .text(id.key.description), .text(id.channel.rawValue)])
    }

    /// Every reminder a notification shows on a channel: one, or a summary's members (the rows
    /// last recorded with that id: a server started again reuses ids).
    public func deliveries(notificationID: UInt32, channel: Channel) throws(StoreError) -> [Delivery] {
        try deliveries(
            where: """
                notification_id = ?1 AND channel = ?2
                AND finished_at = (SELECT max(finished_at) FROM deliveries WHERE notification_id = ?1 AND channel = ?2)
                ORDER BY fire_at, key
                """, [.int(Int64(notificationID)), .text(channel.rawValue)])
    }
}

extension Delivery {
    /// Where the reminder's life stands, as this row of the log records it (`ReminderLife`).
    public var life: ReminderLife {
        let state: ReminderLife.State
        switch self.state {
        case .claimed: state = .claimed
        case .missed: state = .missed(missedReason ?? .graceWindow)
        case .failed: state = .missed(.gaveUp)
        case .delivered:
            switch answer {
            case _ where snoozedUntil != nil: state = .snoozed(until: snoozedUntil!)
            case .expired?: state = .expired
            case .closed?: state = .waiting
            case let answer?: state = .answered(answer, answeredFrom ?? .button)
            case nil:
                if channel == .desktop, let notificationID {
                    state = .showing(.init(id: notificationID, postedBy: postedBy ?? ""))
                } else {
                    state = .waiting
                }
            }
        }
        return ReminderLife(state, lastShown: finishedAt)
    }
}
