import DawnletTestSupport
import Foundation
import Testing

/// Done and Skip made on another machine, from its terminal, are done and skipped at home: B
/// answers A's todos and event by the keys B's `todo list` shows (no reminder of them went out in
/// B), writes them into A's files, and after a sync A's own items are done and skipped there, and B
/// lists them no more.
extension ServeTests {
    @Test(
        "two homes, from the terminal: in B, reminder done|skip by the key todo list shows completes A's todo, one instance of A's daily todo and skips one of A's daily event; after a sync A has them done and skipped, and B lists them no more",
        arguments: CalDAV.Server.allCases
    )
    func doneElsewhereIsDone(server: CalDAV.Server) throws {
        let caldav = try CalDAV(folder: folder, server: server)
        let vdirA = try caldav.home("A", in: folder), vdirB = try caldav.home("B", in: folder)
        let tomorrow = berlin(86_400, "yyyy-MM-dd"), dayAfter = berlin(2 * 86_400, "yyyy-MM-dd")
        try cli("todo", "add", "Call the plumber", "--due", tomorrow + "T10:00")
        try cli("todo", "add", "Pills", "--due", tomorrow + "T09:00", "--every", "daily")
        try cli("event", "add", "Standup", "--start", tomorrow + "T09:30", "--every", "daily")
        try cli("export", "--to", vdirA)
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)

        let (dbB, configB) = (folder.path("B.sqlite"), folder.path("B.json5"))
        try CLIProcess.createDatabase(dbB)
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"home\", path: \"\(vdirB)\", readOnly: false } ] }"
            .write(toFile: configB, atomically: true, encoding: .utf8)
        func b(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", dbB, "--config", configB] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        // B's list of calendar todos: A's two, each with the key that answers it.
        let listed = try JSONSerialization.jsonObject(with: Data(try b("todo", "list", "--json").utf8)) as? [String: Any]
        let todos = (listed?["calendar_todos"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["title"] as? String ?? ""] = $1["key"] as? String
        }
        let plumber = try #require(todos["Call the plumber"], "\(String(describing: listed))")
        let pills = try #require(todos["Pills"], "\(String(describing: listed))")
        #expect(!plumber.contains(":2026") && pills.hasSuffix(":\(tomorrow.replacingOccurrences(of: "-", with: ""))T080000Z"), "\(todos)")
        #expect(try b("reminder", "done", plumber).hasPrefix("completed in "))
        #expect(try b("reminder", "done", pills).hasPrefix("completed in "))
        // The event by its find key: tomorrow's occurrence, the first from today on.
        let found = try b("find", "Standup")
        let standup = try #require(found.firstMatch(of: /; (ics:home:[^ )]+)/)?.1, "\(found)")
        #expect(try b("reminder", "skip", String(standup)).hasPrefix("skipped (cancelled there) in "))

        // Back in A after a sync: its own todo done, tomorrow's pills done, tomorrow's standup skipped.
        try caldav.sync("B", in: folder)
        try caldav.sync("A", in: folder)
        try cli("export", "--to", vdirA)
        let list = try cli("--color", "never", "todo", "list").stdout
        #expect(list.contains("Call the plumber") && list.contains("[done]") && list.contains("next \(dayAfter)"), "\(list)")
        let day = try cli("today", "--date", tomorrow, "--json").stdout
        let entries = (try JSONSerialization.jsonObject(with: Data(day.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        func status(_ title: String) -> String? { entries.first { $0["title"] as? String == title }?["status"] as? String }
        #expect(status("Pills") == "done" && status("Standup") == "skipped" && status("Call the plumber") == "done", "\(day)")

        // And B, after the next sync, lists none of them for tomorrow.
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        let inB = try b("--color", "never", "todo", "list")
        #expect(!inB.contains("Call the plumber") && !inB.contains(pills), "\(inB)")
        let tomorrowInB = try b("today", "--date", tomorrow, "--json")
        #expect(!tomorrowInB.contains("Standup") && !tomorrowInB.contains("Pills"), "\(tomorrowInB)")
        #expect(try b("today", "--date", dayAfter, "--json").contains("Standup"), "the next day's standup is still on")
    }

    @Test(
        "a calendar reminder on screen here, answered on another machine: once its file says so (acknowledged, a todo completed), serve records it answered there, takes the notification down and it waits no more"
    )
    func answeredElsewhereTakenDown() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try writeConfig(
            "calendars: [ { name: \"work\", path: \"\(vdir)\", readOnly: false, channels: [\"desktop\"] } ],", channels: "desktop: { snooze: \"10m\" }")
        try cli("--now", threeMinutesAgo(), "missed", "--clear")
        try writeMeeting("meeting", into: vdir)
        let session = try DesktopSession(notificationServer: true)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        #expect(server.waitForLog("delivered ics:work:meeting:alarm:"), "\(server.logSoFar())")

        // Another machine (a database of its own; the same files, as after a sync) says Done.
        let other = folder.path("other.sqlite")
        try CLIProcess.createDatabase(other)
        let done = try CLIProcess.run(["--db", other, "--config", config, "reminder", "done", "ics:work:meeting"])
        #expect(done.status == 0 && done.stdout.hasPrefix("acknowledged in "), "\(done.stdout)\(done.stderr)")
        #expect(waitUntil(seconds: 10) { session.displayed() == 0 }, "the notification is taken down")
        #expect(server.waitForLog("acknowledged on another device"), "\(server.logSoFar())")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.contains("answered elsewhere: ics:work:meeting:alarm:"), "\(log)")
        #expect(try cli("reminder", "list", "--waiting").stdout == "nothing waiting for an answer\n")
    }
}
