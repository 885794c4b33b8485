import DawnletCore

/// A locked screen holds desktop reminders back, as a paused server does: what comes due while it
/// is locked waits, neither shown nor recorded. Unlocked, what still waits goes out on the desktop
/// as one summary ("N reminders while you were away"; one alone as itself); what was answered
/// elsewhere meanwhile is settled in the plan by then, and is not shown.
extension RunnerCore {
    mutating func screenLocked(_ isLocked: Bool, now: Instant) -> [RunnerEffect] {
        guard !stopping, isLocked != (locked != nil) else { return [] }
        if isLocked {
            locked = now
            return holdBegan(LogEntry("the screen is locked: desktop reminders are held until it unlocks", priority: 5), now: now)
        }
        locked = nil
        // Held for the lock alone: a paused server still holds them after it.
        awayHeld = paused[.desktop] == nil ? Set(held.filter { $0.reason == .screenLocked }.map(\.id)) : []
        return holdEnded("the screen is unlocked: desktop reminders held meanwhile go out", now: now)
    }

    /// The decision made in a round: what it holds while the screen is locked is held for the
    /// lock (unless the server is paused too); and in the first round after it unlocked, what
    /// waited is gathered into one summary.
    mutating func heldForScreenLock(_ decision: inout Decision) {
        if locked != nil, paused[.desktop] == nil {
            held = held.map { $0.id.channel == .desktop ? Hold($0.id, .screenLocked) : $0 }
        }
        guard !awayHeld.isEmpty else { return }
        decision = decision.gatheringAway(awayHeld)
        awayHeld = []
    }

    /// The channels whose reminders are held, and since when, as `next` and `preview` are told:
    /// a paused server's, and the desktop while the screen is locked.
    var pausedOrLocked: [Channel: Instant] {
        guard let locked, paused[.desktop] == nil else { return paused }
        return paused.merging([.desktop: locked]) { first, _ in first }
    }
}
