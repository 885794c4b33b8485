import DawnletCCall
import DawnletTestSupport
import Foundation
import Testing

/// `serve` (the debug binary) with a C call made to fail on purpose (`DAWNLET_FAIL`): a D-Bus call
/// failing mid-delivery, inotify refused. Each ends with nothing lost and nothing sent twice.
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
        // The first async calls of the connection ask the server what it can do and whether it is
        // paused; the third is Notify.
        let server = try Server(
            db: db, config: config, start: nil, environment: session.environment.merging(["DAWNLET_FAIL": "sd_bus_call_async@3=ECONNRESET"]) { $1 })
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 0 { usleep(100_000) }
        let (status, log) = try server.stop()
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
        usleep(1_000_000)
        #expect(try server.stop().0 == 0)
        #expect(lines().count == 1)
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 1)
    }
}
