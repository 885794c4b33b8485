import DawnletCore
import DawnletSystem

extension Runner {
    /// Follows the session's screen savers (`ScreenLock`) on the loop: the core is told when the
    /// screen locks and unlocks. Only where desktop reminders go to a real server; without a
    /// session bus there is nothing to follow, and nothing is held for it.
    func watchScreenLock() {
        guard channels is LoopChannels else { return }
        do {
            let lock = try ScreenLock(on: loop) { [unowned self] locked in self.send(.screenLocked(locked)) }
            screenLock = lock
            // Locked as serve starts: held from its first plan on.
            if lock.isLocked { send(.screenLocked(true)) }
        } catch {
            log(LogEntry("cannot follow the screen lock: \(error); desktop reminders go out whether it is locked or not", priority: 5))
        }
    }
}
