import DawnletTestSupport
import Foundation
import Testing

/// `next` and `preview` against a running serve that holds a reminder while dunst is paused: they
/// say what serve published (held, why, since when), not what they would plan. On the real
/// clock, as the other desktop tests (sd-bus does not run under libfaketime).
extension ServeTests {
    @Test(
        "while dunst is paused, next and preview (text and --json) say the reminder serve holds is held, why and since when; resumed, it goes out and neither says held"
    )
    func heldSaidByTools() throws {
        let session = try DesktopSession(notificationServer: true)
        try session.dunstctl(["set-paused", "true"])
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        /// A command on the real clock, seeing what serve publishes.
        func tool(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--config", config] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        func json(_ arguments: String...) throws -> [String: Any] {
            let text = try CLIProcess.run(["--db", db, "--config", config] + arguments + ["--json"], environment: ["XDG_RUNTIME_DIR": runtime]).stdout
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        }
        func stretch(_ preview: [String: Any]) -> [String: Any]? {
            (preview["reminders"] as? [[String: Any]])?.first { $0["key"] as? String == "todo:1:\(due.prefix(10)):0m" }
        }
        // No serve: what they say without one.
        let alone = try tool("next")
        #expect(alone.contains("  todo #1  Stretch  (now, "), "\(alone)")
        #expect(try tool("preview").contains("Stretch  → desktop  [late: goes out now, marked late]"))

        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        let deadline = Date().addingTimeInterval(10)
        var next = try tool("next")
        while !next.contains("(held: ") && Date() < deadline {
            usleep(50_000)
            next = try tool("next")
        }
        let since = try #require(next.firstMatch(of: /\(held: notification server paused since (\d\d:\d\d)\)\n/)?.1, "\(next)")
        #expect(next.contains(" \(due.suffix(5))  todo #1  Stretch  (held: notification server paused since \(since))\n"), "\(next)")
        let nextJSON = try json("next")
        #expect(nextJSON["from"] as? String == "serve", "\(nextJSON)")
        let held = try #require(nextJSON["held"] as? [String: Any], "\(nextJSON)")
        #expect(held["reason"] as? String == "server-paused" && held["why"] as? String == "notification server paused", "\(held)")
        #expect((held["since"] as? String)?.dropFirst(11).prefix(5) == since, "\(held)")
        #expect((nextJSON["next"] as? [String: Any])?["status"] as? String == "held", "\(nextJSON)")

        let preview = try tool("preview")
        #expect(preview.contains("Stretch  → desktop  [held: notification server paused since \(since)]\n"), "\(preview)")
        let previewJSON = try #require(stretch(try json("preview")), "\(preview)")
        #expect(previewJSON["status"] as? String == "held", "\(previewJSON)")
        let heldOn = try #require((previewJSON["held"] as? [[String: Any]])?.first, "\(previewJSON)")
        #expect(heldOn["channel"] as? String == "desktop" && heldOn["reason"] as? String == "server-paused", "\(heldOn)")
        // A what-if (--now, even this very instant) is not the runner's present: planned as ever.
        let whatIf = try tool("preview", "--now", berlin(0, "yyyy-MM-dd'T'HH:mm:ssxxx"), "--days", "1")
        #expect(whatIf.contains("Stretch  → desktop  [late: goes out now, marked late]\n"), "\(whatIf)")
        #expect(session.displayed() == 0, "held, not shown")

        // Resumed: it goes out, and nothing is said held any more.
        try session.dunstctl(["set-paused", "false"])
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        let after = Date().addingTimeInterval(10)
        var sent = try tool("preview", "--all", "--days", "1")
        while !sent.contains("Stretch  → desktop  [delivered on desktop") && Date() < after {
            usleep(50_000)
            sent = try tool("preview", "--all", "--days", "1")
        }
        #expect(sent.contains("Stretch  → desktop  [delivered on desktop"), "\(sent)")
        #expect(!sent.contains("held"), "\(sent)")
        #expect(!(try tool("next")).contains("held"))
        #expect(try json("next")["held"] is NSNull)
        #expect(stretch(try json("preview", "--all", "--days", "1"))?["status"] as? String == "delivered")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.components(separatedBy: "delivered todo:1:").count == 2, "\(log)")
    }
}
