import DawnletTestSupport
import Foundation
import Testing

/// Our exported files deleted on another device, and the round trip's leftovers: what a file
/// gone says (deleted here, kept 30 days for `restore`; many gone at once: held, and `doctor`
/// says why), an instance dropped elsewhere while edited here, a stale copy of a file, a kept
/// alarm's words after a rename.
@Suite struct DeletedElsewhereTests {
    let folder: TemporaryFolder
    let db: String
    let out: String
    let config: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("a.sqlite")
        out = folder.path("vdir")
        config = folder.path("config.json5")
        try "{ export: { to: \"\(out)\" } }".write(toFile: config, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: String..., now: String = "2026-12-04T08:00") throws -> CLIResult {
        try CLIProcess.run(["--db", db, "--config", config, "--tz", "Europe/Berlin", "--now", now] + arguments)
    }

    /// The exported file of `kind` `id`.
    func file(_ id: Int, _ kind: String = "todo") throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix("-\(kind)-\(id).ics") })
        return "\(out)/\(name)"
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func titles() throws -> String { try run("todo", "list", "--json").stdout }

    @Test("a reminder waiting for a todo deleted elsewhere waits no more; restored, the todo's reminder waits again")
    func restoreReopens() throws {
        try run("todo", "add", "Call the plumber", "--due", "2026-12-04T08:00").expectSuccess()
        try run("todo", "add", "Another", "--due", "2026-12-05T08:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        // Its reminder went out at 08:00, as serve records it.
        let script =
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at) VALUES ('todo:1:2026-12-04:0m', 'desktop', 'delivered', 'todo', 'Call the plumber', 1796367600, 1796367600, 1796367601)\"); c.commit()"
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, db], environment: [:])
        #expect(status == 0, "\(text)")
        #expect(try run("reminder", "list", "--waiting").stdout.contains("todo:1:2026-12-04:0m"))
        #expect(unlink(try file(1)) == 0)
        try run("export", "--to", out).expectSuccess()
        #expect(try run("reminder", "list", "--waiting").stdout == "nothing waiting for an answer\n")
        let restored = try run("todo", "restore", "1")
        #expect(restored.stdout == "todo 1 restored: Call the plumber\n", "\(restored.stdout)\(restored.stderr)")
        #expect(try run("reminder", "list", "--waiting").stdout.contains("todo:1:2026-12-04:0m"))
    }

    @Test("a file deleted elsewhere deletes its item here; `deleted` lists it with its restore; restore writes it again; after 30 days it is gone")
    func deletedAndRestored() throws {
        for n in 1...5 { try run("todo", "add", "Task \(n)", "--due", "2026-12-1\(n)T10:00").expectSuccess() }
        try run("export", "--to", out).expectSuccess()
        let two = try file(2)
        #expect(unlink(two) == 0)

        let pass = try run("export", "--to", out)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(
            pass.stderr.contains("todo 2: its file was deleted on another device: deleted here (`dawnlet-remind todo restore 2` brings it back)"),
            "\(pass.stderr)")
        #expect(!exists(two), "written again over the deletion")
        #expect(!(try titles()).contains("Task 2"))
        let listed = try run("deleted")
        #expect(listed.stdout.contains("todo #2  Task 2") && listed.stdout.contains("`dawnlet-remind todo restore 2` until 2027-01-03"), "\(listed.stdout)")
        #expect(try run("deleted", "--json").stdout.contains("\"kind\":\"todo\",\"id\":2,\"title\":\"Task 2\""))
        #expect(try run("doctor").stdout.contains("1 deleted on another device in the last 30 days"))

        let restored = try run("todo", "restore", "2")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout == "todo 2 restored: Task 2\n")
        #expect(try String(contentsOfFile: two, encoding: .utf8).contains("SUMMARY:Task 2\r\n"), "its file is not written again")
        #expect(try titles().contains("\"title\":\"Task 2\",\"date\":\"2026-12-12\""))
        #expect(try run("deleted").stdout == "nothing deleted on another device in the last 30 days\n")
        let again = try run("todo", "restore", "2")
        #expect(again.status != 0 && again.stderr.contains("todo 2 was not deleted on another device"), "\(again.stderr)")

        // Deleted again, and 31 days later: no longer listed, and no longer restored.
        #expect(unlink(two) == 0)
        try run("export", "--to", out).expectSuccess()
        #expect(try run("deleted", now: "2027-01-05T08:00").stdout == "nothing deleted on another device in the last 30 days\n")
        let late = try run("todo", "restore", "2", now: "2027-01-05T08:00")
        #expect(late.status != 0 && late.stderr.contains("no todo 2 deleted on another device within the last 30 days"), "\(late.stderr)")
        #expect(!exists(two))
    }

    @Test(
        "many files gone at once are held: nothing deleted, nothing written, doctor says why and what to do; restore writes one; a folder made anew is written whole"
    )
    func manyGoneHeld() throws {
        for n in 1...5 { try run("todo", "add", "Task \(n)", "--due", "2026-12-1\(n)T10:00").expectSuccess() }
        try run("event", "add", "Dentist", "--start", "2026-12-20T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let paths = try (1...4).map { try file($0) }
        for path in paths { #expect(unlink(path) == 0) }

        let pass = try run("export", "--to", out)
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stderr.contains("4 of our 6 files went from \(out) at once (todo 1, todo 2, todo 3, todo 4): held"), "\(pass.stderr)")
        #expect(paths.allSatisfy { !exists($0) }, "written over what looks like an emptied folder")
        for n in 1...5 { #expect(try titles().contains("Task \(n)")) }
        let doctor = try run("doctor")
        #expect(doctor.status != 0)
        #expect(doctor.stdout.contains("FAIL export: 4 of our files went from \(out) at once"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("`dawnlet-remind todo delete 1`") && doctor.stdout.contains("`dawnlet-remind todo restore 4`"), "\(doctor.stdout)")
        #expect(try run("deleted").stdout.contains("todo #3  (its file went from \(out) with many others"))

        // Another pass holds them still; one restored is written, the rest stay held.
        let still = try run("export", "--to", out)
        #expect(still.status == 0 && !still.stderr.contains("deleted here"), "\(still.stderr)")
        #expect(paths.allSatisfy { !exists($0) })
        let restored = try run("todo", "restore", "3")
        #expect(restored.stdout == "todo 3: its file is written again\n", "\(restored.stdout)\(restored.stderr)")
        #expect(exists(paths[2]) && !exists(paths[0]))
        // One back in place (the folder remounted): written as any other again.
        try run("export", "--to", out).expectSuccess()
        #expect(!exists(paths[0]))

        // The folder gone and made again by `export`: a new folder, every file written.
        try FileManager.default.removeItem(atPath: out)
        let fresh = try run("export", "--to", out)
        #expect(fresh.status == 0 && fresh.stdout.hasSuffix("6 files written, 0 unchanged, 0 removed\n"), "\(fresh.stdout)\(fresh.stderr)")
        #expect(try run("doctor").stdout.contains("FAIL export") == false)
    }

    @Test("the last of our files gone is held: an emptied folder says no more than that")
    func lastFileHeld() throws {
        try run("todo", "add", "Only", "--due", "2026-12-10T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        #expect(unlink(try file(1)) == 0)
        let pass = try run("export", "--to", out)
        #expect(pass.stderr.contains("1 of our 1 files went from \(out) at once (todo 1): held"), "\(pass.stderr)")
        #expect(try titles().contains("Only"))
    }
}

extension DeletedElsewhereTests {
    /// `text` with the instance of `date` (its RECURRENCE-ID component) taken out.
    func dropInstance(_ date: String, in text: String) -> String {
        var lines = text.components(separatedBy: "\r\n")
        guard let id = lines.firstIndex(where: { $0.hasPrefix("RECURRENCE-ID") && $0.contains(date) }),
            let begin = lines[..<id].lastIndex(where: { $0.hasPrefix("BEGIN:VTODO") }),
            let end = lines[id...].firstIndex(where: { $0.hasPrefix("END:VTODO") })
        else { return text }
        lines.removeSubrange(begin...end)
        return lines.joined(separator: "\r\n")
    }

    @Test("an instance of ours dropped elsewhere while edited here: their drop is applied, and our edit is written")
    func instanceDroppedWhileEdited() throws {
        try run("todo", "add", "Water", "--every", "daily at 09:00 from 2026-12-01").expectSuccess()
        try run("todo", "add", "Other", "--due", "2026-12-20T10:00").expectSuccess()
        try run("todo", "done", "1", "--on", "2026-12-05").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let path = try file(1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261205T090000"))
        try dropInstance("20261205", in: text).write(toFile: path, atomically: true, encoding: .utf8)
        try run("todo", "edit", "1", "--on", "2026-12-05", "--title", "Water the ferns").expectSuccess()

        let pass = try run("export", "--to", out, now: "2026-12-04T08:05")
        #expect(pass.stderr.contains("todo 1: 2026-12-05 open again on another device"), "\(pass.stderr)")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261205T090000") && after.contains("SUMMARY:Water the ferns\r\n"), "\(after)")
        #expect(!after.contains("STATUS:COMPLETED"), "their reopening lost:\n\(after)")
    }

    @Test("a file replaced by an older copy of itself reverts nothing here: ours is written again")
    func staleCopy() throws {
        try run("todo", "add", "Rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Other", "--due", "2026-12-20T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let path = try file(1)
        let old = try String(contentsOfFile: path, encoding: .utf8)
        try run("todo", "done", "1").expectSuccess()
        try run("export", "--to", out, now: "2026-12-04T09:00").expectSuccess()
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("STATUS:COMPLETED"))
        // A sync conflict resolved "remote wins" with the copy from before the Done.
        try old.write(toFile: path, atomically: true, encoding: .utf8)

        let pass = try run("export", "--to", out, now: "2026-12-04T09:10")
        #expect(pass.stderr.contains("todo 1: \(path) is an older copy of the file written last: ours written again"), "\(pass.stderr)")
        #expect(!pass.stderr.contains("open again"), "\(pass.stderr)")
        #expect(try titles().contains("\"title\":\"Rent\",\"date\":\"2026-12-10\",\"time\":\"10:00\",\"schedule\":null,\"reminders\":[],\"status\":\"done\""))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("STATUS:COMPLETED"))
        // A real edit elsewhere (stamped now) still counts.
        let edited = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "STATUS:COMPLETED\r\n", with: "LAST-MODIFIED:20261204T083000Z\r\n")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let reopened = try run("export", "--to", out, now: "2026-12-04T09:40")
        #expect(reopened.stderr.contains("todo 1: open again on another device"), "\(reopened.stderr)")
    }

    @Test("a kept alarm takes the item's new title; one whose words another device changed keeps theirs")
    func alarmRenamed() throws {
        try run("todo", "add", "Rent", "--due", "2026-12-10T10:00", "--remind", "1h", "--remind", "1d").expectSuccess()
        try run("todo", "add", "Other", "--due", "2026-12-20T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let path = try file(1)
        // Another device acknowledges one alarm (so both are kept as the file has them) and rewords the other.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "TRIGGER:-PT60M\r\n", with: "TRIGGER:-PT60M\r\nACKNOWLEDGED:20261204T070000Z\r\n")
        text = text.replacingOccurrences(of: "DESCRIPTION:Rent\r\nTRIGGER:-P1D", with: "DESCRIPTION:Pay it!\r\nTRIGGER:-P1D")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try run("todo", "edit", "1", "--title", "Pay the rent").expectSuccess()
        try run("export", "--to", out, now: "2026-12-04T09:00").expectSuccess()
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after.contains("DESCRIPTION:Pay the rent\r\nTRIGGER:-PT60M\r\nACKNOWLEDGED:20261204T070000Z\r\n"), "\(after)")
        #expect(after.contains("DESCRIPTION:Pay it!\r\nTRIGGER:-P1D"), "\(after)")
        #expect(!after.contains("DESCRIPTION:Rent\r\n"), "\(after)")
    }
}
