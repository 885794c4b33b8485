import DawnletTestSupport
import Foundation
import Testing

/// A reminder that comes back until answered, end to end: the real binary under libfaketime at
/// twenty times the real speed, through the command channel (which hears `{repeat}`).
extension ServeTests {
    /// The config with the command channel handing the title and `{repeat}` over, and `extra`.
    func writeNagConfig(_ extra: String) throws {
        let script =
            "import sys,time,os; open(sys.argv[1],'a').write('%.3f %s %s|%s\\\\n' % (time.time(), os.environ['DAWNLET_REMINDER_KEY'], sys.argv[2], sys.argv[3]))"
        try """
        { timeZone: "Europe/Berlin", graceWindow: "12h", \(extra)
          channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{title}@{when}", "{repeat}"], timeout: "5s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// What went out, as "title@{when}|{repeat}" ({when}: the instant it was planned for).
    func nagLines(_ count: Int, seconds: Double) -> [String] {
        waitForLines(count, seconds: seconds).map { String($0.split(separator: " ", maxSplits: 2)[2]) }
    }

    @Test("nag: an unanswered reminder comes back every minute from its first going out, across midnight, up to the bound; each return in the log")
    func nagAcrossMidnight() throws {
        try writeNagConfig("nagFor: \"3m\",")
        try cli("todo", "add", "Pills", "--due", "2026-12-01T23:59", "--nag", "1m")
        // 22:58:58 UTC is 23:58:58 in Berlin; twenty times the real speed.
        let server = try Server(db: db, config: config, start: "2026-12-01 22:58:58 x20")
        let got = nagLines(4, seconds: 30)
        // Each return a minute after the last, counted from the first going out (a second or so
        // after 23:59, as the fake clock runs fast); past midnight, on the next day.
        let expected = ["2026-12-01T23:59", "2026-12-02T00:00", "2026-12-02T00:01", "2026-12-02T00:02"]
        #expect(got.map { String($0.split(separator: "@")[1].prefix(16)) } == expected, "\(got)")
        let repeats: [String] = got.map { line in line.replacing(/@[^|]*/, with: "") }
        #expect(repeats == ["Pills|", "Pills|1", "Pills|2", "Pills|3"], "\(got)")
        // The bound reached: nothing more (three minutes of fake time more).
        #expect(waitForLines(5, seconds: 9).count == 4)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.components(separatedBy: "planned (a reminder comes back until answered, 1 item changed)").count - 1 == 4, "\(log)")
        let list = try cli("reminder", "list", "--json").stdout
        #expect(list.contains(#""key":"todo:1:2026-12-01:0m""#) && list.contains(#""repeats":3"#), "\(list)")
        #expect(try cli("reminder", "list").stdout.contains("Pills  → desktop  back 3 times  (todo:1:2026-12-01:0m)"))
    }

    @Test("nag: answered in a terminal, it comes back no more; an item's nag off over its kind's; a snoozed one comes back once")
    func nagStopsWhenAnswered() throws {
        try writeNagConfig("nag: { todo: \"1m\" },")
        try cli("todo", "add", "Stretch", "--due", "2026-12-01T09:00")
        try cli("todo", "add", "Tea", "--due", "2026-12-01T09:00", "--nag", "off")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58 x20")
        let got = nagLines(3, seconds: 20)
        let titles: [String] = got.map { line in line.replacing(/@[^|]*/, with: "") }
        #expect(titles.sorted() == ["Stretch|", "Stretch|1", "Tea|"], "\(got)")
        try cli("reminder", "done", "todo:1:2026-12-01:0m")
        // Two minutes of fake time: neither comes back.
        #expect(waitForLines(4, seconds: 7).count == 3)
        // Tea, snoozed for a minute: back once, then its nag (off) keeps it quiet; Stretch stays done.
        try cli("--now", "2026-12-01T09:00:00+01:00", "reminder", "snooze", "todo:2:2026-12-01:0m", "--until", "2026-12-01T09:06")
        #expect(nagLines(4, seconds: 15).last?.hasPrefix("Tea@2026-12-01T09:06:00+01:00|") == true)
        #expect(waitForLines(5, seconds: 7).count == 4)
        #expect(try server.stop().0 == 0)
    }
}

extension ServeTests {
    @Test(
        "quiet hours across midnight: a nag's returns inside wait for their end, and go out there with a reminder held too as one summary; then the nag goes on"
    )
    func nagAcrossQuietHours() throws {
        try writeNagConfig("nagFor: \"10m\", quietHours: { from: \"23:59\", to: \"00:03\" },")
        try cli("todo", "add", "Pills", "--due", "2026-12-01T23:56", "--nag", "1m")
        try cli("todo", "add", "Tea", "--due", "2026-12-02T00:01")
        // 22:55:58 UTC is 23:55:58 in Berlin; twenty times the real speed.
        let server = try Server(db: db, config: config, start: "2026-12-01 22:55:58 x20")
        let got = nagLines(7, seconds: 45)
        let shown: [String] = got.map { line in line.replacing(/@[^|]*/, with: "") }
        // 23:56, back at 23:57 and 23:58; 23:59 to 00:02 are quiet: the return due at 23:59 and
        // Tea (00:01) go out at 00:03 as one summary; then the nag's next returns, 00:04 to 00:06
        // (the eighth to the tenth, its bound).
        #expect(shown == ["Pills|", "Pills|1", "Pills|2", "2 reminders held for quiet hours|", "Pills|8", "Pills|9", "Pills|10"], "\(got)")
        let whens = got.map { String($0.split(separator: "@")[1].prefix(16)) }
        #expect(whens[3] == "2026-12-02T00:03" && whens[4] == "2026-12-02T00:04" && whens[6] == "2026-12-02T00:06", "\(got)")
        #expect(waitForLines(8, seconds: 6).count == 7)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("in one summary of 2"), "\(log)")
    }
}
