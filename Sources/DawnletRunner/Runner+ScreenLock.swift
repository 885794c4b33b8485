import DawnletCore
import DawnletSystem

extension Runner {
    /// Follows the session's screen savers and logind (`ScreenLock`) on the loop: the core is told
    /// when the screen locks and unlocks. Only where desktop reminders go to a real server. Without
    /// a session bus there is nothing to follow and nothing is held for it (`doctor` says so; the
    /// log does not, as a serve without a desktop is common).
    func watchScreenLock() {
        guard channels is LoopChannels, let lock = try? ScreenLock(on: loop, changed: { [unowned self] locked in self.send(.screenLocked(locked)) })
        else { return }
        screenLock = lock
        // Locked as serve starts: held from its first plan on.
        if lock.isLocked { send(.screenLocked(true)) }
    }
}
