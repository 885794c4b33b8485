import DawnletTestSupport
import Foundation
import Testing

/// What an email says to answer a digest line by line and a summary member by member, each
/// command run as it is written in the email, as a person pastes it into a terminal a few minutes
/// after it arrived (under faketime at that moment), against aiosmtpd as `EmailTests.swift` runs it.
extension ServeTests {
    /// `line`, as it stands in the email, run in a terminal at `at` (UTC): exit status, stdout and stderr together.
    func paste(_ line: Substring, at: String) throws -> (Int32, String) {
        let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        #expect(words.first == "dawnlet-remind", "\(line)")
        return try runTool(
            "/usr/bin/faketime", [at, CLIProcess.binary.path] + words.dropFirst(), environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"])
    }

    /// How the agenda of 2026-12-01 marks each item, by title: `[ ]` open, `[x]` done, paid or
    /// logged, `[-]` skipped.
    func marks(_ titles: [String]) throws -> [String] {
        let agenda = try cli("agenda", "--from", "2026-12-01", "--days", "1").stdout.split(separator: "\n")
        return try titles.map { title in
            let line = try #require(agenda.first { $0.contains("  \(title)") }, "\(title): \(agenda)")
            return String(line[try #require(line.firstIndex(of: "["))...].prefix(3))
        }
    }

    @Test(
        "email: a digest lists under each line the command that answers it; each, pasted, answers its line and no other; the titles escaped"
    )
    func emailDigestLines() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(smtp.port))
        let before = "2026-11-30T10:00"
        try cli("--now", before, "todo", "add", "Bins out", "--due", "2026-12-01")
        try cli("--now", before, "todo", "add", "placeholder", "--due", "2026-12-01")
        try setTitle("Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org", todo: 2)
        try cli("--now", before, "event", "add", "Fair", "--start", "2026-12-01")
        try cli("--now", before, "money", "add", "Rent", "--amount", "-950", "--every", "monthly from 2026-12-01")
        try cli("--now", before, "subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly from 2026-12-01")
        try cli("--now", before, "debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "1")
        let server = try Server(db: db, config: config, start: "2026-12-01 06:59:58")
        let got = try smtp.waitForMessages(1, seconds: 10)
        #expect(try stop(server, after: "delivered digest:2026-12-01@email").0 == 0)
        let body = try #require(got.first?["body"] as? String, "\(got)")
        let program = "dawnlet-remind --db \(db) --config \(config)"
        #expect(
            body == """
                todo: Bins out
                todo: Pay <b>rent</b> & $(touch x)\\r\\nBcc: victim@example.org
                event: Fair
                bill: Rent -950.00
                subscription: Stream -12.99
                debt: Card -50.00

                Due 2026-12-01T08:00:00+01:00.

                Answer its lines from a terminal:
                  todo: Bins out
                    \(program) todo done 1 --on 2026-12-01
                  todo: Pay <b>rent</b> & $(touch x)\\r\\nBcc: victim@example.org
                    \(program) todo done 2 --on 2026-12-01
                  bill: Rent
                    \(program) money paid 1 --on 2026-12-01
                  subscription: Stream
                    \(program) subscription log 1 --on 2026-12-01
                  debt: Card
                    \(program) debt log 1 --on 2026-12-01
                  the digest, seen:
                    \(program) reminder dismiss digest:2026-12-01

                -- \nDawnlet reminder digest:2026-12-01

                """, "\(body)")

        // Each line's command, pasted at 08:05 in Berlin: its line answered, and the others still open.
        let commands = body.split(separator: "\n").filter { $0.hasPrefix("    dawnlet-remind ") }
        try #require(commands.count == 6, "\(body)")
        let titles = ["Bins out", "Pay <b>rent", "Rent", "Stream", "Card"]
        let said = [
            "todo 1 on 2026-12-01: done", "todo 2 on 2026-12-01: done", "recurring transaction 1 on 2026-12-01: paid",
            "payment #1: subscription 1, -12.99 on 2026-12-01, for the period 2026-12-01 to 2026-12-31",
            "payment #2: debt 1, -50.00 on 2026-12-01, for the month 2026-12",
        ]
        #expect(try marks(titles + ["Fair"]) == Array(repeating: "[ ]", count: 6))
        for (index, command) in commands.dropLast().enumerated() {
            let (status, output) = try paste(command, at: "2026-12-01 07:05:00")
            #expect(status == 0 && output.contains(said[index]), "\(command): \(output)")
            let answered = Array(repeating: "[x]", count: index + 1) + Array(repeating: "[ ]", count: titles.count - index - 1)
            #expect(try marks(titles) == answered, "after \(command)")
        }
        #expect(try marks(["Fair"]) == ["[ ]"], "an event is not answered by a digest's line")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x")))
    }

    @Test(
        "email: a summary of reminders missed lists each one's reminder commands; each, pasted, answers its own reminder and leaves the others waiting"
    )
    func emailSummaryMembers() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(smtp.port))
        for (title, time) in [("Call mum", "09:00"), ("Pills", "09:01"), ("Water", "09:02"), ("Post", "09:03")] {
            try cli("--now", "2026-11-30T10:00", "todo", "add", title, "--due", "2026-12-01T\(time)")
        }
        try cli("--now", "2026-11-30T10:00", "event", "add", "Standup", "--start", "2026-12-01T09:14")
        // 09:10 in Berlin: all five late at once, one summary.
        let server = try Server(db: db, config: config, start: "2026-12-01 08:10:00")
        let got = try smtp.waitForMessages(1, seconds: 10)
        #expect(try stop(server, after: "in one summary of 5", count: 5).0 == 0)
        try #require(got.count == 1, "\(got)")
        #expect(got[0]["subject"] as? String == "(late) 5 reminders you missed")
        let body = try #require(got[0]["body"] as? String)
        let program = "dawnlet-remind --db \(db) --config \(config) reminder"
        var expected = """
            2026-12-01T09:00 Call mum
            2026-12-01T09:01 Pills
            2026-12-01T09:02 Water
            2026-12-01T09:03 Post
            2026-12-01T09:04 Standup

            Sent 2026-12-01T09:10:00+01:00.

            Answer each from a terminal:

            """
        for (title, time, id) in [("Call mum", "09:00", 1), ("Pills", "09:01", 2), ("Water", "09:02", 3), ("Post", "09:03", 4)] {
            let key = "todo:\(id):2026-12-01:0m"
            expected +=
                "  2026-12-01T\(time) \(title)\n    \(program) done \(key)\n    \(program) skip \(key)\n"
                + "    \(program) snooze \(key) --for 10m\n    \(program) dismiss \(key)\n"
        }
        let standup = "event:1:2026-12-01:10m"
        expected +=
            "  2026-12-01T09:04 Standup\n    \(program) skip \(standup)\n    \(program) snooze \(standup) --for 10m\n    \(program) dismiss \(standup)\n"
        #expect(body.hasPrefix(expected), "\(body)")

