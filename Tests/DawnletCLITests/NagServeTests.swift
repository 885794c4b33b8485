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
        // Due after the bound, three minutes after the last return: going out, it shows those
        // minutes passed without a return more.
        try cli("todo", "add", "Later", "--due", "2026-12-02T00:05")
        // 22:58:58 UTC is 23:58:58 in Berlin; twenty times the real speed.
        let server = try Server(db: db, config: config, start: "2026-12-01 22:58:58 x20")
        let got = nagLines(4, seconds: 30)
        // Each return a minute after the last, counted from the first going out (a second or so
        // after 23:59, as the fake clock runs fast); past midnight, on the next day.
        let expected = ["2026-12-01T23:59", "2026-12-02T00:00", "2026-12-02T00:01", "2026-12-02T00:02"]
        #expect(got.map { String($0.split(separator: "@")[1].prefix(16)) } == expected, "\(got)")
        let repeats: [String] = got.map { line in line.replacing(/@[^|]*/, with: "") }
        #expect(repeats == ["Pills|", "Pills|1", "Pills|2", "Pills|3"], "\(got)")
        // The bound reached: nothing more before Later, three minutes on.
        #expect(nagLines(5, seconds: 30).last?.hasPrefix("Later@2026-12-02T00:05") == true, "\(lines())")
        let (status, log) = try stop(server, after: "delivered todo:2:2026-12-02:0m@")
        #expect(lines().count == 5, "\(lines())")
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
        // Due three minutes after Tea's snooze ends: going out, it shows those minutes passed
        // with neither coming back.
        try cli("todo", "add", "Later", "--due", "2026-12-01T09:09")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58 x20")
        let got = nagLines(3, seconds: 20)
        let titles: [String] = got.map { line in line.replacing(/@[^|]*/, with: "") }
        #expect(titles.sorted() == ["Stretch|", "Stretch|1", "Tea|"], "\(got)")
        try cli("reminder", "done", "todo:1:2026-12-01:0m")
        // Tea, snoozed: back once at 09:06 (Stretch, done, not before it), then its nag (off)
        // keeps it quiet until Later; Stretch stays done.
        try cli("--now", "2026-12-01T09:00:00+01:00", "reminder", "snooze", "todo:2:2026-12-01:0m", "--until", "2026-12-01T09:06")
        #expect(nagLines(4, seconds: 30).last?.hasPrefix("Tea@2026-12-01T09:06:00+01:00|") == true, "\(lines())")
        #expect(nagLines(5, seconds: 30).last?.hasPrefix("Later@2026-12-01T09:09:00+01:00|") == true, "\(lines())")
        #expect(try stop(server, after: "delivered todo:3:2026-12-01:0m@").0 == 0)
        #expect(lines().count == 5, "\(lines())")
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
        // Due three minutes after the nag's bound: going out, it shows those minutes passed
        // without a return more.
        try cli("todo", "add", "Later", "--due", "2026-12-02T00:09")
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
        #expect(nagLines(8, seconds: 30).last?.hasPrefix("Later@2026-12-02T00:09") == true, "\(lines())")
        let (status, log) = try stop(server, after: "delivered todo:3:2026-12-02:0m@")
        #expect(lines().count == 8, "\(lines())")
        #expect(status == 0)
        #expect(log.contains("in one summary of 2"), "\(log)")
    }
}
