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

    @Test(
        "a phone's files through the server: Apple's snooze (RELATED-TO without RELTYPE) and Thunderbird's completed instance are read in B as the phone means them; Done in B on the next instance reaches the phone completed",
        arguments: CalDAV.Server.allCases
    )
    func phoneBothWays(server: CalDAV.Server) throws {
        let caldav = try CalDAV(folder: folder, server: server)
        let phone = try caldav.home("phone", in: folder), vdirB = try caldav.home("B", in: folder)
        // The phone's calendar app wrote these (real files from the clients' own test data).
        let clients = Repository.root.appendingPathComponent("Tests/DawnletSystemTests/Corpus/clients")
        for name in ["apple_snoozed.ics", "thunderbird_completed_instance.ics"] {
            try FileManager.default.copyItem(atPath: clients.appendingPathComponent(name).path, toPath: "\(phone)/\(name)")
        }
        try caldav.sync("phone", in: folder)
        try caldav.sync("B", in: folder)

        let (dbB, configB) = (folder.path("B.sqlite"), folder.path("B.json5"))
        try CLIProcess.createDatabase(dbB, began: "2020-01-01T00:00:00Z")
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"home\", path: \"\(vdirB)\", readOnly: false } ] }"
            .write(toFile: configB, atomically: true, encoding: .utf8)
        func keys(from: String, to: String) throws -> [String] {
            let preview = try CLIProcess.run(["--db", dbB, "--config", configB, "preview", "--from", from, "--to", to, "--json"])
            let reminders = (try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
            return reminders.compactMap { $0["key"] as? String }
        }
        // Apple: the 15:45 alarm snoozed to 15:52:32 (UTC 14:52:32): that, and not the alarm it snoozed.
        let apple = try keys(from: "2026-03-15T00:00", to: "2026-03-16T00:00").filter { $0.contains("6C1A6A5E") }
        #expect(apple == ["ics:home:6C1A6A5E-3B0F-4D6B-9D55-1F3A9E0C2B71:alarm:2026-03-15T14:52:32"], "\(apple)")
        // Thunderbird: the 20th's instance completed on its override; the 21st's and later still remind.
        let task = "ics:home:e0600bbe-b9d0-ba48-80b0-998409625d03"
        let due = try keys(from: "2020-12-20T00:00", to: "2020-12-23T00:00").filter { $0.hasPrefix(task) }
        #expect(due == ["\(task):20201221T230000Z:10m", "\(task):20201222T230000Z:10m"], "\(due)")

        // Done in B on the 21st's, from the terminal: the phone's file has it completed after a sync.
        let done = try CLIProcess.run(["--db", dbB, "--config", configB, "--now", "2020-12-21T22:00Z", "reminder", "done", "\(task):20201221T230000Z"])
        #expect(done.status == 0 && done.stdout.hasPrefix("completed in "), "\(done.stdout)\(done.stderr)")
        try caldav.sync("B", in: folder)
        try caldav.sync("phone", in: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: phone)
        let onPhone = names.compactMap { try? String(contentsOfFile: "\(phone)/\($0)", encoding: .utf8) }.first { $0.contains("e0600bbe") } ?? ""
        let lines = onPhone.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }).map(String.init)
        #expect(lines.contains("RECURRENCE-ID:20201221T230000Z") && lines.filter { $0 == "STATUS:COMPLETED" }.count == 2, "\(onPhone)")
        #expect(try keys(from: "2020-12-20T00:00", to: "2020-12-23T00:00").filter { $0.hasPrefix(task) } == ["\(task):20201222T230000Z:10m"])
    }

    @Test(
        "two homes: A's todo deleted in B (its file removed there, as a calendar app deletes it) is deleted in A after a sync, listed by deleted; restored in A, it is in B again after the next",
        arguments: CalDAV.Server.allCases
    )
    func deletedElsewhereAcrossHomes(server: CalDAV.Server) throws {
        let caldav = try CalDAV(folder: folder, server: server)
        let vdirA = try caldav.home("A", in: folder), vdirB = try caldav.home("B", in: folder)
        for n in 1...5 { try cli("todo", "add", "Task \(n)", "--due", berlin(86_400, "yyyy-MM-dd") + "T1\(n):00") }
        try cli("export", "--to", vdirA)
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        // In B, the file that holds A's todo 2 is deleted.
        let names = try FileManager.default.contentsOfDirectory(atPath: vdirB)
        let two = try #require(names.first { (try? String(contentsOfFile: "\(vdirB)/\($0)", encoding: .utf8))?.contains("-todo-2@dawnlet-remind") == true })
        try FileManager.default.removeItem(atPath: "\(vdirB)/\(two)")
        try caldav.sync("B", in: folder)
        try caldav.sync("A", in: folder)

        let pass = try cli("export", "--to", vdirA)
        #expect(pass.stderr.contains("todo 2: its file was deleted on another device: deleted here"), "\(pass.stderr)")
        #expect(!(try cli("todo", "list").stdout.contains("Task 2")))
        #expect(try cli("deleted").stdout.contains("todo #2  Task 2"))
        #expect(try cli("todo", "restore", "2").stdout == "todo 2 restored: Task 2\n")
        try cli("export", "--to", vdirA)
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        let again = try FileManager.default.contentsOfDirectory(atPath: vdirB).filter {
            (try? String(contentsOfFile: "\(vdirB)/\($0)", encoding: .utf8))?.contains("-todo-2@dawnlet-remind") == true
        }
        #expect(again.count == 1, "\(again)")
    }
}