        // Pasted at 09:12: each answers its own reminder only; the rest wait.
        let lines = body.split(separator: "\n")
        func line(_ verb: String, _ key: String) throws -> Substring {
            try #require(lines.first { $0.hasPrefix("    dawnlet-remind ") && $0.contains(" reminder \(verb) \(key)") })
        }
        func waiting() throws -> [String] {
            let (status, text) = try paste("dawnlet-remind --db \(db) --config \(config) reminder list --waiting", at: "2026-12-01 08:12:30")
            #expect(status == 0, "\(text)")
            return text.split(separator: "\n").filter { $0.contains("(") }.compactMap { $0.split(separator: "(").last.map { String($0.dropLast()) } }.sorted()
        }
        var still = ["todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m", "todo:3:2026-12-01:0m", "todo:4:2026-12-01:0m", standup]
        let listed = try paste("dawnlet-remind --db \(db) --config \(config) reminder list", at: "2026-12-01 08:12:30")
        #expect(try waiting() == still.sorted(), "\(listed)")
        for (verb, key, said) in [
            ("done", "todo:1:2026-12-01:0m", "done: todo:1:2026-12-01:0m"), ("skip", "todo:2:2026-12-01:0m", "skipped: todo:2:2026-12-01:0m"),
            ("dismiss", "todo:3:2026-12-01:0m", "dismissed: todo:3:2026-12-01:0m"), ("skip", standup, "skipped: \(standup)"),
            ("snooze", "todo:4:2026-12-01:0m", "snoozed until 2026-12-01T09:22"),
        ] {
            let (status, output) = try paste(try line(verb, key), at: "2026-12-01 08:12:00")
            #expect(status == 0 && output.contains(said), "\(verb) \(key): \(output)")
            still.removeAll { $0 == key }
            #expect(try waiting() == still.sorted(), "after \(verb) \(key)")
        }
        #expect(try marks(["Call mum", "Pills", "Water", "Post", "Standup"]) == ["[x]", "[-]", "[ ]", "[ ]", "[-]"])
    }
}
