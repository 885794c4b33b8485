import DawnletTestSupport
import Foundation
import Testing

/// One list (a tag) in every view: `agenda`, `today`, `preview`, `todo list` and `event list` with
/// `--tag`, through the binary.
@Suite struct ListViewTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("d.sqlite")
    }

    @discardableResult
    func cli(_ arguments: String...) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", "2026-12-01T06:00Z"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    func titles(_ json: String, _ path: [String]) throws -> [String] {
        var value: Any = try JSONSerialization.jsonObject(with: Data(json.utf8))
        for key in path { value = (value as? [String: Any])?[key] ?? [] }
        if let days = value as? [[String: Any]], days.first?["items"] != nil {
            return days.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
        }
        return (value as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("--tag keeps one list's todos and events in agenda, today, preview and the lists; a bad tag is exit 2")
    func byTag() throws {
        try cli("todo", "add", "Report", "--due", "2026-12-01T09:00", "--tag", "work,urgent")
        try cli("todo", "add", "Laundry", "--due", "2026-12-01T10:00", "--tag", "home")
        try cli("event", "add", "Standup", "--start", "2026-12-01T09:30", "--tag", "work")
        try cli("habit", "add", "Run", "--days", "tue", "--at", "07:00")
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-12-01")
        #expect(try titles(cli("agenda", "--days", "1", "--tag", "work", "--json").stdout, ["days"]) == ["Report", "Standup"])
        let today = try JSONSerialization.jsonObject(with: Data(cli("today", "--tag", "HOME", "--json").stdout.utf8)) as? [String: Any]
        #expect((today?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Laundry"])
        // Everything without it: the habit and the bill too.
        #expect(try titles(cli("agenda", "--days", "1", "--json").stdout, ["days"]).count == 5)
        let preview = try cli("preview", "--days", "1", "--tag", "work", "--json").stdout
        let keys = try (JSONSerialization.jsonObject(with: Data(preview.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]]
        #expect(keys?.compactMap { $0["key"] as? String } == ["todo:1:2026-12-01:0m", "event:1:2026-12-01:10m"], "\(preview)")
        #expect(try titles(cli("todo", "list", "--tag", "urgent", "--json").stdout, ["todos"]) == ["Report"])
        #expect(try titles(cli("event", "list", "--tag", "work", "--json").stdout, ["events"]) == ["Standup"])
        #expect(try titles(cli("event", "list", "--tag", "home", "--json").stdout, ["events"]).isEmpty)
        #expect(try cli("agenda", "--days", "1", "--tag", "work").stdout.contains("Laundry") == false)
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "agenda", "--tag", "a b"]), status: 2, mentioning: ["--tag \"a b\": a tag is 1 to 40"])
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "habit", "list", "--tag", "work"]), status: 2, mentioning: ["--tag"])
    }
}
