import DawnletCore
import DawnletStore
import DawnletSystem
import DawnletTestSupport
import Foundation

/// The calendar figure, first part: reading and expanding a vdir of 5,000 events (a quarter of them
/// repeating, each file with its VTIMEZONE and a VALARM) for a 30-day window, in process.
enum CalendarBench {
    static func run(binary: String) throws {
        let scratch = try BenchFolder("vdir-bench")
        defer { scratch.finish() }
        let folder = scratch.url
        try writeVdir(folder, events: 5_000)
        let zone = try ZoneDatabase.system.zone(named: "Europe/Berlin")
        let from = zone.resolve(WallTime.midnight, on: CivilDate(year: 2026, month: 11, day: 30)!).instant
        let window = from...from.adding(seconds: 30 * 86_400)
        let clock = ContinuousClock()
        var times: [Double] = []
        var count = 0
        for _ in 0..<5 {
            let elapsed = clock.measure {
                count = CalendarReader.read(name: "bench", path: folder.path, window: window, zone: zone).occurrences.count
            }
            times.append(seconds(elapsed))
        }
        times.sort()
        print("calendar files: a vdir of 5,000 events (1,250 weekly), each with a VTIMEZONE and a VALARM, 30-day window")
        print(
            String(
                format: "  read and expanded in process: %d occurrences, median %.0f ms, worst %.0f ms of 5 runs (files cached)",
                count, times[2] * 1000, times[4] * 1000))

        // The same events, each acknowledged on another device as Thunderbird marks it: the
        // acknowledgement and snooze rules read each file's model too.
        let marked = try BenchFolder("vdir-bench-acknowledged")
        defer { marked.finish() }
        try writeVdir(marked.url, events: 5_000, acknowledged: true)
        var markedTimes: [Double] = []
        for _ in 0..<5 {
            markedTimes.append(seconds(clock.measure { _ = CalendarReader.read(name: "bench", path: marked.url.path, window: window, zone: zone) }))
        }
        markedTimes.sort()
        print(
            String(
                format: "  the same, each event acknowledged (X-MOZ-LASTACK): median %.0f ms, worst %.0f ms of 5 runs", markedTimes[2] * 1000,
                markedTimes[4] * 1000))

        // The whole plan, as a person runs it: a fresh process (libical loaded), an empty database.
        let config = folder.appendingPathComponent("config.json5").path
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"bench\", path: \"\(folder.path)\" } ] }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let database = folder.appendingPathComponent("bench.sqlite").path
        _ = try Store(path: database)  // `preview` only reads: a database that is not there is an error
        let arguments = ["--db", database, "--config", config, "preview", "--now", "2026-11-30T00:00", "--days", "30", "--json"]
        _ = try OrganizerBench.timeProcess(binary, arguments)
        var plans: [Double] = []
        for _ in 0..<5 { plans.append(try OrganizerBench.timeProcess(binary, arguments)) }
        plans.sort()
        print(
            String(
                format: "  preview --days 30 --json over it: median %.0f ms, worst %.0f ms of 5 runs, cold process (target: < 300 ms)",
                plans[2] * 1000, plans[4] * 1000))
        try runBig(binary: binary)
    }

    /// `events` events in a vdir, each file with its VTIMEZONE (Europe/Berlin) and a VALARM, starting
    /// in `year`, one in four repeating weekly when `repeating`; with `acknowledged`, each with an
    /// X-MOZ-LASTACK of the year's first day.
    static func writeVdir(_ folder: URL, events: Int, year: Int = 2026, repeating: Bool = true, acknowledged: Bool = false) throws {
        var rng = SeededRandom(seed: 7)
        let vtimezone = """
            BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n\
            DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\n\
            TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n\
            END:STANDARD\r\nEND:VTIMEZONE\r\n
            """
        for i in 0..<events {
            let day = CivilDate(year: year, month: 1, day: 1)!.adding(days: Int.random(in: 0...364, using: &rng))
            let stamp = day.description.replacingOccurrences(of: "-", with: "") + "T\(10 + i % 9)0000"
            let rule = repeating && i % 4 == 0 ? "RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n" : ""
            try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n\(vtimezone)BEGIN:VEVENT\r\nUID:event-\(i)@bench\r\n\
            SUMMARY:Event \(i)\r\nDTSTART;TZID=Europe/Berlin:\(stamp)\r\nDURATION:PT1H\r\n\(rule)\(acknowledged ? "X-MOZ-LASTACK:\(year)0101T000000Z\r\n" : "")\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.write(to: folder.appendingPathComponent("event-\(i).ics"), atomically: false, encoding: .utf8)
        }
    }
}
