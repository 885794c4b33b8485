import DawnletTestSupport
import Foundation
import Testing

/// A calendar item reminds from when this machine first saw it: one synced in does not ring the
/// past (a new machine, a calendar just added), while one seen before still catches up what it
/// missed while the machine was off.
extension ServeTests {
    @Test(
        "first sight: a calendar item synced in while serve runs rings none of its alarms before then, late or missed; one seen before, whose alarm fell while serve was off, still goes out late; preview says when it was first seen"
    )
    func firstSight() throws {
        try CLIProcess.createDatabase(db)
        try beganAt("2026-11-30T00:00:00Z")
        let vdir = folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try writeConfig("calendars: [ { name: \"work\", path: \"\(vdir)\" } ],")
        let first = try Server(db: db, config: config, start: "2026-12-01 09:01:50")
        #expect(first.waitForLog("planned (start)"), "\(first.logSoFar())")
        // Synced in at 09:01:5x: A's alarm at 08:55 is of a time before it was here; 09:02 is not.
        // B's, at 09:20, falls while serve is off.
        func event(_ uid: String, start: String, alarms: [String]) -> String {
            let valarms = alarms.map { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:\($0)\r\nEND:VALARM\r\n" }.joined()
            return "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\nDTSTART:\(start)\r\n\(valarms)END:VEVENT\r\n"
        }
        try
            ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + event("a@example.org", start: "20261201T091000Z", alarms: ["-PT15M", "-PT8M"])
            + event("b@example.org", start: "20261201T094000Z", alarms: ["-PT20M"]) + "END:VCALENDAR\r\n")
            .write(toFile: "\(vdir)/items.ics", atomically: true, encoding: .utf8)
        let a = "ics:work:a@example.org:alarm:2026-12-01T09:02:00"
        let (status, log) = try stop(first, after: "planned (calendar files changed)", "delivered \(a)@desktop", seconds: 30)
        #expect(status == 0, "\(log)")
        #expect(lines().map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" } == [a], "\(lines())")

        // Off from 09:02 to 09:30: B's alarm is caught up, late; A's 08:55 never goes out.
        let second = try Server(db: db, config: config, start: "2026-12-01 09:30:00")
        let b = "ics:work:b@example.org:alarm:2026-12-01T09:20:00"
        let (again, after) = try stop(second, after: "delivered \(b)@desktop")
        #expect(again == 0, "\(after)")
        #expect(lines().map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" } == [a, b], "\(lines())")
        #expect(after.contains("delivered \(b)@desktop") && after.contains("(late)"), "\(after)")
        let missed = try cli("missed").stdout
        #expect(!missed.contains("a@example.org"), "\(missed)")

        let preview = try cli("--now", "2026-12-01T09:31:00Z", "preview", "--from", "2026-12-01T09:00:00Z", "--to", "2026-12-01T10:00:00Z").stdout
        #expect(preview.contains("first seen on this machine at 2026-12-01T10:01:5"), "\(preview)")
        #expect(!preview.contains("09:55"), "A's alarm before it was seen is not planned: \(preview)")
    }
}
