import DawnletTestSupport
import Foundation
import Testing

/// Our own exported items, changed in their files by other devices (as a phone, Thunderbird or
/// another dawnlet would write them), then exported again: what they did is applied here, and
/// everything they wrote stays in the files.
@Suite struct RoundTripTests {
    let folder: TemporaryFolder
    let db: String
    let out: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("a.sqlite")
        out = folder.path("vdir")
    }

    func run(_ arguments: String...) throws -> CLIResult { try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:00"] + arguments) }

    /// The one exported file whose name ends so (`-todo-1.ics`).
    func file(_ suffix: String) throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(suffix) })
        return "\(out)/\(name)"
    }

    /// `text` with `lines` put before the line `before` (its first one at or after `after`).
    func insert(_ lines: [String], before: String, in text: String, after: String = "") -> String {
        let start = after.isEmpty ? text.startIndex : (text.range(of: after)?.upperBound ?? text.startIndex)
        guard let at = text.range(of: before, range: start..<text.endIndex) else { return text }
        return text.replacingCharacters(in: at.lowerBound..<at.lowerBound, with: lines.map { $0 + "\r\n" }.joined())
    }

    /// The agenda's word on todo `id` from 2026-12-05 on, by day: status and time.
    func occurrences(_ id: Int) throws -> [String: String] {
        let result = try run("agenda", "--from", "2026-12-05", "--days", "3", "--json")
        let root = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        var statuses: [String: String] = [:]
        for day in root?["days"] as? [[String: Any]] ?? [] {
            for row in day["items"] as? [[String: Any]] ?? [] where row["definition_id"] as? Int == id {
                statuses[day["date"] as? String ?? ""] = "\(row["status"] as? String ?? "") \(row["time"] as? String ?? "")"
            }
        }
        return statuses
    }

    @Test("done, skipped and moved in the files elsewhere are applied here; their properties stay byte for byte; nothing is applied twice")
    func appliedAndKept() throws {
        try run("todo", "add", "Water plants", "--every", "daily at 09:00 from 2026-12-01").expectSuccess()
        try run("todo", "add", "Pay rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()

        // Another device: the one-off completed, with its own properties and an acknowledged alarm.
        let rent = try file("-todo-2.ics")
        var text = try String(contentsOfFile: rent, encoding: .utf8)
        text = insert(["STATUS:COMPLETED", "LAST-MODIFIED:20261204T070000Z", "X-PHONE-COLOR:#ff0000", "CATEGORIES:home"], before: "BEGIN:VALARM", in: text)
        text = insert(["ACKNOWLEDGED:20261204T070000Z"], before: "END:VALARM", in: text)
        try text.write(toFile: rent, atomically: true, encoding: .utf8)
        // And the series: one instance done, one deleted, one moved to 11:30.
        let plants = try file("-todo-1.ics")
        text = try String(contentsOfFile: plants, encoding: .utf8)
        text = insert(["EXDATE;TZID=Europe/Berlin:20261206T090000", "X-OTHER:kept"], before: "BEGIN:VALARM", in: text)
        text = insert(
            [
                "BEGIN:VTODO", "UID:" + (text.firstMatch(of: /UID:([^\r]+)/).map { String($0.1) } ?? ""), "DTSTAMP:20261204T070000Z",
                "RECURRENCE-ID;TZID=Europe/Berlin:20261205T090000", "DTSTART;TZID=Europe/Berlin:20261205T090000", "SUMMARY:Water plants",
                "STATUS:COMPLETED", "END:VTODO",
                "BEGIN:VTODO", "UID:" + (text.firstMatch(of: /UID:([^\r]+)/).map { String($0.1) } ?? ""), "DTSTAMP:20261204T070000Z",
                "RECURRENCE-ID;TZID=Europe/Berlin:20261207T090000", "DTSTART;TZID=Europe/Berlin:20261207T113000", "SUMMARY:Water plants",
                "END:VTODO",
            ], before: "END:VCALENDAR", in: text)
        try text.write(toFile: plants, atomically: true, encoding: .utf8)
        let theirs = try String(contentsOfFile: plants, encoding: .utf8)

        let second = try run("export", "--to", out)
        #expect(second.status == 0, "\(second.stderr)")
        for said in [
            "todo 2: done on another device", "todo 1: 2026-12-05 done on another device", "todo 1: 2026-12-06 skipped on another device",
            "todo 1: 2026-12-07 moved to 11:30 on another device",
        ] {
            #expect(second.stderr.contains(said), "\(second.stderr)")
        }
        #expect(try occurrences(1) == ["2026-12-05": "done 09:00", "2026-12-06": "skipped 09:00", "2026-12-07": "open 11:30"])
        #expect(
            try run("todo", "list", "--json").stdout.contains(
                "\"title\":\"Pay rent\",\"date\":\"2026-12-10\",\"time\":\"10:00\",\"schedule\":null,\"reminders\":[],\"status\":\"done\""))

        // The files keep what the other device wrote, and the series' file is not even rewritten.
        let rentAfter = try String(contentsOfFile: rent, encoding: .utf8)
        for line in ["X-PHONE-COLOR:#ff0000", "CATEGORIES:home", "ACKNOWLEDGED:20261204T070000Z", "STATUS:COMPLETED", "LAST-MODIFIED:20261204T070000Z"] {
            #expect(rentAfter.contains(line + "\r\n"), "\(line) lost:\n\(rentAfter)")
        }
        #expect(try String(contentsOfFile: plants, encoding: .utf8) == theirs)

        // Again: nothing new to apply, nothing to write.
        let third = try run("export", "--to", out)
        #expect(third.stderr.isEmpty, "\(third.stderr)")
        #expect(third.stdout.hasSuffix("0 files written, 2 unchanged, 0 removed\n"), "\(third.stdout)")

        // A change here is written over theirs where it is ours, and only there.
        try run("todo", "edit", "2", "--title", "Pay the rent").expectSuccess()
        try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-04T09:00", "export", "--to", out]).expectSuccess()
        let renamed = try String(contentsOfFile: rent, encoding: .utf8)
        #expect(
            renamed.contains("SUMMARY:Pay the rent\r\n") && renamed.contains("X-PHONE-COLOR:#ff0000\r\n")
                && renamed.contains("ACKNOWLEDGED:20261204T070000Z\r\n"))
        #expect(!renamed.contains("DTSTAMP:20261204T070000Z"))
    }

    @Test("an alarm acknowledged or snoozed in the file elsewhere: not due here, or due at the snooze; a conflict keeps the later change, and says so")
    func acknowledgedSnoozedAndConflicts() throws {
        try run("todo", "add", "Call mum", "--due", "2026-12-04T08:10", "--remind", "0m").expectSuccess()
        try run("todo", "add", "Stretch", "--every", "daily at 08:20 from 2026-12-01", "--remind", "0m").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        // Thunderbird acknowledged the first (X-MOZ-LASTACK), another dawnlet snoozed the second.
        let call = try file("-todo-1.ics")
        var text = try String(contentsOfFile: call, encoding: .utf8)
        text = insert(["X-MOZ-LASTACK:20261204T071000Z"], before: "BEGIN:VALARM", in: text)
        try text.write(toFile: call, atomically: true, encoding: .utf8)
        let stretch = try file("-todo-2.ics")
        text = try String(contentsOfFile: stretch, encoding: .utf8)
        text = insert(["ACKNOWLEDGED:20261204T072000Z"], before: "END:VALARM", in: text)
        text = insert(
            ["BEGIN:VALARM", "RELATED-TO;RELTYPE=SNOOZE:x", "ACTION:DISPLAY", "DESCRIPTION:Snoozed", "TRIGGER;VALUE=DATE-TIME:20261204T074500Z", "END:VALARM"],
            before: "END:VTODO", in: text)
        try text.write(toFile: stretch, atomically: true, encoding: .utf8)

        let applied = try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:30", "export", "--to", out])
        #expect(applied.stderr.contains("todo 1: acknowledged up to 2026-12-04T08:10:00+01:00 on another device"), "\(applied.stderr)")
        #expect(applied.stderr.contains("todo 2: snoozed until 2026-12-04T08:45:00+01:00 on another device"), "\(applied.stderr)")
        let preview = try CLIProcess.run([
            "--db", db, "--tz", "Europe/Berlin", "preview", "--now", "2026-12-04T08:30", "--from", "2026-12-04T08:00", "--to", "2026-12-04T09:00", "--json",
        ])
        let reminders = (try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        let due = reminders.map { "\($0["key"] as? String ?? "") \($0["fire_at"] as? String ?? "") \($0["status"] as? String ?? "")" }
        #expect(
            due == ["todo:1:2026-12-04:0m 2026-12-04T08:10:00+01:00 delivered", "todo:2:2026-12-04:0m 2026-12-04T08:45:00+01:00 pending"], "\(preview.stdout)")
        #expect(preview.stdout.contains("\"detail\":\"answered on another device\""))

        // Moved here, and moved elsewhere in a change written before: theirs is older, ours stays,
        // and that is said.
        try run("todo", "edit", "1", "--due", "2026-12-04T09:00").expectSuccess()
        text = try String(contentsOfFile: call, encoding: .utf8)
        text = insert(["LAST-MODIFIED:20200101T000000Z"], before: "BEGIN:VALARM", in: text)
        text = text.replacingOccurrences(of: "DUE;TZID=Europe/Berlin:20261204T081000", with: "DUE;TZID=Europe/Berlin:20261205T081000")
        try text.write(toFile: call, atomically: true, encoding: .utf8)
        let conflict = try run("export", "--to", out)
        #expect(
            conflict.stderr.contains("todo 1: moved to 2026-12-05 08:10 on another device at 2020-01-01T01:00:00+01:00 not applied: changed here later"),
            "\(conflict.stderr)")
        #expect(try String(contentsOfFile: call, encoding: .utf8).contains("DUE;TZID=Europe/Berlin:20261204T090000\r\n"))
        // Moved here again, and elsewhere later than that: theirs is applied.
        try run("todo", "edit", "1", "--due", "2026-12-04T09:30").expectSuccess()
        text = try String(contentsOfFile: call, encoding: .utf8)
        text = text.replacingOccurrences(of: "LAST-MODIFIED:20200101T000000Z", with: "LAST-MODIFIED:20991231T000000Z")
        text = text.replacingOccurrences(of: "DUE;TZID=Europe/Berlin:20261204T090000", with: "DUE;TZID=Europe/Berlin:20261206T070000")
        try text.write(toFile: call, atomically: true, encoding: .utf8)
        let later = try run("export", "--to", out)
        #expect(later.stderr.contains("the later kept") && later.stderr.contains("todo 1: moved to 2026-12-06 07:00 on another device"), "\(later.stderr)")
    }
}

