import DawnletTestSupport
import Foundation
import Testing

extension ServeTests {
    @Test(
        "missed says why each was missed, as the runner recorded it: a habit's reminder its late policy dropped, and the day before's outside the grace window, still so once the config no longer drops; doctor counts the same"
    )
    func missedWhy() throws {
        try writeConfig("late: { habit: \"drop\" },")
        try cli("--now", "2026-11-30T08:00", "habit", "add", "Run", "--days", "daily", "--at", "09:00")
        try beganAt("2026-11-01T00:00:00Z")
        // 09:02 in Berlin: today's 09:00 is late (dropped, as habits' late policy says); yesterday's
        // is past the 12 h grace window.
        // preview at that instant says the same, before the runner records it.
        let preview = try cli("preview", "--all", "--now", "2026-12-01T09:02", "--from", "2026-12-01T08:00", "--to", "2026-12-01T10:00").stdout
        #expect(preview.contains("  09:00  habit #1         Run  → desktop  [missed: dropped as late (late policy \"drop\")]\n"), "\(preview)")
        let server = try Server(db: db, config: config, start: "2026-12-01 08:02:00")
        let deadline = Date().addingTimeInterval(10)
        var missed = ""
        while Date() < deadline, missed.components(separatedBy: "(habit:1:").count < 3 {
            missed = try CLIProcess.run(["--db", db, "--config", config, "missed"]).stdout
            usleep(50_000)
        }
        let (status, log) = try server.stop()
        #expect(status == 0)
        let listed = try cli("missed").stdout.split(separator: "\n").map(String.init)
        let today = try #require(listed.first { $0.contains("(habit:1:2026-12-01:0m)") }, "\(listed)\n\(log)")
        #expect(today.contains("(habit:1:2026-12-01:0m): dropped as late (late policy \"drop\"), 2m"), "\(today)")
        #expect(today.hasSuffix(" after its time"), "\(today)")
        let yesterday = try #require(listed.first { $0.contains("(habit:1:2026-11-30:0m)") }, "\(listed)")
        #expect(yesterday.hasSuffix("(habit:1:2026-11-30:0m): outside the grace window"), "\(yesterday)")
        let json = try cli("missed", "--json").stdout
        #expect(
            json.contains(
                #""key":"habit:1:2026-12-01:0m","channel":"desktop","kind":"habit","title":"Run","due":"2026-12-01T09:00:00+01:00","why":"dropped as late (late policy \"drop\"), 2m"#
            ), "\(json)")
        #expect(lines().isEmpty, "neither went out: \(lines())")
        #expect(
            log.contains("missed habit:1:2026-12-01:0m@desktop [habit \"Run\" at 2026-12-01T09:00:00+01:00]: dropped as late (late policy \"drop\")"), "\(log)")
        #expect(log.contains("missed habit:1:2026-11-30:0m@desktop [habit \"Run\" at 2026-11-30T09:00:00+01:00]: outside the grace window"), "\(log)")
        #expect(json.contains(#""why":"outside the grace window","reason":"grace-window""#), "\(json)")
        #expect(json.contains(#"after its time","reason":"late-policy""#), "\(json)")
        // The reason is the runner's, recorded then: a config that no longer drops late habits
        // (and a grace window that would have sent neither) does not change it.
        try writeConfig("")
        let now = try cli("missed").stdout
        #expect(now.contains("(habit:1:2026-12-01:0m): dropped as late (late policy \"drop\"), 2m"), "\(now)")
        #expect(now.contains("(habit:1:2026-11-30:0m): outside the grace window\n"), "\(now)")
        let doctor = try CLIProcess.run(["--db", db, "--config", config, "doctor"]).stdout
        #expect(
            doctor.contains("note deliveries: 2 missed (1 dropped as late, 1 outside the grace window; `dawnlet-remind missed` lists them)\n"),
            "\(doctor)")
    }
}
