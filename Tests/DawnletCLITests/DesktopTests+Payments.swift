import DawnletTestSupport
import Foundation
import Testing

/// The desktop channel and money: a morning digest that offers Log payment and Paid, against a
/// real notification server (dunst under Xvfb), as `DesktopTests.swift` runs it.
extension ServeTests {
    /// Today's digest made late (its time two minutes ago) with a subscription renewing today, a
    /// bill due today and a debt due today; serve started on the real clock, the digest on dunst.
    func paymentsDigest(_ session: DesktopSession) throws -> (server: Server, day: String) {
        let (due, day) = twoMinutesAgo()
        try writeConfig("morningDigest: \"\(due.suffix(5))\",")
        try cli("--now", threeMinutesAgo(), "subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly from \(day)")
        try cli("--now", threeMinutesAgo(), "money", "add", "Rent", "--amount", "-950", "--every", "monthly from \(day)")
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        return (server, day)
    }

    @Test("desktop: a digest offers Log payment for a renewal and Paid for a bill; Log payment records it as subscription log would")
    func desktopLogPayment() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day) = try paymentsDigest(session)
        try session.invoke("Log payment: Stream")
        let payments = try waitForOutput("payment", "list", containing: "#1")
        // dunst has run its menu by then (the action came from it).
        let menu = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        #expect(menu.contains("#Log payment: Stream ("), "\(menu)")
        #expect(menu.contains("#Paid: Rent ("), "\(menu)")
        #expect(payments == "#1  \(day)  subscription 1 Stream  -12.99  for \(day)\n")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("logged payment #1: subscription 1, -12.99 for the period \(day) to "), "\(log)")
        #expect(try cli("agenda", "--from", day, "--days", "1").stdout.contains("[x] subscription #1  Stream  -12.99  logged (payment #1 on \(day))"))
    }

    @Test(
        "desktop: Paid marks the bill's row paid, as money month shows; the agenda shows it done; the digest stays, shown again with its other line, whose Log payment logs and answers it"
    )
    func desktopPaid() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day) = try paymentsDigest(session)
        try session.invoke("Paid: Rent")
        let month = try waitForOutput("money", "month", String(day.prefix(7)), containing: "(paid)")
        #expect(month.contains("\(day)       -950.00  Rent  (paid)"), "\(month)")
        // One line paid answers that line: the digest is shown again in place with the other.
        #expect(server.waitForLog("shown again with what still waits: digest:\(day)"), "\(server.logSoFar())")
        #expect(session.displayed() == 1)
        try session.invoke("Log payment: Stream")
        #expect(try waitForOutput("payment", "list", containing: "#1") == "#1  \(day)  subscription 1 Stream  -12.99  for \(day)\n")
        let menu = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        #expect(menu.contains("#Log payment: Stream (") && !menu.contains("#Paid: Rent ("), "the paid line is gone from it: \(menu)")
        // Its last line answered: the digest is too, and nothing of it waits.
        #expect(waitUntil { (try? cli("reminder", "list").stdout) == "nothing waiting for an answer\n" })
        #expect(session.displayed() == 0)
        #expect(try server.stop().0 == 0)
        let agenda = try cli("agenda", "--from", day, "--days", "1").stdout
        #expect(agenda.contains("[x] bill ") && agenda.contains(" #1  Rent  -950.00  (paid)"), "\(agenda)")
    }

    @Test(
        "desktop: a period logged meanwhile by another writer: the digest on screen is shown again without its line, the other line's Paid still pays; nothing is logged twice"
    )
    func desktopAlreadyLogged() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day) = try paymentsDigest(session)
        // Logged by a writer that answers no reminder (a payment row written straight into the
        // database, as a copy from another machine would bring it).
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("INSERT INTO payments (kind, source_id, date, amount_minor, period_start) VALUES ('subscription', 1, ?, 1299, ?)", (sys.argv[2], sys.argv[2]))
            c.commit()
            """
        let (written, output) = try runTool("/usr/bin/python3", ["-c", script, db, day], environment: [:])
        #expect(written == 0, "\(output)")
        #expect(server.waitForLog("shown again with what still waits: digest:\(day)"), "\(server.logSoFar())")
        #expect(session.displayed() == 1)
        try session.invoke("Paid: Rent")
        _ = try waitForOutput("money", "month", String(day.prefix(7)), containing: "(paid)")
        let menu = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        #expect(menu.contains("#Paid: Rent (") && !menu.contains("#Log payment: Stream ("), "the logged line is gone: \(menu)")
        #expect(try server.stop().0 == 0)
        #expect(try cli("payment", "list").stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
    }
}
