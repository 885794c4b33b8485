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
    }
}
