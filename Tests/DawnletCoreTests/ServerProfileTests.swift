import DawnletCore
import Testing

/// What a notification server shows, from its GetServerInformation answer, and what doctor warns of.
@Suite struct ServerProfileTests {
    @Test(
        "servers by name: dunst and mako reach every action, GNOME Shell, KDE, notification-daemon and an unknown one three",
        arguments: [
            (["dunst", "knopwob", "1.9.0", "1.2"], nil), (["mako", "emersion", "1.7", "1.2"], nil), (["gnome-shell", "GNOME", "43.9", "1.2"], 3),
            (["Plasma", "KDE", "5.27", "1.2"], 3), (["notification-daemon", "GNOME", "3.20.0", "1.2"], 3), ([], 3),
        ] as [([String], Int?)])
    func shownActions(information: [String], shown: Int?) {
        #expect(ServerProfile(information: information).shownActions == shown)
    }

    @Test("warnings: a sound where the server has no sound capability; more actions than the server shows, naming those cut")
    func warnings() {
        let gnome = ServerProfile(information: ["gnome-shell", "GNOME", "43.9", "1.2"])
        #expect(gnome.version == "43.9")
        let actions = ["Done", "Skip", "Snooze 10m", "Snooze 1h"]
        #expect(gnome.warnings(capabilities: ["actions", "sound"], soundsSet: true, actions: Array(actions.prefix(3))).isEmpty)
        #expect(
            gnome.warnings(capabilities: ["actions"], soundsSet: true, actions: actions) == [
                "gnome-shell has no sound capability: the sounds set in the config are not played",
                "gnome-shell shows 3 of a reminder's 4 actions (Done, Skip, Snooze 10m): Snooze 1h only from a terminal (dawnlet-remind reminder …)",
            ])
        let dunst = ServerProfile(name: "dunst", version: "1.9.0")
        #expect(dunst.warnings(capabilities: ["actions"], soundsSet: false, actions: actions).isEmpty)
    }
}
