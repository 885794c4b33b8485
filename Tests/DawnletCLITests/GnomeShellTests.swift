import DawnletTestSupport
import Foundation
import Testing

/// The desktop channel against GNOME Shell 43 (headless, on private buses): what its banner
/// shows, an action pressed as its button would (org.gnome.Shell.Eval), an answer given in a
/// terminal closing the notification, a nag replacing it, and a press after `serve` restarted.
/// GNOME sends ActionInvoked and NotificationClosed to the notification's sender only, as dunst does.
extension ServeTests {
    /// Waits until GNOME's tray holds `count` notifications; what it holds then.
    func gnomeNotifications(_ session: GnomeShellSession, count: Int, seconds: Double = 10) throws -> [[String: Any]] {
        var shown: [[String: Any]] = []
        _ = waitUntil(seconds: seconds) {
            shown = (try? session.notifications()) ?? []
            return shown.count == count
        }
        return shown
    }

    @Test(
        "GNOME Shell: a reminder shows with the three actions its banner holds, the answers first; Done pressed marks the todo done, once, and closes it"
    )
    func gnomeShellDone() throws {
        let session = try GnomeShellSession()
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Water the plants", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        let shown = try #require(try gnomeNotifications(session, count: 1).first, "\(server.logSoFar())")
        #expect(shown["title"] as? String == "Water the plants (late)", "\(shown)")
        // Done, Skip and the first snooze: the fourth (Snooze 1h) and the rest are not sent.
        #expect(shown["actions"] as? [String] == ["Done", "Skip", "Snooze 10m"], "\(shown)")
        try session.press("Done")
        #expect(try waitForTodoStatus("done", on: day, seconds: 10) == "done")
        #expect(try gnomeNotifications(session, count: 0).isEmpty, "closed after the action")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.components(separatedBy: "done: todo:1:\(day):0m (notification ").count - 1 == 1, "answered once:\n\(log)")
    }

    @Test("GNOME Shell: a reminder answered in a terminal has its notification closed on screen")
    func gnomeShellAnsweredElsewhere() throws {
        let session = try GnomeShellSession()
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call the bank", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(try gnomeNotifications(session, count: 1).count == 1, "\(server.logSoFar())")
        try cli("reminder", "done", "todo:1:\(day):0m")
        #expect(server.waitForLog("answered elsewhere"), "\(server.logSoFar())")
        #expect(try gnomeNotifications(session, count: 0).isEmpty, "closed on screen: \((try? session.notifications()) ?? [])\n\(server.logSoFar())")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(!log.contains("done: todo:1:\(day):0m (notification "), "not answered a second time:\n\(log)")
    }

    @Test("GNOME Shell: a nag brings an unanswered reminder back, replacing its notification (\"(again)\") rather than stacking")
    func gnomeShellNag() throws {
        let session = try GnomeShellSession()
        try writeConfig("nagFor: \"10s\",")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due, "--nag", "5s")
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(try gnomeNotifications(session, count: 1).count == 1, "\(server.logSoFar())")
        _ = try waitForOutput("reminder", "list", "--json", containing: #""repeats":2"#, seconds: 20)
        let shown = try session.notifications()
        #expect(shown.count == 1, "replaced, not stacked: \(shown)")
        #expect(shown.first?["title"] as? String == "Stretch (again)", "\(shown)")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        let first = try #require(log.firstMatch(of: /notification (\d+)\n/)?.1)
        #expect(log.components(separatedBy: ", replacing \(first)\n").count - 1 == 2, "\(log)")
    }

    @Test("GNOME Shell: a notification posted before a restart is taken over; Done pressed after the restart marks the todo done, once")
    func gnomeShellDoneAfterRestart() throws {
        let session = try GnomeShellSession()
        _ = try doneAfterRestart(session) {
            #expect(try gnomeNotifications(session, count: 1).count == 1, "one notification, replaced in place: \((try? session.notifications()) ?? [])")
            try session.press("Done")
        }
        #expect(try gnomeNotifications(session, count: 0).isEmpty, "closed after the action")
    }

