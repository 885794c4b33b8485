import DawnletTestSupport
import Foundation
import Testing

/// The desktop channel against a real notification server (dunst under Xvfb on a private
/// session bus), and without one. In the runner's serialized suite: these start `serve` too.
///
/// On the real clock, not libfaketime: libfaketime 0.9.10 shifts CLOCK_MONOTONIC timerfds by the
/// fake offset too, and sd-event's "fire now" instant (1 ns) becomes negative, so sd-bus on an
/// sd-event loop fails with EINVAL under it. A todo due two minutes ago goes out (late) at start.
extension ServeTests {
    /// `seconds` from now on Berlin's wall clock, in `format`.
    func berlin(_ seconds: Double, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter.string(from: Date().addingTimeInterval(seconds))
    }

    /// Two minutes ago in Berlin (surely past the runner's 60 s "late" line), as `todo add --due`
    /// takes it, and its date.
    func twoMinutesAgo() -> (due: String, date: String) {
        let due = berlin(-120, "yyyy-MM-dd'T'HH:mm")
        return (due, String(due.prefix(10)))
    }

    /// Three minutes ago in Berlin with its UTC offset, as `--now` takes it: the moment a test's items are made, so
    /// that a reminder due two minutes ago is of a time after its item existed (and after the
    /// database began), and goes out late.
    func threeMinutesAgo() -> String { berlin(-180, "yyyy-MM-dd'T'HH:mm:ssxxx") }

    /// The status of the day's first item of a kind (the todo by default), as `today --json` says.
    func todoStatus(on date: String, kind: String = "todo") throws -> String? {
        let result = try CLIProcess.run(["--db", db, "--config", config, "today", "--date", date, "--json"])
        let root = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let items = (root?["items"] as? [[String: Any]]) ?? []
        return items.first { $0["kind"] as? String == kind }?["status"] as? String
    }

