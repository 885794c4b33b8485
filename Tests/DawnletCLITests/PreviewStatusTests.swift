import DawnletTestSupport
import Foundation
import Testing

/// `preview --now T` shows what `serve` would do at T, with what the delivery log says:
/// delivered (when, on which channel), failed (why), snoozed (until), late, due, missed, pending,
/// suppressed with the reason.
extension PlannerCommandTests {
    @Test("preview --now: every status serve knows, from the delivery log and the one meaning of late")
    func previewStatuses() throws {
        for (title, time) in [
            ("Sent", "08:00"), ("Broken", "08:10"), ("Snoozed", "08:20"), ("Late", "08:30"), ("Due", "08:59"),
            ("Soon", "10:00"), ("Done", "08:40"), ("Gone", "2026-11-30T08:00"),
        ] {
            try cli("todo", "add", title, "--due", time.count > 5 ? time : "2026-12-01T\(time)", "--remind", "0m", "--tz", "Europe/Berlin")
        }
        try cli("todo", "done", "7", "--tz", "Europe/Berlin")
        // 2026-12-01 08:00, 08:10 and 08:20 Berlin; the snooze until 09:30.
        try sql(
            """
            INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail, snoozed_until) VALUES
            ('todo:1:2026-12-01:0m', 'desktop', 'delivered', 'todo', 'Sent', 1796108400, 1796108400, 1796108401, 'notification 4', NULL),
            ('todo:2:2026-12-01:0m', 'desktop', 'failed', 'todo', 'Broken', 1796109000, 1796109000, 1796109002, 'exited 3', NULL),
            ('todo:3:2026-12-01:0m', 'desktop', 'delivered', 'todo', 'Snoozed', 1796109600, 1796109600, 1796109600, NULL, 1796113800)
            """)
        let text = try cli(
            "preview", "--all", "--tz", "Europe/Berlin", "--now", "2026-12-01T09:00", "--from", "2026-11-30T00:00",
            "--to", "2026-12-01T12:00"
        ).stdout
        let lines = text.split(separator: "\n").map(String.init)
        func line(_ title: String) -> String { lines.first { $0.contains(" \(title)  →") } ?? "no line for \(title) in \(text)" }
        #expect(line("Gone").hasSuffix("[missed: outside the grace window]"), "\(text)")
        #expect(line("Sent").hasSuffix("[delivered on desktop at 08:00:01, waiting for an answer]"))
        #expect(line("Broken").hasSuffix("[failed on desktop at 08:10:02: exited 3]"))
        #expect(line("Late").hasSuffix("[late: goes out now, marked late]"))
        #expect(line("Due").hasSuffix("[due: goes out now]"))
        #expect(line("Done").hasSuffix("[suppressed: done]"))
        #expect(line("Soon").hasSuffix("→ desktop"))
        #expect(line("Snoozed").contains("09:30") && line("Snoozed").hasSuffix("[snoozed]"), "\(text)")

        let json = try cli(
            "preview", "--all", "--json", "--tz", "Europe/Berlin", "--now", "2026-12-01T09:00", "--from", "2026-11-30T00:00",
            "--to", "2026-12-01T12:00"
        ).stdout
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let reminders = try #require(root["reminders"] as? [[String: Any]]).filter { ($0["kind"] as? String) == "todo" }
        var status: [String: String] = [:]
        for r in reminders { status[r["title"] as? String ?? ""] = r["status"] as? String }
        #expect(
            status == [
                "Gone": "missed", "Sent": "delivered", "Broken": "failed", "Snoozed": "pending", "Late": "late", "Due": "due",
                "Soon": "pending", "Done": "suppressed",
            ])
        let broken = try #require(reminders.first { $0["title"] as? String == "Broken" })
        let deliveries = try #require(broken["deliveries"] as? [[String: Any]])
        #expect(deliveries.count == 1)
        #expect(deliveries.first?["channel"] as? String == "desktop")
        #expect(deliveries.first?["outcome"] as? String == "failed")
        #expect(deliveries.first?["detail"] as? String == "exited 3")
        #expect(deliveries.first?["at"] as? String == "2026-12-01T08:10:02+01:00")
        #expect(reminders.first { $0["title"] as? String == "Snoozed" }?["snoozed"] as? Bool == true)
    }
}

extension PlannerCommandTests {
    @Test("preview by default starts where serve's decision does: what goes out now, 11 h late, is listed; what went out then only with --all")
    func previewShowsLate() throws {
        for (title, time) in [("Morning run", "08:00"), ("Sent", "09:00"), ("Evening", "21:00")] {
            try cli("todo", "add", title, "--due", "2026-12-01T\(time)", "--remind", "0m", "--tz", "Europe/Berlin")
        }
        // 09:00 Berlin went out.
        try sql(
            """
            INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail, snoozed_until) VALUES
            ('todo:2:2026-12-01:0m', 'desktop', 'delivered', 'todo', 'Sent', 1796112000, 1796112000, 1796112001, 'notification 4', NULL)
            """)
        let text = try cli("preview", "--tz", "Europe/Berlin", "--now", "2026-12-01T19:37", "--days", "1").stdout
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" Morning run  →") && $0.hasSuffix("[late: goes out now, marked late]") }, "\(text)")
        #expect(lines.contains { $0.contains(" Evening  →") }, "\(text)")
        #expect(!text.contains(" Sent  →"), "\(text)")
        let all = try cli("preview", "--all", "--tz", "Europe/Berlin", "--now", "2026-12-01T19:37", "--days", "1").stdout
        #expect(all.contains(" Sent  →"), "\(all)")
        let json = try cli("preview", "--json", "--tz", "Europe/Berlin", "--now", "2026-12-01T19:37", "--days", "1").stdout
        #expect(json.contains(#""key":"todo:1:2026-12-01:0m""#) && !json.contains(#""key":"todo:2:2026-12-01:0m""#), "\(json)")
    }
}
