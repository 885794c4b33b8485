import DawnletTestSupport
import Foundation
import Testing

/// Answering a reminder from the terminal (`reminder …`), against a running `serve`: the same
/// answers as a notification's buttons, recorded the same way, and a notification still on screen
/// closed when its reminder is answered here.
extension ServeTests {
    func json(_ arguments: String...) throws -> [String: Any] {
        let result = try CLIProcess.run(["--db", db, "--config", config] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Todo 1, "Call mum", due two minutes ago: serve started on `session`, its notification on
    /// screen. The server, the day, and the reminder's key.
    func todoOnScreen(_ session: DesktopSession) throws -> (server: Server, day: String, key: String) {
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call mum", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        return (server, day, "todo:1:\(day):0m")
    }

    func waitForDisplayed(_ session: DesktopSession, _ count: Int, seconds: Double) -> Int {
        waitUntil(seconds: seconds) { session.displayed() == count }
        return session.displayed()
    }

    @Test("reminder done in a terminal: the newest waiting reminder's todo is done, and its notification still on dunst's screen is closed")
    func doneFromTerminal() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day, key) = try todoOnScreen(session)
        var waiting = try #require(try json("reminder", "list", "--json")["waiting"] as? [[String: Any]])
        #expect(waiting.map { $0["key"] as? String } == [key])
        #expect(waiting.first?["channels"] as? [String] == ["desktop"])
        #expect(waiting.first?["title"] as? String == "Call mum")

        // Completions offer the waiting key with its title; bash hands the key over split at colons.
        let scripts = try TemporaryFolder()
        #expect(try CompletionsTests.fish("dawnlet-remind --db \(db) reminder done ", scripts: scripts) == ["\(key)\tCall mum"])
        #expect(try CompletionsTests.bash(["--db", db, "reminder", "done", ""], scripts: scripts) == [key])
        #expect(try CompletionsTests.bash(["--db", db, "reminder", "done", "todo", ":", "1"], scripts: scripts) == [String(key.dropFirst(5))])

        let done = try cli("reminder", "done")
        #expect(done.stdout == "done: \(key)\n")
        #expect(done.stderr.contains("done: \(key) \"Call mum\""), "the reminder chosen is said: \(done.stderr)")
        #expect(try todoStatus(on: day) == "done")
        #expect(waitForDisplayed(session, 0, seconds: 10) == 0, "the notification on screen is closed")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("was answered elsewhere (done)"), "\(log)")
        waiting = try #require(try json("reminder", "list", "--json")["waiting"] as? [[String: Any]])
        #expect(waiting.isEmpty)
        #expect(try cli("reminder", "list").stdout == "nothing waiting for an answer\n")
        // Answered once: a second answer is refused, naming why.
        let again = try CLIProcess.run(["--db", db, "--config", config, "reminder", "done"])
        #expect(again.status == 65 && again.stderr == "dawnlet-remind: no reminder is waiting for an answer (reminder list)\n", "\(again)")
        // Named by its key, it is refused too: the first answer stands, the todo stays done.
        let skip = try CLIProcess.run(["--db", db, "--config", config, "reminder", "skip", key])
        #expect(skip.status == 65 && skip.stderr == "dawnlet-remind: \(key) was answered already (done)\n", "\(skip)")
        #expect(try todoStatus(on: day) == "done")
    }

