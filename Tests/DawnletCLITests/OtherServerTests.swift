import DawnletTestSupport
import Foundation
import Testing

/// serve against mako, SwayNotificationCenter and xfce4-notifyd, each real on a bus of its own
/// (`OtherDesktop`): shown, held while its Do Not Disturb is on and said so by `preview`, sent when
/// it ends. On the real clock, as the dunst tests (sd-bus does not run under libfaketime).
///
/// GNOME's case runs a real dconf-service but a stand-in for GNOME Shell's notification service (it
/// says it is gnome-shell): GNOME Shell itself is tested elsewhere.
///
/// How a button is pressed from outside, as a person would: mako's with `makoctl invoke`.
/// xfce4-notifyd's buttons are only pixels on its window: found there and clicked (xdotool).
/// swaync 0.7.3 has no method that invokes an action, on its bus (org.erikreider.swaync.cc:
/// SetVisibility, CloseNotification, SetDnd and the like; on org.freedesktop.Notifications,
/// ManuallyCloseNotification and HideLatestNotification besides the standard ones) or in
/// swaync-client (the panel, Do Not Disturb, closing): its control center is opened
/// (SetVisibility) and the key 1, its first action's, typed on a virtual keyboard (wtype) under
/// the headless sway.
extension ServeTests {
    /// `preview` (or another command) on the real clock, seeing what serve publishes.
    func published(_ runtime: String, _ arguments: String...) throws -> String {
        let result = try CLIProcess.run(["--db", db, "--config", config] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// Runs `arguments` until its output holds `text` (serve publishes as it goes); the last output.
    func waitForPublished(_ text: String, _ runtime: String, _ arguments: String..., seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var output = try CLIProcess.run(["--db", db, "--config", config] + arguments, environment: ["XDG_RUNTIME_DIR": runtime]).stdout
        while !output.contains(text) && Date() < deadline {
            usleep(50_000)
            output = try CLIProcess.run(["--db", db, "--config", config] + arguments, environment: ["XDG_RUNTIME_DIR": runtime]).stdout
        }
        return output
    }

    func runtimeFolder() throws -> String {
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return runtime
    }

    @Test(
        "mako, swaync, xfce4-notifyd, GNOME (dconf): Do Not Disturb on, the reminder due is held and preview says so; off, it goes out and is shown, recorded delivered once",
        arguments: OtherDesktop.Server.allCases)
    func doNotDisturbHeldThenSent(_ kind: OtherDesktop.Server) throws {
        let session = try OtherDesktop(kind)
        try session.setDoNotDisturb(true)
        // A late todo asks for critical urgency: held only when critical ones do not pass.
        try writeConfig("", channels: "desktop: { fallback: null, criticalPassesDoNotDisturb: false }")
        let runtime = try runtimeFolder()
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        let held = try waitForPublished("[held: Do Not Disturb]", runtime, "preview")
        #expect(held.contains("Stretch  → desktop  [held: Do Not Disturb]\n"), "\(held)")
        #expect(try published(runtime, "next").contains("  todo #1  Stretch  (held: Do Not Disturb)\n"))
        #expect(session.count() == 0, "held, not shown")

        try session.setDoNotDisturb(false)
        if kind == .mako {
            // mako says nothing when its mode changes: the next reminder due, or a command that
            // writes (this one), has serve ask it again.
            try cli("todo", "add", "Later", "--due", "tomorrow 09:00")
        }
        #expect(session.waitForCount(1, seconds: 10) == 1, "shown once Do Not Disturb ended")
        if kind == .mako {
            let shown = try #require(try session.makoList().first)
            #expect(shown.summary.contains("Stretch"), "\(shown)")
            #expect(Set(shown.actions.keys).isSuperset(of: ["done", "skip"]), "its actions: \(shown.actions)")
        }
        let sent = try waitForPublished("Stretch  → desktop  [delivered on desktop", runtime, "preview", "--all", "--days", "1")
        #expect(sent.contains("Stretch  → desktop  [delivered on desktop"), "\(sent)")
        #expect(!sent.contains("held"), "\(sent)")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("Do Not Disturb is on: desktop reminders are held until it ends"), "\(log)")
        #expect(log.contains("Do Not Disturb ended: desktop reminders held meanwhile go out"), "\(log)")
        #expect(log.components(separatedBy: "delivered todo:1:").count == 2, "\(log)")
        #expect(lines().isEmpty, "no command ran")
    }

    @Test("mako: Do Not Disturb ended with nothing said, what it held goes out when the next reminder comes due (up to a minute and a quarter)")
    func makoHeldUntilNextDue() throws {
        let session = try OtherDesktop(.mako)
        try session.setDoNotDisturb(true)
        try writeConfig("", channels: "desktop: { fallback: null, criticalPassesDoNotDisturb: false }")
        let runtime = try runtimeFolder()
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        // The next whole minute at least 15 s away: due after Stretch is held.
        let toBoundary = 60 - Int(Date().timeIntervalSince1970) % 60
        let next = berlin(Double(toBoundary < 15 ? toBoundary + 60 : toBoundary) + 1, "yyyy-MM-dd'T'HH:mm")
        try cli("--now", threeMinutesAgo(), "todo", "add", "Walk", "--due", next)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(try waitForPublished("[held: Do Not Disturb]", runtime, "preview").contains("Stretch  → desktop  [held: Do Not Disturb]"))
        try session.setDoNotDisturb(false)
        // mako says nothing: Stretch waits for Walk's time, when serve asks again.
        #expect(session.count() == 0, "\(server.logSoFar())")
        #expect(session.waitForCount(2, seconds: 80) == 2, "both out at Walk's time")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.components(separatedBy: "delivered todo:").count == 3, "\(log)")
    }

    /// A todo's reminder shown on `kind`, Done pressed there by `press`: the todo is done, the
    /// answer recorded once, and the notification closed.
    func doneOnce(_ kind: OtherDesktop.Server, press: (OtherDesktop) throws -> Void) throws {
        let session = try OtherDesktop(kind)
        try writeConfig("", channels: "desktop: { fallback: null }")
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Water plants", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForCount(1, seconds: 10) == 1, "\(server.logSoFar())")
        try press(session)
        #expect(try waitForTodoStatus("done", on: day, seconds: 10) == "done")
        #expect(session.waitForCount(0, seconds: 10) == 0, "closed once answered")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.components(separatedBy: "done: todo:1:").count == 2, "answered once: \(log)")
    }

    @Test("mako: Done pressed (makoctl invoke) marks the todo done once and closes the notification")
    func makoDone() throws {
        try doneOnce(.mako) { session in
            let shown = try #require(try session.makoList().first)
            #expect(shown.actions["done"] != nil, "\(shown.actions)")
            try session.invoke(shown.id, "done")
        }
    }

    @Test("swaync: Done pressed in its control center (the key 1, typed with wtype) marks the todo done once and closes the notification")
    func swayncDone() throws {
        try doneOnce(.swaync) { try $0.pressFirstAction() }
    }

    @Test("xfce4-notifyd: Done clicked on its window (xdotool) marks the todo done once and closes the notification")
    func xfceDone() throws {
        try doneOnce(.xfce) { session in
            // The first three of a todo's actions, Done first (Done, Skip, Snooze 10m): a button each.
            #expect(waitUntil { ((try? session.xfceButtons()) ?? []).count == 3 }, "its buttons: \((try? session.xfceButtons()) ?? [])")
            try session.click(button: 0)
        }
    }

    @Test(
        "mako, swaync, xfce4-notifyd, GNOME (a stand-in): a reminder answered elsewhere (todo done in a terminal) is closed on screen",
        arguments: OtherDesktop.Server.allCases)
    func answeredElsewhereClosed(_ kind: OtherDesktop.Server) throws {
        let session = try OtherDesktop(kind)
        try writeConfig("", channels: "desktop: { fallback: null }")
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call mum", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForCount(1, seconds: 10) == 1)
        try cli("todo", "done", "1")
        #expect(try todoStatus(on: day) == "done")
        #expect(session.waitForCount(0, seconds: 10) == 0, "closed on screen")
        let (status, _) = try server.stop()
        #expect(status == 0)
    }

    @Test(
        "mako, swaync, xfce4-notifyd, GNOME (a stand-in): a nag's return replaces its notification: still one on screen",
        arguments: OtherDesktop.Server.allCases)
    func nagReplaces(_ kind: OtherDesktop.Server) throws {
        let session = try OtherDesktop(kind)
        try writeConfig("nag: \"5s\",", channels: "desktop: { fallback: null }")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Take pills", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForCount(1, seconds: 10) == 1)
        #expect(server.waitForLog(", replacing ", seconds: 15), "\(server.logSoFar())")
        #expect(session.count() == 1, "replaced, not stacked")
        if kind == .mako {
            let shown = try session.makoList()
            #expect(shown.count == 1 && shown[0].summary.contains("Take pills"), "\(shown.map(\.summary))")
        }
        let (status, _) = try server.stop()
        #expect(status == 0)
    }

    @Test("swaync: Do Not Disturb on with whilePaused \"fallback\": the reminder goes through the fallback command, saying why")
    func doNotDisturbFallback() throws {
        let session = try OtherDesktop(.swaync)
        try session.setDoNotDisturb(true)
        try writeConfig("", channels: "desktop: { fallback: \"command\", whilePaused: \"fallback\", criticalPassesDoNotDisturb: false }")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        let deadline = Date().addingTimeInterval(10)
        while lines().isEmpty && Date() < deadline { usleep(50_000) }
        #expect(lines().count == 1 && lines().first?.contains("Stretch") == true, "\(lines())")
        #expect(session.count() == 0, "not shown on the desktop")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("the notification server's Do Not Disturb is on; todo:1:"), "\(log)")
    }

    @Test("swaync: with Do Not Disturb on, a late todo (critical) goes out all the same by default")
    func criticalPassesDoNotDisturb() throws {
        let session = try OtherDesktop(.swaync)
        try session.setDoNotDisturb(true)
        try writeConfig("", channels: "desktop: { fallback: null }")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Pay rent", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(server.waitForLog("delivered todo:1:", seconds: 10), "\(server.logSoFar())")
        #expect(session.count() == 1)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("Do Not Disturb is on"), "learned, and let it through: \(log)")
        #expect(log.components(separatedBy: "delivered todo:1:").count == 2, "\(log)")
    }

    @Test("swaync: while Do Not Disturb holds a reminder, serve does not wake (voluntary context switches over 20 s)")
    func doNotDisturbIdle() throws {
        let session = try OtherDesktop(.swaync)
        try session.setDoNotDisturb(true)
        try writeConfig("", channels: "desktop: { fallback: null, criticalPassesDoNotDisturb: false }")
        let runtime = try runtimeFolder()
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(try waitForPublished("[held: Do Not Disturb]", runtime, "preview").contains("[held: Do Not Disturb]"))
        let pid = try server.runnerPID()
        // Let what the start and the hold set going end (the state file written, the plan logged).
        usleep(500_000)
        let before = voluntarySwitches(pid)
        usleep(20_000_000)
        let wakes = voluntarySwitches(pid) - before
        print("serve, Do Not Disturb on with a reminder held: \(wakes) wake-ups in 20 s")
        #expect(wakes == 0, "no timer runs while Do Not Disturb holds: \(wakes) wake-ups")
        try session.setDoNotDisturb(false)
        #expect(session.waitForCount(1, seconds: 10) == 1)
        let (status, _) = try server.stop()
        #expect(status == 0)
    }

    @Test("doctor says how the running server's Do Not Disturb is learned", arguments: OtherDesktop.Server.allCases)
    func doctorSaysDoNotDisturb(_ kind: OtherDesktop.Server) throws {
        let session = try OtherDesktop(kind)
        try writeConfig("", channels: "desktop: { fallback: null }")
        let result = try CLIProcess.run(["--db", db, "--config", config, "doctor"], environment: session.environment)
        let words = [
            "mako": "mako's do-not-disturb mode", "swaync": "swaync's GetDnd, then its OnDndToggle signal", "xfce": "xfconf's /do-not-disturb",
            "gnome": "GNOME's show-banners setting, read from the dconf user database",
        ]
        let line = result.stdout.split(separator: "\n").first { $0.contains("do not disturb") }
        #expect(line?.contains("learned from " + words[kind.rawValue]!) == true, "\(result.stdout)")
    }
}