extension RoundTripTests {
    @Test("files other programs broke or lock: an unreadable one is left alone and said; an empty or cut-short one is written whole again, reopening nothing")
    func brokenFiles() throws {
        try run("todo", "add", "Pay rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Call", "--due", "2026-12-11T10:00").expectSuccess()
        try run("todo", "done", "1").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let rent = try file("-todo-1.ics"), call = try file("-todo-2.ics")
        // Cut short by a sync tool: no END, the STATUS gone.
        let text = try String(contentsOfFile: rent, encoding: .utf8)
        let cut = try #require(text.range(of: "STATUS:"))
        try String(text[..<cut.lowerBound]).write(toFile: rent, atomically: true, encoding: .utf8)
        // Not a file it can read now (a FIFO where the file was): left as it is, and said.
        let callText = try String(contentsOfFile: call, encoding: .utf8)
        unlink(call)
        #expect(mkfifo(call, 0o600) == 0)
        let result = try run("export", "--to", out)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(call): not a regular file"), "\(result.stderr)")
        var entry = stat()
        #expect(stat(call, &entry) == 0 && entry.st_mode & S_IFMT == S_IFIFO)
        #expect(!result.stderr.contains("open again"), "\(result.stderr)")
        #expect(
            try run("todo", "list", "--json").stdout.contains(
                "\"title\":\"Pay rent\",\"date\":\"2026-12-10\",\"time\":\"10:00\",\"schedule\":null,\"reminders\":[],\"status\":\"done\""))
        #expect(try String(contentsOfFile: rent, encoding: .utf8).contains("STATUS:COMPLETED\r\nBEGIN:VALARM"))
        unlink(call)
        try callText.write(toFile: call, atomically: true, encoding: .utf8)
        #expect(try run("export", "--to", out).stdout.hasSuffix("0 files written, 2 unchanged, 0 removed\n"))
    }

    @Test("one file with two of their changes, one a conflict: the other is applied; a time edit here is no conflict with their done")
    func conflictsByProperty() throws {
        try run("todo", "add", "Rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Water", "--every", "daily at 09:00 from 2026-12-01").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        // Here: the one-off moved, an instance of the series moved to 10:00 (neither exported).
        try run("todo", "edit", "1", "--due", "2026-12-11T10:00").expectSuccess()
        try run("todo", "edit", "2", "--on", "2026-12-05", "--at", "10:00").expectSuccess()
        // There, later: the one-off done and moved; the same instance done.
        let rent = try file("-todo-1.ics"), water = try file("-todo-2.ics")
        var text = try String(contentsOfFile: rent, encoding: .utf8)
        text = insert(["STATUS:COMPLETED", "LAST-MODIFIED:20991231T000000Z"], before: "BEGIN:VALARM", in: text)
        text = text.replacingOccurrences(of: "DUE;TZID=Europe/Berlin:20261210T100000", with: "DUE;TZID=Europe/Berlin:20261212T100000")
        try text.write(toFile: rent, atomically: true, encoding: .utf8)
        text = try String(contentsOfFile: water, encoding: .utf8)
        let uid = text.firstMatch(of: /UID:([^\r]+)/).map { String($0.1) } ?? ""
        text = insert(
            [
                "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20991231T000000Z", "RECURRENCE-ID:20261205T080000Z", "DTSTART:20261205T080000Z",
                "SUMMARY:Water", "STATUS:COMPLETED", "END:VTODO",
            ], before: "END:VCALENDAR", in: text)
        try text.write(toFile: water, atomically: true, encoding: .utf8)
        let result = try run("export", "--to", out)
        #expect(result.stderr.contains("todo 1: done on another device"), "\(result.stderr)")
        #expect(result.stderr.contains("todo 1: moved to 2026-12-12 10:00 on another device"), "\(result.stderr)")
        #expect(result.stderr.contains("todo 2: 2026-12-05 done on another device"), "\(result.stderr)")
        #expect(try occurrences(2)["2026-12-05"] == "done 10:00")
        // Their override (in UTC) is the same instance as ours: one override of 2026-12-05, not two.
        #expect(try String(contentsOfFile: water, encoding: .utf8).components(separatedBy: "RECURRENCE-ID").count == 2)
    }

    @Test("a status or start written here takes along what other programs keep beside it: COMPLETED, PERCENT-COMPLETE, DTEND")
    func companions() throws {
        try run("todo", "add", "Rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("event", "add", "Dentist", "--start", "2026-12-10T14:00", "--duration", "30m").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let rent = try file("-todo-1.ics"), dentist = try file("-event-1.ics")
        var text = try String(contentsOfFile: rent, encoding: .utf8)
        text = insert(["STATUS:COMPLETED", "COMPLETED:20261204T070000Z", "PERCENT-COMPLETE:100"], before: "BEGIN:VALARM", in: text)
        try text.write(toFile: rent, atomically: true, encoding: .utf8)
        text = try String(contentsOfFile: dentist, encoding: .utf8).replacingOccurrences(of: "DURATION:PT30M", with: "DTEND;TZID=Europe/Berlin:20261210T143000")
        try text.write(toFile: dentist, atomically: true, encoding: .utf8)
        try run("export", "--to", out).expectSuccess()
        // Reopened and moved here: the file says so, with nothing left that says otherwise.
        try run("todo", "reopen", "1").expectSuccess()
        try run("event", "edit", "1", "--start", "2026-12-10T16:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let reopened = try String(contentsOfFile: rent, encoding: .utf8), moved = try String(contentsOfFile: dentist, encoding: .utf8)
        #expect(!reopened.contains("STATUS:") && !reopened.contains("COMPLETED:") && !reopened.contains("PERCENT-COMPLETE"), "\(reopened)")
        #expect(
            moved.contains("DTSTART;TZID=Europe/Berlin:20261210T160000\r\n") && moved.contains("DURATION:PT30M\r\n") && !moved.contains("DTEND"), "\(moved)")
    }
}
