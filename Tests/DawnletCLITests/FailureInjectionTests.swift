import DawnletCCall
import DawnletTestSupport
import Foundation
import Testing

/// The debug binary with a C call made to fail on purpose (`DAWNLET_FAIL`): a D-Bus call failing
/// mid-delivery, inotify refused, an event source the loop cannot keep, a D-Bus reply that cannot
/// be read, a database SQLite cannot open. Each ends with a clear message, nothing lost and
/// nothing sent twice.
extension ServeTests {
    @Test(
        "desktop: the Notify call fails (connection reset) with no fallback: tried again a second later, shown once, recorded delivered after 2 attempts",
        .enabled(if: FailureInjection.isCompiledIn, "the binary under test is a debug build only where this one is")
    )
    func busCallFailsMidDelivery() throws {
        let session = try DesktopSession(notificationServer: true)
        try writeConfig("", channels: "desktop: { fallback: null }")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Call mum", "--due", due)
        // The first async calls of the connection ask the server what it can do, who it is (how many
        // actions it shows, and how its Do Not Disturb is learned) and whether it is paused; the
        // fourth is Notify.
        let server = try Server(
            db: db, config: config, start: nil, environment: session.environment.merging(["DAWNLET_FAIL": "sd_bus_call_async@4=ECONNRESET"]) { $1 })
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        let (status, log) = try stop(server, after: "delivered todo:1:")
        #expect(status == 0)
        #expect(log.contains("failed (desktop: sd_bus_call_async: Connection reset by peer; no fallback configured); trying again at"), "\(log)")
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'delivered' AND detail LIKE 'notification %; after 2 attempts'") == 1)
        #expect(session.displayed() == 1, "shown once")
        #expect(lines().isEmpty, "no command ran")
    }

    @Test(
        "inotify refused for the database's folder: serve says so and exits 1 before claiming anything; the next start sends the reminder once",
        .enabled(if: FailureInjection.isCompiledIn, "the binary under test is a debug build only where this one is")
    )
    func inotifyRefused() throws {
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        let refused = try CLIProcess.run(["--db", db, "--config", config, "serve"], environment: ["DAWNLET_FAIL": "inotify_add_watch@1=ENOSPC"])
        CLIProcess.expectFailure(refused, status: 1, mentioning: ["watch \(folder.path(""))", "No space left on device"])
        #expect(try count("SELECT count(*) FROM deliveries") == 0)
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        #expect(waitForLines(1, seconds: 10).count == 1)
        #expect(try stop(server, after: "delivered todo:1:2026-12-01:0m@").0 == 0)
        #expect(lines().count == 1)
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 1)
    }

    @Test(
        "an event source the loop cannot keep (sd_event_source_set_floating refused): serve says so and exits 1 before claiming anything; the next start sends the reminder once",
        .enabled(if: FailureInjection.isCompiledIn, "the binary under test is a debug build only where this one is")
    )
    func eventSourceRefused() throws {
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        let refused = try serveBounded(failing: "sd_event_source_set_floating@1=ENOMEM")
        CLIProcess.expectFailure(refused, status: 1, mentioning: ["sd_event_source_set_floating: Cannot allocate memory"])
        #expect(try count("SELECT count(*) FROM deliveries") == 0)
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        #expect(waitForLines(1, seconds: 10).count == 1)
        #expect(try stop(server, after: "delivered todo:1:2026-12-01:0m@").0 == 0)
        #expect(lines().count == 1)
    }

    @Test(
        "notify-test: a reply from the notification server that cannot be read (sd_bus_message_read_basic failing) is a one-line error, not a crash",
        .enabled(if: FailureInjection.isCompiledIn, "the binary under test is a debug build only where this one is")
    )
    func busReplyUnreadable() throws {
        let session = try DesktopSession(notificationServer: true)
        // 74: EBADMSG
        let failing = session.environment.merging(["DAWNLET_FAIL": "sd_bus_message_read_basic@1=74"]) { $1 }
        let test = try CLIProcess.run(["--db", db, "--config", config, "notify-test"], environment: failing)
        CLIProcess.expectFailure(test, status: 1, mentioning: ["desktop: sd_bus_message_read_basic: Bad message"])
        #expect(session.displayed() == 0, "nothing was shown")
        // The same command without the failure shows the notification.
        let shown = try CLIProcess.run(["--db", db, "--config", config, "notify-test"], environment: session.environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
    }

    @Test(
        "a database SQLite cannot open (sqlite3_open_v2 failing): today says which file and SQLite's words, and exits 1",
        .enabled(if: FailureInjection.isCompiledIn, "the binary under test is a debug build only where this one is")
    )
    func databaseNotOpened() throws {
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        let refused = try CLIProcess.run(["--db", db, "--config", config, "today"], environment: ["DAWNLET_FAIL": "sqlite3_open_v2@1=14"])
        CLIProcess.expectFailure(refused, status: 1, mentioning: ["cannot open database \(db): unable to open database file"])
        #expect(try cli("today", "--date", "2026-12-01").stdout.contains("Call mum"))
    }

    /// `serve` with `DAWNLET_FAIL` set to `rules`, as CLIProcess.run would run it, but ended by
    /// `timeout` after 20 s: a serve that does not stop by itself then exits 124.
    func serveBounded(failing rules: String) throws -> CLIResult {
        try CLIProcess.run(["--db", db, "--config", config, "serve"], environment: ["DAWNLET_FAIL": rules], within: 20)
    }
}
