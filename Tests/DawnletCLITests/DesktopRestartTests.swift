import DawnletTestSupport
import Foundation
import Testing

/// Notifications outlive the process that posted them (a restart, an upgrade, a crash): a
/// button pressed after `serve` started again is still an answer, recorded once.
extension ServeTests {
    /// Which process the delivery log says posted todo 1's notification now shown (`PID:START`).
    func postedBy() throws -> String {
        let script =
            "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(\"SELECT posted_by FROM deliveries WHERE key LIKE 'todo:1:%'\").fetchone(); print(r[0] if r and r[0] else '')"
        return try runTool("/usr/bin/python3", ["-c", script, db], environment: [:]).1.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Serve posts todo 1's notification, stops, starts again and takes it over; then `press`
    /// answers it. Returns the first and second serve's logs and the notification's id.
    func doneAfterRestart(_ session: some NotificationSession, press: () throws -> Void) throws -> (before: String, after: String, id: String) {
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call the plumber", "--due", due)
        let first = try Server(db: db, config: config, start: nil, environment: session.environment)
        let firstPID = try first.runnerPID()
        #expect(waitUntil { (try? postedBy())?.hasPrefix("\(firstPID):") == true }, "the first serve posted nothing")
        let (status, before) = try first.stop()
        #expect(status == 0, "\(before)")
        let id = try #require(before.firstMatch(of: /: notification (\d+)\n/).map { String($0.1) }, "\(before)")

        let second = try Server(db: db, config: config, start: nil, environment: session.environment)
        let secondPID = try second.runnerPID()
        #expect(waitUntil { (try? postedBy())?.hasPrefix("\(secondPID):") == true }, "not taken over")
        try press()
        #expect(try waitForTodoStatus("done", on: day, seconds: 10) == "done")
        let (code, after) = try second.stop()
        #expect(code == 0, "\(after)")
        #expect(after.contains("notification \(id) taken over from the serve before this one: todo:1:\(day):0m"), "\(after)")
        #expect(after.components(separatedBy: "done: todo:1:\(day):0m (notification ").count - 1 == 1, "answered once:\n\(after)")
        #expect(!after.contains("delivered todo:1:"), "not delivered again:\n\(after)")
        return (before, after, id)
    }

    @Test("desktop, dunst: a notification posted before a restart is taken over; Done pressed after the restart marks the todo done, once")
    func dunstDoneAfterRestart() throws {
        let session = try DesktopSession(notificationServer: true)
        _ = try doneAfterRestart(session) {
            #expect(session.displayed() == 1, "one notification, replaced in place")
            try session.invoke("Done")
        }
        #expect(waitUntil { session.displayed() == 0 }, "closed by the action")
    }

    @Test("desktop, GNOME's notification-daemon: Done clicked after a restart marks the todo done, once")
    func gnomeDoneAfterRestart() throws {
        let session = try DesktopSession(server: .gnome)
        _ = try doneAfterRestart(session) {
            #expect(waitUntil { ((try? session.buttons()) ?? []).count == 3 }, "the notification's buttons")
            try session.click(button: 0)
        }
    }

    @Test("desktop, mako: Done pressed (makoctl invoke) after a restart marks the todo done, once, and closes the notification")
    func makoDoneAfterRestart() throws {
        // mako broadcasts ActionInvoked: the serve started again hears a press on its predecessor's notification.
        let session = try OtherDesktop(.mako)
        _ = try doneAfterRestart(session) {
            let shown = try session.makoList()
            #expect(shown.count == 1, "one notification, replaced in place: \(shown.map(\.summary))")
            let first = try #require(shown.first)
            try session.invoke(first.id, "done")
        }
        #expect(session.waitForCount(0, seconds: 10) == 0, "closed by the action")
    }

    @Test("desktop, xfce4-notifyd: Done clicked on its window (xdotool) after a restart marks the todo done, once, and closes the notification")
    func xfceDoneAfterRestart() throws {
        // xfce4-notifyd's ActionInvoked goes to the whole bus: the serve started again hears a click on its predecessor's notification.
        let session = try OtherDesktop(.xfce)
        _ = try doneAfterRestart(session) {
            #expect(session.count() == 1, "one notification, replaced in place")
            // Done, Skip, Snooze 10m: a button each, Done first.
            #expect(waitUntil { ((try? session.xfceButtons()) ?? []).count == 3 }, "its buttons: \((try? session.xfceButtons()) ?? [])")
            try session.click(button: 0)
        }
        #expect(session.waitForCount(0, seconds: 10) == 0, "closed by the action")
    }

    @Test("desktop, swaync: Done pressed in its control center (the key 1) after a restart marks the todo done, once, and closes the notification")
    func swayncDoneAfterRestart() throws {
        // swaync's ActionInvoked goes to the whole bus, as mako's.
        let session = try OtherDesktop(.swaync)
        _ = try doneAfterRestart(session) {
            #expect(session.count() == 1, "one notification, replaced in place")
            try session.pressFirstAction()
        }
        #expect(session.waitForCount(0, seconds: 10) == 0, "closed by the action")
    }
}
