import DawnletTestSupport
import Foundation
import Testing

/// A snooze another device wrote into one of our exported files (an RFC 9074 snooze alarm naming
/// the alarm it snoozed by its UID): it moves that alarm's reminder, and it does not undo an
/// answer given here after it was made.
@Suite struct SnoozeElsewhereTests {
    let folder: TemporaryFolder
    let db: String
    let out: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("a.sqlite")
        out = folder.path("vdir")
    }

    @discardableResult
    func run(_ now: String, _ arguments: String...) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", now] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// Runs SQL on the database (python's sqlite3) and gives its rows as `a|b` lines.
    func sql(_ statement: String, _ values: [String] = []) throws -> [String] {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for row in c.execute(sys.argv[2], sys.argv[3:]): print("|".join("" if v is None else str(v) for v in row))
            c.commit()
            """
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, db, statement] + values, environment: [:])
        #expect(status == 0, "\(text)")
        return text.split(separator: "\n").map(String.init)
    }

    /// The exported file of todo `id`, with a snooze until `until` of its alarm `offset`, made at
    /// `made` (the ACKNOWLEDGED it writes into that alarm, as RFC 9074 has a snooze do).
    func snooze(todo id: Int, alarm offset: String, until: String, made: String?) throws {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix("-todo-\(id).ics") })
        var text = try String(contentsOfFile: "\(out)/\(name)", encoding: .utf8)
        let uid = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("UID:") && $0.hasSuffix("-alarm-\(offset)") }?.dropFirst(4))
        if let made {
            text = text.replacingOccurrences(of: "UID:\(uid)\r\n", with: "UID:\(uid)\r\nACKNOWLEDGED:\(made)\r\n")
        }
        let alarm = [
            "BEGIN:VALARM", "UID:snooze-\(id)", "RELATED-TO;RELTYPE=SNOOZE:\(uid)", "ACTION:DISPLAY", "DESCRIPTION:Snoozed",
            "TRIGGER;VALUE=DATE-TIME:\(until)", "END:VALARM", "END:VTODO",
        ]
        text = text.replacingOccurrences(of: "END:VTODO\r\n", with: alarm.joined(separator: "\r\n") + "\r\n")
        try text.write(toFile: "\(out)/\(name)", atomically: true, encoding: .utf8)
    }

    /// An instant `seconds` from the real clock's now, as a UTC DATE-TIME: the clock the delivery
    /// log stamps an answer with.
    func fromNow(_ seconds: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date().addingTimeInterval(seconds))
    }

    @Test("a snooze naming one of two alarms moves that alarm's reminder, not the item's latest")
    func namedAlarm() throws {
        // Reminded 30 minutes before (08:00) and at 08:30; another device snoozed the 08:00 one to 08:50.
        try run("2026-12-04T07:00", "todo", "add", "Call", "--due", "2026-12-04T08:30", "--remind", "30m", "--remind", "0m")
        try run("2026-12-04T07:00", "export", "--to", out)
        try snooze(todo: 1, alarm: "30m", until: "20261204T075000Z", made: nil)
        try run("2026-12-04T08:40", "export", "--to", out)
        #expect(
            try sql("SELECT key, snoozed_until FROM deliveries WHERE snoozed_until IS NOT NULL") == ["todo:1:2026-12-04:30m|1796370600"],
            "the 30m reminder snoozed to 08:50")
    }

    @Test("a snooze made elsewhere before an answer given here does not bring the reminder back; one made after does")
    func olderSnoozeKeepsAnswer() throws {
        for title in ["Call", "Write"] {
            try run("2026-12-04T07:00", "todo", "add", title, "--due", "2026-12-04T08:30", "--remind", "0m")
        }
        try run("2026-12-04T07:00", "export", "--to", out)
        // Both went out here at 08:30 (as serve records them) and were dismissed here at 08:35.
        for id in [1, 2] {
            try sql(
                "INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, item_id) VALUES (?, 'desktop', 'delivered', 'todo', 't', 1796369400, 1796369400, 1796369401, ?)",
                ["todo:\(id):2026-12-04:0m", "\(id)"])
            try run("2026-12-04T08:35", "reminder", "dismiss", "todo:\(id):2026-12-04:0m")
        }
        // Snoozed on another device to 08:50: the first an hour before the dismissal here, the second an hour after.
        try snooze(todo: 1, alarm: "0m", until: "20261204T075000Z", made: fromNow(-3600))
        try snooze(todo: 2, alarm: "0m", until: "20261204T075000Z", made: fromNow(3600))
        try run("2026-12-04T08:40", "export", "--to", out)
        #expect(
            try sql("SELECT key, answer, snoozed_until FROM deliveries ORDER BY key") == [
                "todo:1:2026-12-04:0m|dismissed|", "todo:2:2026-12-04:0m|snoozed:1796370600|1796370600",
            ])
    }
}
