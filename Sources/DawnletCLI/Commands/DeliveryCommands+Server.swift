import DawnletCore
import DawnletSystem

extension DeliveryCommands {
    /// `doctor`'s lines on the notification server that answered: its name and version, what it
    /// can do, how many actions it shows and how they are pressed; and a note for each setting
    /// that cannot work there (`ServerProfile.warnings`); and how serve learns its Do Not Disturb.
    /// - Parameter information: its GetServerInformation answer.
    static func doctorServer(_ information: [String], capabilities: Set<String>, config: Config, _ report: (Bool?, String, String, String) -> Void) {
        let profile = ServerProfile(information: information)
        let shows = profile.shownActions.map { "shows \($0) actions" } ?? "shows every action"
        report(
            true, "desktop server",
            "\(profile.name) \(profile.version): \(shows), pressed by \(profile.pressed); capabilities: \(capabilities.sorted().joined(separator: ", "))", "")
        let sounds =
            config.desktop.sound.values.contains { !$0.isEmpty } || config.lists.byTag.values.contains { !($0.style.sound ?? "").isEmpty }
        // The most one reminder offers: a todo's Done and Skip, then the snooze presets.
        let actions = ["Done", "Skip"] + config.desktop.snooze.map(\.label)
        for warning in profile.warnings(capabilities: capabilities, soundsSet: sounds, actions: actions) { report(nil, "desktop server", warning, "") }
        report(
            true, "do not disturb",
            information.first.map { "learned from " + DoNotDisturb.Source.of(serverName: $0).words } ?? "not known: the server did not say its name", "")
        doctorScreenLock(report)
    }

    /// Which of the screen lock's sources answer, and what they say now: desktop reminders are
    /// held while one says locked.
    static func doctorScreenLock(_ report: (Bool?, String, String, String) -> Void) {
        guard let loop = try? EventLoop(), let lock = try? ScreenLock(on: loop, changed: { _ in }) else {
            return report(nil, "screen lock", "cannot be followed (no session bus): desktop reminders go out whether it is locked or not", "")
        }
        let heard = lock.active.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value ? "locked" : "unlocked"))" }
        guard !heard.isEmpty else {
            return report(nil, "screen lock", "no screen saver or logind session answers: desktop reminders go out whether it is locked or not", "")
        }
        report(true, "screen lock", "followed through \(heard.joined(separator: ", ")): desktop reminders are held while it is locked", "")
    }
}
