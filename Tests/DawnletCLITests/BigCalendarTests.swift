import DawnletTestSupport
import Foundation
import Testing

/// Big calendars through the binary: planned whole, the same however fast the clock runs, and a
/// calendar beyond the plan's work budget said where a person looks.
@Suite struct BigCalendarTests {
    let space: Workspace
    let vdir: String
    let config: String

    init() throws {
        space = try Workspace()
        vdir = space.folder.path("big")
        config = space.folder.path("config.json5")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try CLIProcess.createDatabase(space.db)
    }

    /// One event a file, in Berlin with its VTIMEZONE and an alarm, one in four repeating weekly.
    static func writeEvents(_ folder: String, count: Int) throws {
        let zone = """
            BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n\
            DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\n\
            TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n\
            END:STANDARD\r\nEND:VTIMEZONE\r\n
            """
        for i in 0..<count {
            let rule = i % 4 == 0 ? "RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n" : ""
            try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\(zone)BEGIN:VEVENT\r\nUID:e\(i)@test\r\nSUMMARY:Event \(i)\r\n\
            DTSTART;TZID=Europe/Berlin:202612\(String(format: "%02d", 1 + i % 28))T\(String(format: "%02d", 8 + i % 10))0000\r\nDURATION:PT1H\r\n\(rule)\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.write(toFile: "\(folder)/e\(i).ics", atomically: false, encoding: .utf8)
        }
    }

    func writeConfig(_ calendars: String) throws {
        try "{ timeZone: \"Europe/Berlin\", calendars: [ \(calendars) ] }".write(toFile: config, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String], fastClock: Bool = false) throws -> CLIResult {
        let all = ["--db", space.db, "--config", config] + arguments
        guard fastClock else { return try CLIProcess.run(all) }
        // The clock a thousand times faster: two seconds of it pass in two milliseconds.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
        process.arguments = ["-f", "@2026-11-30 00:00:00 x1000", CLIProcess.binary.path] + all
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        let (out, err) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("a vdir of 2,000 events is planned whole, and the same, however fast the clock runs: the budget is work, not time")
    func sameWhateverTheClock() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") else { throw ServeTests.ServeTestError("faketime is missing: run `make deps`") }
        try Self.writeEvents(vdir, count: 2_000)
        try writeConfig("{ name: \"big\", path: \"\(vdir)\" }")
        let arguments = ["--now", "2026-11-30T00:00", "preview", "--days", "28", "--json"]
        let normal = try run(arguments)
        let fast = try run(arguments, fastClock: true)
        #expect(normal.status == 0 && fast.status == 0, "\(normal.stderr) \(fast.stderr)")
        #expect(normal.stderr.isEmpty, "\(normal.stderr.prefix(500))")
        #expect(fast.stderr.isEmpty, "\(fast.stderr.prefix(500))")
        let keys = { (result: CLIResult) in result.stdout.components(separatedBy: "\"key\":\"ics:big:").count - 1 }
        // Each of the 2,000 events once, and the 500 weekly ones on their other days of the four weeks.
        #expect(keys(normal) > 2_000)
        #expect(keys(fast) == keys(normal))
        #expect(fast.stdout == normal.stdout)
        #expect(normal.stdout.contains("\"calendar_cuts\":[]"))
    }

    /// A vdir whose first file repeats every minute from 2020, so many times that the plan's work
    /// budget of instances runs out in it; its second file is then not read.
    func writeHostile() throws {
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:flood\r\nSUMMARY:Flood\r\n\
        DTSTART:20200101T000000Z\r\nRRULE:FREQ=MINUTELY;COUNT=5000000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: "\(vdir)/a.ics", atomically: false, encoding: .utf8)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:later\r\nSUMMARY:Later\r\n\
        DTSTART:20261201T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: "\(vdir)/b.ics", atomically: false, encoding: .utf8)
        try writeConfig("{ name: \"hostile\", path: \"\(vdir)\" }")
    }

    static let cut =
        "calendar \"hostile\": the plan's calendar budget of 1000000 instances is spent: the rest of the rule of flood not expanded, 1 of 2 files not read"

    @Test("a calendar beyond the work budget: preview says the cut on stdout and in --json, naming the calendar and what was left out; exit 0")
    func cutInPreview() throws {
        try writeHostile()
        let text = try run(["--now", "2026-11-30T00:00", "preview", "--days", "7"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasSuffix("not planned: \(Self.cut)\n"), "\(text.stdout.suffix(300))")
        #expect(text.stderr.contains("the plan's calendar budget of 1000000 instances is spent: 1 of 2 files not read"), "\(text.stderr)")
        #expect(!text.stdout.contains("Later"))
        let json = try run(["--now", "2026-11-30T00:00", "preview", "--days", "7", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let cuts = object?["calendar_cuts"] as? [[String: Any]]
        #expect(cuts?.count == 1)
        #expect(cuts?.first?["calendar"] as? String == "hostile")
        #expect(cuts?.first?["files"] as? Int == 2 && cuts?.first?["files_not_read"] as? Int == 1)
        #expect(cuts?.first?["rule_cut"] as? String == "flood" && cuts?.first?["limit"] as? String == "1000000 instances")
        #expect(cuts?.first?["message"] as? String == Self.cut)
    }

    @Test("a calendar beyond the work budget: next says the cut (text and --json, exit 0); doctor fails on it, naming the calendar (exit 1)")
    func cutInNextAndDoctor() throws {
        try writeHostile()
        let next = try run(["--now", "2026-11-30T00:00", "next"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("not planned: \(Self.cut)\n"), "\(next.stdout)")
        let json = try run(["--now", "2026-11-30T00:00", "next", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["calendar_cuts"] as? [[String: Any]])?.first?["message"] as? String == Self.cut, "\(json.stdout)")
        let doctor = try run(["doctor"])
        #expect(doctor.status == 1)
        let line = doctor.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL calendar hostile:") }
        #expect(line?.contains("the plan's calendar budget of 1000000 instances is spent") == true, "\(doctor.stdout)")
        #expect(line?.contains("1 of 2 files not read") == true)
    }
}
