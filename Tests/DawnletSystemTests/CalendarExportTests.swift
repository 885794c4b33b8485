import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Export checked by reading back with libical: the calendar file means what our own
/// Schedule means.
@Suite struct CalendarExportTests {
    static let berlin = Zone.named("Europe/Berlin")
    static let stamp = Instant(secondsSinceEpoch: 1_796_000_000)

    @Test("export, then read back with libical: the same occurrences as our generator, for 300 random schedules across DST")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        var rng = SeededRandom(seed: 8)
        let range = date("2026-01-01")...date("2027-12-31")
        let zone = Self.berlin
        let window =
            zone.resolve(WallTime(hour: 0, minute: 0)!, on: range.lowerBound)
            .instant...zone.resolve(WallTime(hour: 23, minute: 59)!, on: range.upperBound).instant
        for i in 0..<300 {
            let schedule = randomSchedule(using: &rng, anchoredIn: date("2024-11-27")...date("2026-07-20"))
            let time = Bool.random(using: &rng) ? WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 30) : nil
            let item = ItemDefinition(kind: i % 2 == 0 ? .event : .todo, id: Int64(i), title: "Item \(i)", time: time, schedule: schedule)
            let file = folder.path("item-\(i).ics")
            try CalendarExport.document(item, stored: [], offsets: [], uid: "item-\(i)", zone: zone, stamp: Self.stamp).write(
                toFile: file, atomically: true, encoding: .utf8)
            let read = CalendarReader.read(name: "x", path: file, window: window, zone: zone)
            #expect(read.problems.isEmpty, "\(read.problems)")
            let theirs = read.occurrences.map(\.date).filter { range.contains($0) }.sorted()
            let ours = schedule.occurrences(in: range, defaultAnchor: schedule.anchor!)
            #expect(theirs == ours, "\(schedule) at \(time?.description ?? "all day"): \(schedule.rrule(anchor: schedule.anchor!))")
            if let time {
                // Every instance at its wall time (02:30 on the spring-forward day is 03:30).
                #expect(read.occurrences.allSatisfy { $0.time == time || ($0.time == WallTime(hour: time.hour + 1, minute: 30)) })
            }
        }
    }

    @Test("skips become EXDATEs, edits and done instances RECURRENCE-ID overrides, offsets VALARMs; text is escaped and folded")
    func exceptions() throws {
        let folder = try TemporaryFolder()
        let schedule = try DawnletTestSupport.schedule("weekly on tue from 2026-12-01")
        let item = ItemDefinition(
            kind: .todo, id: 3, title: "Bins; paper, glass \\ and a very long title that needs folding: Überweisung 💶 ok",
            time: WallTime(hour: 7, minute: 0), schedule: schedule, reminders: [])
        let stored = [
            StoredOccurrence(rowID: 1, kind: .todo, definitionID: 3, date: date("2026-12-08"), status: .skipped),
            StoredOccurrence(
                rowID: 2, kind: .todo, definitionID: 3, date: date("2026-12-15"), status: .open, title: "Bins (late)", time: WallTime(hour: 9, minute: 0)),
            StoredOccurrence(rowID: 3, kind: .todo, definitionID: 3, date: date("2026-12-22"), status: .done),
        ]
        let text = CalendarExport.document(item, stored: stored, offsets: [.minutes(10), .days(1)], uid: "todo-3@test", zone: Self.berlin, stamp: Self.stamp)
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(text.contains("EXDATE;TZID=Europe/Berlin:20261208T070000\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;WKST=MO\r\n"))
        #expect(text.contains("TRIGGER:-PT10M\r\n") && text.contains("TRIGGER:-P1D\r\n"))
        let file = folder.path("todo.ics")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let window = ISO8601.parse("2026-12-01T00:00", zone: Self.berlin)!...ISO8601.parse("2026-12-31T00:00", zone: Self.berlin)!
        let read = CalendarReader.read(name: "x", path: file, window: window, zone: Self.berlin)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let lines = read.occurrences.filter { $0.date < date("2027-01-01") }.map { "\($0.date) \($0.time!) \($0.title)" }.sorted()
        #expect(
            lines == [
                "2026-12-01 07:00 Bins; paper, glass \\ and a very long title that needs folding: Überweisung 💶 ok",
                "2026-12-15 09:00 Bins (late)",
                "2026-12-29 07:00 Bins; paper, glass \\ and a very long title that needs folding: Überweisung 💶 ok",
            ], "skipped 12-08 and done 12-22 are out: \(lines)")
        #expect(read.occurrences.first { $0.date == date("2026-12-01") }?.alarms?.count == 2)
        #expect(
            CalendarExport.document(item, stored: stored, offsets: [.minutes(10), .days(1)], uid: "todo-3@test", zone: Self.berlin, stamp: Self.stamp) == text)
    }

    @Test(
        "each file carries the VTIMEZONE its TZID names: read through that VTIMEZONE alone (libical), the same instants as through the system's zone, 2024–2050"
    )
    func timeZones() throws {
        let folder = try TemporaryFolder()
        for (n, name) in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/London", "America/Sao_Paulo"].enumerated() {
            let zone = Zone.named(name)
            let schedule = try DawnletTestSupport.schedule("weekly on sun from 2024-01-07")
            let item = ItemDefinition(kind: .event, id: Int64(n), title: "Weekly", time: WallTime(hour: 9, minute: 30), schedule: schedule)
            let text = CalendarExport.document(item, stored: [], offsets: [], uid: "tz-\(n)", zone: zone, stamp: Self.stamp)
            #expect(text.components(separatedBy: "TZID:\(name)\r\n").count == 2, "one VTIMEZONE of \(name)")
            let own = folder.path("own-\(n).ics"), custom = folder.path("custom-\(n).ics")
            try text.write(toFile: own, atomically: true, encoding: .utf8)
            // Under a name no zone database knows, only the VTIMEZONE can say what the times mean.
            try text.replacingOccurrences(of: name, with: "Dawnlet Test \(n)").write(toFile: custom, atomically: true, encoding: .utf8)
            let window = Instant(secondsSinceEpoch: 1_704_067_200)...Instant(secondsSinceEpoch: 2_524_608_000)  // 2024–2050
            let budget = { CalendarReader.Budget(instances: 10_000) }
            let system = CalendarReader.read(name: "x", path: own, window: window, zone: .utc, budget: budget())
            let vtimezone = CalendarReader.read(name: "x", path: custom, window: window, zone: .utc, budget: budget())
            #expect(system.problems.isEmpty && vtimezone.problems.isEmpty, "\(system.problems) \(vtimezone.problems)")
            #expect(system.occurrences.count > 1300)
            let differ = zip(system.occurrences, vtimezone.occurrences).filter { $0.start != $1.start }
            #expect(
                system.occurrences.count == vtimezone.occurrences.count && differ.isEmpty,
                "\(name): \(differ.prefix(3).map { "\(ISO8601.format($0.start!, utcOffset: 0)) vs \(ISO8601.format($1.start!, utcOffset: 0))" })")
        }
    }

    @Test("a series that ends is written with UNTIL (a date, or the last instance's instant in UTC), and recurring-ical-events reads the same dates as ours")
    func until() throws {
        let folder = try TemporaryFolder()
        let cases: [(String, WallTime?, Zone, String)] = [
            ("weekly on mon,thu from 2026-12-01 until 2026-12-14", WallTime(hour: 9, minute: 30), Self.berlin, "UNTIL=20261214T083000Z"),
            ("monthly on day 31 from 2026-01-01 until 2026-04-29", nil, Self.berlin, "UNTIL=20260429"),
            ("daily from 2026-03-27 until 2026-03-30", WallTime(hour: 2, minute: 30), Self.berlin, "UNTIL=20260330T003000Z"),
            ("every 2 weeks on fri from 2026-12-04 until 2027-01-29", WallTime(hour: 18, minute: 0), .utc, "UNTIL=20270129T180000Z"),
        ]
        var files: [String] = []
        for (i, (text, time, zone, until)) in cases.enumerated() {
            let schedule = try DawnletTestSupport.schedule(text)
            let item = ItemDefinition(kind: .event, id: Int64(i), title: "Series \(i)", time: time, schedule: schedule)
            let document = CalendarExport.document(item, stored: [], offsets: [], uid: "series-\(i)", zone: zone, stamp: Self.stamp)
            #expect(document.replacingOccurrences(of: "\r\n ", with: "").contains(";" + until + "\r\n"), "\(text): \(document)")
            files.append(folder.path("series-\(i).ics"))
            try document.write(toFile: files[i], atomically: true, encoding: .utf8)
        }
        let answers = try CalendarOracleTests().oracle(files, from: "20250101T000000Z", to: "20280101T000000Z")
        for (i, (text, _, _, _)) in cases.enumerated() {
            let schedule = try DawnletTestSupport.schedule(text)
            let ours = schedule.occurrences(in: date("2025-01-01")...date("2027-12-31"), defaultAnchor: schedule.anchor!).map(CalendarExport.basic)
            let theirs = (answers[i] as? [String] ?? []).map { String($0.split(separator: " ")[1].prefix(8)) }
            #expect(theirs == ours, "\(text)")
        }
    }

    @Test("every 12 months is written FREQ=YEARLY; DTSTAMP is the moment of export, and an item exported again unchanged keeps its file")
    func yearlyAndStamps() throws {
        let yearly = try DawnletTestSupport.schedule("yearly from 2027-03-31")
        #expect(yearly.rrule(anchor: yearly.anchor!).hasPrefix("FREQ=YEARLY;INTERVAL=1;BYMONTH=3;"), "\(yearly.rrule(anchor: yearly.anchor!))")
        let item = ItemDefinition(kind: .todo, id: 1, title: "Taxes", time: nil, schedule: yearly)
        let text = CalendarExport.document(item, stored: [], offsets: [], uid: "y", zone: Self.berlin, stamp: Self.stamp)
        #expect(text.contains("\r\nDTSTAMP:\(CalendarExport.basic(Self.stamp))\r\n"))
        let later = CalendarExport.document(item, stored: [], offsets: [], uid: "y", zone: Self.berlin, stamp: Self.stamp.adding(seconds: 86_400))
        #expect(later != text && CalendarExport.sameButStamps(later, text))
        let renamed = ItemDefinition(kind: .todo, id: 1, title: "Tax return", time: nil, schedule: yearly)
        #expect(!CalendarExport.sameButStamps(CalendarExport.document(renamed, stored: [], offsets: [], uid: "y", zone: Self.berlin, stamp: Self.stamp), text))
    }
}