    @Test(
        "GNOME Shell (dconf): show-banners false, the reminder due is held and preview and next say so; true, it goes out and GNOME Shell has it, recorded delivered once"
    )
    func gnomeShellDoNotDisturb() throws {
        let session = try GnomeShellSession(settings: .dconf)
        try session.setDoNotDisturb(true)
        // GNOME Shell reads the database serve reads.
        #expect(waitUntil { (try? session.showsBanners()) == "false" }, "GNOME Shell does not read show-banners from dconf")
        // A late todo asks for critical urgency: held only when critical ones do not pass.
        try writeConfig("", channels: "desktop: { fallback: null, criticalPassesDoNotDisturb: false }")
        let runtime = try runtimeFolder()
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        let held = try waitForPublished("[held: Do Not Disturb]", runtime, "preview")
        #expect(held.contains("Stretch  → desktop  [held: Do Not Disturb]\n"), "\(held)\n\(server.logSoFar())")
        #expect(try published(runtime, "next").contains("  todo #1  Stretch  (held: Do Not Disturb)\n"))
        #expect(try session.notifications().isEmpty, "held, not sent")

        try session.setDoNotDisturb(false)
        #expect(waitUntil { (try? session.showsBanners()) == "true" })
        let shown = try gnomeNotifications(session, count: 1)
        #expect(shown.first?["title"] as? String == "Stretch (late)", "\(shown)\n\(server.logSoFar())")
        let sent = try waitForPublished("Stretch  → desktop  [delivered on desktop", runtime, "preview", "--all", "--days", "1")
        #expect(sent.contains("Stretch  → desktop  [delivered on desktop") && !sent.contains("held"), "\(sent)")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.contains("Do Not Disturb is on: desktop reminders are held until it ends"), "\(log)")
        #expect(log.contains("Do Not Disturb ended: desktop reminders held meanwhile go out"), "\(log)")
        #expect(log.components(separatedBy: "delivered todo:1:").count == 2, "\(log)")
    }

    @Test(
        "doctor names the server, its version and capabilities, and notes what cannot work there: GNOME Shell shows three of a todo's six actions; dunst plays no sound"
    )
    func doctorOnServers() throws {
        let gnome = try GnomeShellSession()
        let doctor = try CLIProcess.run(["--db", db, "--config", config, "doctor"], environment: gnome.environment)
        let lines = doctor.stdout.split(separator: "\n").filter { $0.contains("desktop server: ") }
        #expect(
            lines.first?.hasPrefix("ok   desktop server: gnome-shell 43.") == true
                && lines.first?.hasSuffix(
                    ": shows 3 actions, pressed by buttons on its banner, at most three; capabilities: actions, body, body-markup, icon-static, persistence, sound"
                )
                    == true,
            "\(doctor.stdout)")
        #expect(
            lines.dropFirst().map(String.init) == [
                "note desktop server: gnome-shell shows 3 of a reminder's 6 actions (Done, Skip, Snooze 10m): Snooze 1h, Until tomorrow 09:00, Until 15m before start only from a terminal (dawnlet-remind reminder …)"
            ], "\(doctor.stdout)")

        #expect(
            doctor.stdout.contains(
                "ok   screen lock: followed through org.gnome.ScreenSaver (unlocked): desktop reminders are held while it is locked\n"),
            "\(doctor.stdout)")

        try writeConfig("", channels: "desktop: { sound: \"bell\" }")
        let dunst = try DesktopSession(notificationServer: true)
        let second = try CLIProcess.run(["--db", db, "--config", config, "doctor"], environment: dunst.environment)
        let notes = second.stdout.split(separator: "\n").filter { $0.contains("desktop server: ") }.map(String.init)
        #expect(
            notes.first?.contains("ok   desktop server: dunst ") == true && notes.first?.contains(": shows every action, pressed by its context menu") == true,
            "\(second.stdout)")
        #expect(
            notes.dropFirst().map { $0 } == ["note desktop server: dunst has no sound capability: the sounds set in the config are not played"],
            "\(second.stdout)")
        #expect(
            second.stdout.contains("note screen lock: no screen saver or logind session answers: desktop reminders go out whether it is locked or not\n"),
            "\(second.stdout)")
    }
}