    func waitForTodoStatus(_ status: String, on date: String, seconds: Double) throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var now = try todoStatus(on: date)
        while now != status && Date() < deadline {
            usleep(100_000)
            now = try todoStatus(on: date)
        }
        return now
    }

    @Test("desktop: serve's reminder appears on dunst with its text and actions; Done from the notification marks the todo done")
    func desktopDone() throws {
        let session = try DesktopSession(notificationServer: true)
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Pay <b>rent</b> & $(touch x) Überweisung 💶", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        // The artifact to look at: the notification as dunst draws it ("(A)" marks its actions).
        try session.screenshot(to: Repository.root.appendingPathComponent(".build/test-artifacts/desktop-notification.png").path)
        #expect(try todoStatus(on: day) == "open")
        try session.invoke("Done")
        #expect(try waitForTodoStatus("done", on: day, seconds: 10) == "done")
        let (status, log) = try server.stop()
        #expect(status == 0)

        let menu = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        let title = "Pay <b>rent</b> & $(touch x) Überweisung 💶"
        #expect(menu.contains("#Done (\(title) (late)) ["), "\(menu)")
        #expect(menu.contains("#Skip (\(title) (late)) ["), "\(menu)")
        #expect(menu.contains("#Snooze 10m (\(title) (late)) ["), "\(menu)")
        // Closed by the action, it moves to dunst's history.
        var history = try session.history()
        for _ in 0..<50 where history.isEmpty {
            usleep(100_000)
            history = try session.history()
        }
        let shown = try #require(history.first)
        #expect(shown["summary"] as? String == title + " (late)")
        // Due two to three minutes before it went out (late), and says so: not "at its time".
        let body = shown["body"] as? String
        #expect(["Todo due at \(due.suffix(5)) (2m ago)", "Todo due at \(due.suffix(5)) (3m ago)"].contains(body ?? ""), "\(shown)")
        #expect((shown["message"] as? String)?.hasPrefix("URGENT ") == true, "a late todo is critical: \(shown)")
        #expect(shown["appname"] as? String == "Dawnlet")
        #expect(shown["category"] as? String == "x-dawnlet.todo")
        let id = try #require(shown["id"] as? Int)
        #expect(log.contains("delivered todo:1:\(day):0m@desktop [todo \"") && log.contains("] (late): notification \(id)\n"), "\(log)")
        #expect(log.contains("done: todo:1:\(day):0m (notification \(id))"), "\(log)")
        #expect(log.contains("planned (notification action)"), "\(log)")
        #expect(lines().isEmpty, "the fallback was not used")
        #expect(!FileManager.default.fileExists(atPath: "x") && !FileManager.default.fileExists(atPath: folder.path("x")))
    }

    func waitForOutput(_ arguments: String..., containing text: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        func run() throws -> String { try CLIProcess.run(["--db", db, "--config", config] + arguments).stdout }
        var output = try run()
        while !output.contains(text) && Date() < deadline {
            usleep(100_000)
            output = try run()
        }
        return output
    }

    /// A writable vdir with one event whose VALARM fell due two minutes ago, and the config that
    /// routes it to the desktop; the event's file.
    func writableCalendar(snooze: String = "10m") throws -> String {
        let vdir = folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let start = formatter.string(from: Date().addingTimeInterval(300))
        let file = "\(vdir)/meeting.ics"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:meeting@example.org\r\nSUMMARY:Meeting\r\n\
        X-SOMEONE-ELSE:kept\r\nDTSTART:\(start)\r\nBEGIN:VALARM\r\nUID:alarm-1\r\nACTION:DISPLAY\r\nTRIGGER:-PT7M\r\nEND:VALARM\r\n\
        END:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: file, atomically: true, encoding: .utf8)
        try writeConfig(
            "calendars: [ { name: \"work\", path: \"\(vdir)\", readOnly: false, channels: [\"desktop\"] } ],",
            channels: "desktop: { snooze: \"\(snooze)\" }")
        // The database began before the alarm (two minutes ago): its reminder is someone's.
        try cli("--now", threeMinutesAgo(), "missed", "--clear")
        return file
    }

    /// The calendar reminders another device's plan of the same file holds now.
    func otherDevicesReminders() throws -> [String] {
        let other = folder.path("other-device.sqlite")
        try CLIProcess.createDatabase(other)
        let result = try CLIProcess.run(["--db", other, "--config", config, "preview", "--days", "1", "--json"])
        let reminders = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        return reminders.compactMap { $0["key"] as? String }.filter { $0.hasPrefix("ics:") }
    }

    @Test("desktop: Done on a writable calendar's alarm writes ACKNOWLEDGED into its file, and another device's plan no longer has it")
    func desktopCalendarDone() throws {
        let session = try DesktopSession(notificationServer: true)
        let file = try writableCalendar()
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        try session.invoke("Done")
        waitUntil { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("ACKNOWLEDGED:") ?? false }
        let (status, log) = try server.stop()
        #expect(status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\r\nACKNOWLEDGED:") && text.contains("\r\nX-MOZ-LASTACK:") && text.contains("\r\nX-SOMEONE-ELSE:kept\r\n"), "\(text)")
        #expect(log.contains("acknowledged in \(file)"), "\(log)")
        #expect(try otherDevicesReminders().isEmpty, "acknowledged here, so not due there")
    }

    @Test("desktop: Snooze on a writable calendar's alarm writes an RFC 9074 snooze alarm, which fires here, read back from the file")
    func desktopCalendarSnooze() throws {
        let session = try DesktopSession(notificationServer: true)
        let file = try writableCalendar(snooze: "5s")
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        try session.invoke("Snooze")
        waitUntil(seconds: 5) { session.displayed() == 0 }
        #expect(session.waitForDisplayed(1, seconds: 15) == 1, "the snooze alarm read back from the file fires")
        let (status, log) = try server.stop()
        #expect(status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\r\nRELATED-TO;RELTYPE=SNOOZE:alarm-1\r\n") && text.contains("\r\nX-MOZ-SNOOZE-TIME:"), "\(text)")
        #expect(log.contains("snoozed until ") && log.contains(" in \(file)"), "\(log)")
        // Two reminders, each once: the alarm, and the snooze alarm the next plan read from the file.
        let keys = Set(log.matches(of: /ics:work:meeting@example\.org:alarm:[0-9T:-]{19}/).map { String($0.output) })
        #expect(keys.count == 2, "\(keys)\n\(log)")
    }

    @Test("desktop: Snooze fires the reminder again after the snooze, replacing the notification rather than stacking")
    func desktopSnooze() throws {
        let session = try DesktopSession(notificationServer: true)
        try writeConfig("", channels: "desktop: { snooze: \"5s\" }")
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        try session.invoke("Snooze")
        // dunst closes it on the action; five seconds later the snooze shows it again.
        waitUntil(seconds: 5) { session.displayed() == 0 }
        #expect(session.waitForDisplayed(1, seconds: 15) == 1)
        // Shown again once the runner has it recorded: one notification, the first replaced.
        let (status, log) = try stop(server, after: ", replacing ")
        #expect(session.displayed() == 1)
        #expect(status == 0)
        let first = try #require(log.firstMatch(of: /notification (\d+)\n/)?.1)
        #expect(log.contains("snoozed until \(day)T"), "\(log)")
        #expect(log.contains("planned (notification action): next: Stretch (todo:1:\(day):0m)"), "\(log)")
        #expect(log.contains(", replacing \(first)\n"), "\(log)")
        #expect(try todoStatus(on: day) == "open")
    }

    @Test("desktop: a nag brings an unanswered reminder back, replacing its notification (critical, \"(again)\") rather than stacking")
    func desktopNag() throws {
        let session = try DesktopSession(notificationServer: true)
        try writeConfig("nagFor: \"10s\",")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due, "--nag", "5s")
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        // Two returns (at 5 s and 10 s): the delivery log counts them.
        _ = try waitForOutput("reminder", "list", "--json", containing: #""repeats":2"#, seconds: 20)
        #expect(session.displayed() == 1, "replaced, not stacked")
        try session.dunstctl(["close-all"])
        let shown = try session.history()
        #expect(shown.count == 1, "\(shown)")
        #expect(shown.first?["summary"] as? String == "Stretch (again)", "\(shown)")
        #expect((shown.first?["message"] as? String)?.hasPrefix("URGENT") == true, "\(shown)")
        let (status, log) = try server.stop()
        #expect(status == 0)
        let first = try #require(log.firstMatch(of: /notification (\d+)\n/)?.1)
        #expect(log.components(separatedBy: ", replacing \(first)\n").count - 1 == 2, "\(log)")
    }

    @Test("desktop: the snooze presets are offered as actions (a quarter before start only where that is still to come); Snooze 1h counts from the press")
    func desktopSnoozePresets() throws {
        let session = try DesktopSession(notificationServer: true)
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        let pressed = Date()
        try session.invoke("Snooze 1h")
        let listed = try waitForOutput("reminder", "list", "--snoozed", "--json", containing: "\"until\"", seconds: 10)
        let menu = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        for label in ["Done", "Skip", "Snooze 10m", "Snooze 1h", "Until tomorrow 09:00"] { #expect(menu.contains("#\(label) "), "\(menu)") }
        #expect(!menu.contains("before start"), "a todo due now has no quarter before it left: \(menu)")
        let until = try #require(listed.firstMatch(of: /"until":"([^"]+)"/)?.1)
        let back = try #require(ISO8601DateFormatter().date(from: String(until)))
        #expect(abs(back.timeIntervalSince(pressed) - 3_600) < 5, "\(listed)")
        // An event starting in 58 minutes, reminded an hour ahead (two minutes ago): a quarter
        // before its start is still to come, and offered.
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let start = formatter.string(from: Date().addingTimeInterval(58 * 60))
        try cli("--now", threeMinutesAgo(), "event", "add", "Talk", "--start", start, "--remind", "1h")
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        try session.invoke("Until 15m before start")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        let quarterBefore = formatter.string(from: try #require(ISO8601DateFormatter().date(from: start + ":00" + berlin(0, "xxx"))).addingTimeInterval(-900))
        let snoozed = try waitForOutput("reminder", "list", "--snoozed", "--json", containing: "\"until\":\"\(quarterBefore)\"", seconds: 10)
        #expect(snoozed.contains("event:1:"), "\(snoozed)")
        #expect(try server.stop().0 == 0)
    }

    @Test("desktop: while dunst is paused a reminder is held, not recorded delivered; it shows when dunst resumes, learned from its signal")
    func desktopPaused() throws {
        let session = try DesktopSession(notificationServer: true)
        try session.dunstctl(["set-paused", "true"])
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        // Claimed, handed to the desktop, and held there: nothing shown, nothing queued in dunst,
        // nothing delivered (once the runner has said it holds it, as it stays).
        func states() throws -> String {
            let script =
                "import sqlite3,sys; c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro', uri=True); print(','.join(r[0] for r in c.execute('SELECT state FROM deliveries')))"
            return try runTool("/usr/bin/python3", ["-c", script, db], environment: [:]).1.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try waitUntil { try states() == "claimed" }, "never claimed")
        // The hand-over answered: the server said it is paused, and the delivery is held.
        #expect(server.waitForLog("the notification server is paused: desktop reminders are held"), "\(server.logSoFar())")
        #expect(try states() == "claimed")
        let (_, waiting) = try session.dunstctl(["count", "waiting"])
        #expect(session.displayed() == 0 && waiting.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try cli("reminder", "list", "--json").stdout.contains(#""waiting":[]"#))
        try session.dunstctl(["set-paused", "false"])
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        _ = try waitForOutput("reminder", "list", "--json", containing: "Stretch", seconds: 10)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("the notification server is paused: desktop reminders are held until it resumes"), "\(log)")
        #expect(log.contains("the notification server resumed"), "\(log)")
        #expect(log.components(separatedBy: "delivered todo:1:").count == 2, "\(log)")
    }

    @Test("desktop: while dunst is paused, whilePaused: fallback sends a reminder through the command channel, saying why")
    func desktopPausedFallback() throws {
        let session = try DesktopSession(notificationServer: true)
        try writeConfig("", channels: "desktop: { whilePaused: \"fallback\" }")
        try session.dunstctl(["set-paused", "true"])
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(waitForLines(1, seconds: 10).first?.contains("todo:1:") == true)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("the notification server is paused; sent through the command fallback"), "\(log)")
        #expect(session.displayed() == 0)
    }

    @Test(
        "desktop, GNOME's notification-daemon: three buttons (Skip, then the first snooze presets; the rest through reminder snooze), each preset clicked for real with xdotool, counted from the click"
    )
    func gnomePresets() throws {
        let session = try DesktopSession(server: .gnome)
        try writeConfig("", channels: "desktop: { snooze: [\"10m\", \"1h\", \"tomorrow 09:00\"] }")
        // An event reminded ten minutes before it starts, two minutes ago.
        let start = berlin(8 * 60, "yyyy-MM-dd'T'HH:mm")
        try cli("--now", threeMinutesAgo(), "event", "add", "Talk", "--start", start, "--remind", "10m")
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        func snoozedFor(_ key: String, clicking button: Int) throws -> TimeInterval {
            let deadline = Date().addingTimeInterval(10)
            var shown = try session.buttons()
            while shown.count < 3 && Date() < deadline {
                usleep(100_000)
                shown = try session.buttons()
            }
            #expect(shown.count == 3, "\(shown)")
            let clicked = Date()
            try session.click(button: button)
            let listed = try waitForOutput("reminder", "list", "--snoozed", "--json", containing: key, seconds: 10)
            let entry = try #require(listed.components(separatedBy: "},{").first { $0.contains(key) })
            let until = try #require(entry.firstMatch(of: /"until":"([^"]+)"/)?.1)
            return try #require(ISO8601DateFormatter().date(from: String(until))).timeIntervalSince(clicked)
        }
        #expect(abs(try snoozedFor("event:1:", clicking: 1) - 600) < 5)
        // A second, added while serve runs: Snooze 1h.
        try cli("--now", threeMinutesAgo(), "event", "add", "Review", "--start", start, "--remind", "10m")
        #expect(abs(try snoozedFor("event:2:", clicking: 2) - 3_600) < 5)
        #expect(try server.stop().0 == 0)
    }

    @Test("desktop: Skip on an event's notification skips that occurrence; a dismissed notification is recorded as such")
    func desktopSkipAndDismiss() throws {
        let session = try DesktopSession(notificationServer: true)
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "event", "add", "Standup", "--start", due, "--every", "daily", "--remind", "0m")
        try cli("--now", threeMinutesAgo(), "todo", "add", "Water plants", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(2, seconds: 10) == 2)
        // The newest first in dunst's menu: pick the event's Skip by its title.
        try session.invoke("Skip (Standup")
        waitUntil { session.displayed() == 1 }
        try session.dunstctl(["close"])
        let (status, log) = try stop(server, after: "dismissed: todo:1:\(day):0m")
        #expect(status == 0)
        #expect(log.contains("skipped: event:1:\(day):0m"), "\(log)")
        #expect(log.contains("dismissed: todo:1:\(day):0m"), "\(log)")
        #expect(try todoStatus(on: day, kind: "event") == "skipped")
        #expect(try todoStatus(on: day) == "open", "dismissing is not done")
    }

    @Test("desktop: a bus without a notification server falls back to the command channel and records why")
    func desktopWithoutServer() throws {
        let session = try DesktopSession(notificationServer: false)
        let due = twoMinutesAgo().due
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call mum", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(waitForLines(1, seconds: 10).count == 1)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("] (late): desktop: org.freedesktop.DBus.Error.ServiceUnknown"), "\(log)")
        #expect(log.contains("sent through the command fallback"), "\(log)")
        let test = try CLIProcess.run(["--db", db, "--config", config, "notify-test"], environment: session.environment)
        CLIProcess.expectFailure(test, status: 1, mentioning: ["desktop: org.freedesktop.DBus.Error.ServiceUnknown"])
        let doctor = try CLIProcess.run(["--db", db, "--config", config, "doctor"], environment: session.environment)
        #expect(doctor.stdout.contains("note desktop: org.freedesktop.DBus.Error.ServiceUnknown"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("reminders go through the command fallback"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("ok   database: \(db)"), "\(doctor.stdout)")
    }

    @Test("desktop: no bus at all and no fallback: the reminder is recorded failed, with the reason, and nothing crashes")
    func desktopNoBusNoFallback() throws {
        try writeConfig("", channels: "desktop: { fallback: null }")
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        let server = try Server(
            db: db, config: config, start: "2026-12-01 07:59:58",
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path("no-bus"))"])
        let (status, log) = try stop(server, after: "failed todo:1:2026-12-01:0m@desktop")
        #expect(status == 0)
        #expect(log.contains("failed todo:1:2026-12-01:0m@desktop [todo \"") && log.contains("]: desktop: no session bus: "), "\(log)")
        #expect(log.contains("no fallback configured"), "\(log)")
        #expect(lines().isEmpty)
    }
}
