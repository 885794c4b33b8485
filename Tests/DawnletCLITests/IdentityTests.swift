import DawnletTestSupport
import Foundation
import Testing

/// An id is never reused, so a reminder of a new item can never be taken for one the
/// delivery log already has. Through the binary, with `serve` running on the real clock.
@Suite(.serialized) struct IdentityTests {
    @Test("delete and re-add while serve runs: the new todo, event and habit get new ids and fire too")
    func deleteAndReAdd() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("dawnlet.sqlite")
        let config = folder.path("config.json5")
        let fired = folder.path("fired.txt")
        // A zone where it is about noon now, so "two minutes ago" is today whatever the hour in UTC.
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let shift = 12 - hour
        let zoneName = shift == 0 ? "Etc/UTC" : "Etc/GMT\(shift > 0 ? "-" : "+")\(abs(shift))"
        let zone = try #require(TimeZone(identifier: zoneName))
        try """
        { timeZone: "\(zoneName)", route: { default: ["command"] },
          channels: { command: { argv: ["/bin/sh", "-c", "printf '%s %s\\\\n' \\"$DAWNLET_REMINDER_KEY\\" \\"$1\\" >> \\"$0\\"", "\(fired)", "{title}"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        func cli(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--config", config] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func lines(_ count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(10)
            var got: [String] = []
            repeat {
                got = ((try? String(contentsOfFile: fired, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if got.count >= count { break }
                usleep(50_000)
            } while Date() < deadline
            return got.sorted()
        }
        let ago = Date().addingTimeInterval(-120)
        let local = Calendar(identifier: .gregorian).dateComponents(in: zone, from: ago)
        let date = String(format: "%04d-%02d-%02d", local.year!, local.month!, local.day!)
        let time = String(format: "%02d:%02d", local.hour!, local.minute!)
        let weekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][local.weekday! - 1]

        // The items are made (and the database begun) three minutes ago, before their time: what
        // is due two minutes ago goes out late.
        let before = Calendar(identifier: .gregorian).dateComponents(in: zone, from: Date().addingTimeInterval(-180))
        let made = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", before.year!, before.month!, before.day!, before.hour!, before.minute!, before.second!)
        _ = try cli("--now", made, "missed", "--clear")
        let server = try ServeTests.Server(db: db, config: config, start: nil)
        #expect(try cli("--now", made, "todo", "add", "First todo", "--due", "\(date)T\(time)", "--remind", "0m") == "1")
        #expect(try cli("--now", made, "event", "add", "First event", "--start", "\(date)T\(time)", "--remind", "0m") == "1")
        #expect(try cli("--now", made, "habit", "add", "First habit", "--days", weekday, "--at", time) == "1")
        #expect(lines(3) == ["event:1:\(date):0m First event", "habit:1:\(date):0m First habit", "todo:1:\(date):0m First todo"])
        for kind in ["todo", "event", "habit"] { _ = try cli(kind, "delete", "1") }
        #expect(try cli("--now", made, "todo", "add", "Second todo", "--due", "\(date)T\(time)", "--remind", "0m") == "2")
        #expect(try cli("--now", made, "event", "add", "Second event", "--start", "\(date)T\(time)", "--remind", "0m") == "2")
        #expect(try cli("--now", made, "habit", "add", "Second habit", "--days", weekday, "--at", time) == "2")
        let got = lines(6)
        #expect(got.count == 6, "\(got)")
        for kind in ["todo", "event", "habit"] { #expect(got.contains("\(kind):2:\(date):0m Second \(kind)"), "\(got)") }
        // The deleted items' history stays; nothing of them is pending.
        let preview = try cli("preview", "--json", "--all", "--days", "1")
        #expect(!preview.contains("First"))
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.contains("delivered todo:1:\(date):0m@command"))

        // Money: a deleted bill's id is not given to the next one either.
        #expect(try cli("money", "add", "Rent", "--amount", "10", "--every", "monthly on day 1") == "1")
        _ = try cli("money", "delete", "1")
        #expect(try cli("money", "add", "Rent", "--amount", "12", "--every", "monthly on day 1") == "2")
    }
}