    @Test("todo done in a terminal: its reminder is answered, the notification on dunst's screen closed, and reminder list no longer lists it")
    func itemDoneFromTerminal() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day, key) = try todoOnScreen(session)
        _ = try waitForOutput("reminder", "list", containing: key)
        let done = try cli("todo", "done", "1")
        #expect(done.stdout == "todo 1 on \(day): done\n")
        #expect(done.stderr == "todo 1 on \(day) done: reminder \(key) answered\n")
        #expect(waitForDisplayed(session, 0, seconds: 10) == 0, "the notification on screen is closed")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("closed notification ") && log.contains(": \(key) was answered elsewhere (done)"), "\(log)")
        #expect(try cli("reminder", "list").stdout == "nothing waiting for an answer\n")
    }

    @Test(
        "todo delete in a terminal: the deleted todo's notification is closed, its reminder waits no more, and reminder done says nothing waits (not that the todo is gone)"
    )
    func itemDeletedFromTerminal() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, _, key) = try todoOnScreen(session)
        _ = try waitForOutput("reminder", "list", containing: key)
        #expect(try cli("todo", "delete", "1").stderr == "todo 1 deleted: reminder \(key) answered\n")
        #expect(waitForDisplayed(session, 0, seconds: 10) == 0, "the notification on screen is closed")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains(": \(key) was answered elsewhere (its item was deleted)"), "\(log)")
        #expect(try cli("reminder", "list").stdout == "nothing waiting for an answer\n")
        let done = try CLIProcess.run(["--db", db, "--config", config, "reminder", "done"])
        #expect(done.status == 65 && done.stderr == "dawnlet-remind: no reminder is waiting for an answer (reminder list)\n", "\(done)")
    }

    @Test(
        "money paid in a terminal: the morning digest on dunst's screen is shown again without the bill, as Paid on it would; subscription log, its last line, answers and closes it"
    )
    func billPaidFromTerminal() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day) = try paymentsDigest(session)
        let key = "digest:\(day)"
        _ = try waitForOutput("reminder", "list", containing: key)
        let paid = try cli("money", "paid", "1")
        #expect(paid.stdout == "recurring transaction 1 on \(day): paid\n")
        #expect(!paid.stderr.contains("answered"), "the digest still lists the renewal: \(paid.stderr)")
        #expect(server.waitForLog("shown again with what still waits: \(key)"), "\(server.logSoFar())")
        #expect(session.displayed() == 1)
        #expect(try cli("reminder", "list", "--waiting").stdout.contains("(\(key))"))

        let logged = try cli("subscription", "log", "1")
        #expect(logged.stderr.hasSuffix("reminder \(key) answered\n"), "\(logged.stderr)")
        #expect(waitForDisplayed(session, 0, seconds: 10) == 0, "the digest on screen is closed")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains(": \(key) was answered elsewhere (logged payment #1: subscription 1, -12.99 for "), "\(log)")
        #expect(try cli("money", "month", String(day.prefix(7))).stdout.contains("\(day)       -950.00  Rent  (paid)"))
        #expect(try cli("reminder", "list").stdout == "nothing waiting for an answer\n")
    }

    @Test("reminder snooze --for / --until and unsnooze: listed with the instant it comes back, called off; the series does not move")
    func snoozeFromTerminal() throws {
        let (due, day) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        try cli("--now", threeMinutesAgo(), "todo", "add", "Read", "--due", due)
        let server = try Server(db: db, config: config, start: nil)
        #expect(waitForLines(2, seconds: 10).count == 2, "both went out by the command channel")
        let snoozed = try cli("reminder", "snooze", "todo:1:\(day):0m", "--until", "tomorrow 09:00")
        let tomorrow = try #require(Calendar(identifier: .gregorian).date(byAdding: .day, value: 1, to: ISO8601DateFormatter().date(from: day + "T12:00:00Z")!))
        let tomorrowText = String(ISO8601DateFormatter().string(from: tomorrow).prefix(10))
        #expect(snoozed.stdout.hasPrefix("snoozed until \(tomorrowText)T09:00:00+01:00: todo:1:\(day):0m"), "\(snoozed.stdout)")
        try cli("reminder", "snooze", "todo:2:\(day):0m", "--for", "2h")
        let list = try json("reminder", "list", "--json")
        let back = try #require(list["snoozed"] as? [[String: Any]])
        #expect(back.map { $0["key"] as? String } == ["todo:2:\(day):0m", "todo:1:\(day):0m"], "soonest first")
        #expect(back.last?["until"] as? String == "\(tomorrowText)T09:00:00+01:00")
        #expect((list["waiting"] as? [Any])?.isEmpty == true)
        // Two snoozed: which to call off must be said.
        let unsaid = try CLIProcess.run(["--db", db, "--config", config, "reminder", "unsnooze"])
        #expect(unsaid.status == 65 && unsaid.stderr.contains("2 reminders are snoozed: name one"), "\(unsaid)")
        #expect(try cli("reminder", "unsnooze", "todo:1:\(day):0m").stdout == "snooze called off: todo:1:\(day):0m\n")
        let waiting = try #require(try json("reminder", "list", "--waiting", "--json")["waiting"] as? [[String: Any]])
        #expect(waiting.map { $0["key"] as? String } == ["todo:1:\(day):0m"])
        #expect(try todoStatus(on: day) == "open", "a snooze marks nothing done")
        // A snooze given in a terminal reaches the running serve: it comes back at its time.
        try cli("reminder", "snooze", "todo:1:\(day):0m", "--for", "2s")
        #expect(waitForLines(3, seconds: 15).count == 3 && lines().last?.contains(" todo:1:\(day):0m Stretch") == true, "\(lines())")
        // An answer to a snoozed reminder calls its snooze off.
        try cli("reminder", "dismiss", "todo:2:\(day):0m")
        #expect((try json("reminder", "list", "--snoozed", "--json")["snoozed"] as? [Any])?.isEmpty == true)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("planned (database changed"), "the snooze reached the runner as a change: \(log)")
    }

    @Test("a new user's first start: a habit and a todo added after their time today are not sent late nor recorded missed; the next one goes out")
    func nothingBeforeItExisted() throws {
        let (due, day) = twoMinutesAgo()
        let time = String(due.suffix(5))
        try cli("habit", "add", "Run", "--days", "mon,tue,wed,thu,fri,sat,sun", "--at", time)
        try cli("todo", "add", "Call mum", "--due", due)
        let next = berlin(70, "yyyy-MM-dd'T'HH:mm")
        try cli("todo", "add", "Next", "--due", next)
        let server = try Server(db: db, config: config, start: nil)
        // Started and planned: the plan holds no reminder of before now.
        let preview = try cli("preview", "--json", "--days", "1").stdout
        #expect(!preview.contains("habit:1:\(day):") && !preview.contains("todo:1:"), "\(preview)")
        #expect(preview.contains("todo:2:"), "\(preview)")
        // Its first plan decided: what it would send late, or record missed, is done by then.
        let (status, log) = try stop(server, after: "planned (start)")
        #expect(status == 0)
        #expect(lines().isEmpty, "nothing went out late: \(lines())")
        #expect(!log.contains("missed ") && !log.contains("(late)"), "\(log)")
        #expect(try cli("missed").stdout == "nothing missed\n")
        #expect(log.contains("next: Next (todo:2:"), "the reminder still to come is next: \(log)")
    }
}
