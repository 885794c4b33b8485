import DawnletTestSupport
import Foundation
import Testing

/// A summary shows several reminders at once: each of them is still answered on its own, once.
/// One answered elsewhere leaves the others on screen; the summary dismissed answers each.
extension ServeTests {
    /// Four todos due two minutes ago: more than three late at once go out as one summary.
    func missedSummary(_ session: DesktopSession) throws -> (server: Server, day: String, keys: [String]) {
        let (due, day) = twoMinutesAgo()
        for number in 1...4 { try cli("--now", threeMinutesAgo(), "todo", "add", "Task \(number)", "--due", due) }
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        let keys = (1...4).map { "todo:\($0):\(day):0m" }
        #expect(server.waitForLog("in one summary of 4", count: 4), "\(server.logSoFar())")
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        return (server, day, keys)
    }

    /// The keys `reminder list --waiting` names.
    func waitingKeys() throws -> [String] {
        let list = try CLIProcess.run(["--db", db, "--config", config, "reminder", "list", "--waiting"]).stdout
        return list.matches(of: /\((todo:[^)]+)\)/).map { String($0.1) }
    }

    @Test("desktop: one of a summary's reminders done in a terminal: the summary is shown again, in place, with the three still waiting")
    func summaryMemberAnsweredElsewhere() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, _, keys) = try missedSummary(session)
        try cli("reminder", "done", keys[0])
        #expect(server.waitForLog("shown again with what still waits: \(keys[1...].joined(separator: ", "))"), "\(server.logSoFar())")
        #expect(session.displayed() == 1, "replaced in place, not stacked, not closed")
        #expect(try waitingKeys() == Array(keys[1...]))

        // Dismissed now: it showed the three, titled so.
        try session.dunstctl(["close"])
        #expect(waitUntil { (try? waitingKeys())?.isEmpty == true }, "each of the three answered by the dismissal")
        let history = try session.history()
        #expect(history.first?["summary"] as? String == "3 reminders waiting (late)", "\(history)")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        for key in keys[1...] {
            #expect(log.components(separatedBy: "dismissed: \(key) (notification ").count - 1 == 1, "\(key) dismissed once:\n\(log)")
        }
        #expect(!log.contains("dismissed: \(keys[0])"), "the one done is not dismissed too:\n\(log)")
        #expect(log.components(separatedBy: "delivered todo:").count - 1 == 4, "each delivered once:\n\(log)")
    }

    @Test("desktop: a summary dismissed answers every reminder it showed, not the first only; none of them comes back")
    func summaryDismissed() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, _, keys) = try missedSummary(session)
        try session.dunstctl(["close"])
        #expect(waitUntil { (try? waitingKeys())?.isEmpty == true }, "\(server.logSoFar())")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        for key in keys { #expect(log.contains("dismissed: \(key) (notification "), "\(key):\n\(log)") }
        // Each answered once: a second answer is refused.
        let again = try CLIProcess.run(["--db", db, "--config", config, "reminder", "done", keys[3]])
        CLIProcess.expectFailure(again, status: 65, mentioning: ["\(keys[3]) was answered already (dismissed"])
    }

    @Test(
        "desktop: dunst's menu on a summary answers one member: Done on it marks that todo done, and the summary is shown again in place with the others, whose Done still works"
    )
    func summaryMemberDoneFromMenu() throws {
        let session = try DesktopSession(notificationServer: true)
        let (server, day, keys) = try missedSummary(session)
        try session.invoke("Done: Task 2")
        #expect(server.waitForLog("shown again with what still waits: \([keys[0], keys[2], keys[3]].joined(separator: ", "))"), "\(server.logSoFar())")
        #expect(session.displayed() == 1, "replaced in place, not stacked, not closed")
        #expect(try waitingKeys().sorted() == [keys[0], keys[2], keys[3]])
        let first = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        #expect((1...4).allSatisfy { first.contains("#Done: Task \($0) (") }, "each member's Done: \(first)")

        try session.invoke("Done: Task 4")
        #expect(server.waitForLog("shown again with what still waits: ", count: 2), "\(server.logSoFar())")
        #expect(server.logSoFar().contains("shown again with what still waits: \(keys[0]), \(keys[2])\n"), "\(server.logSoFar())")
        let second = try String(contentsOfFile: session.menuFile, encoding: .utf8)
        #expect(second.contains("#Done: Task 4 (") && !second.contains("#Done: Task 2 ("), "the one done is gone from it: \(second)")
        #expect(try waitingKeys().sorted() == [keys[0], keys[2]])
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        for key in [keys[1], keys[3]] { #expect(log.components(separatedBy: "done: \(key) (notification ").count - 1 == 1, "\(key) done once:\n\(log)") }
        let agenda = try cli("agenda", "--from", day, "--days", "1").stdout
        #expect(agenda.contains("[x] todo  #2  Task 2") && agenda.contains("[x] todo  #4  Task 4") && agenda.contains("[ ] todo  #1  Task 1"), "\(agenda)")
    }
}
