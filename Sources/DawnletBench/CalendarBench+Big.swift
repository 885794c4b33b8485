import DawnletCore
import DawnletStore
import DawnletSystem
import Foundation

/// The calendar figure, second part: a vdir of 50,000 events planned whole. `preview --days 7`
/// against reading the same files (warm cache), and the calendar reading of serve's re-plan after
/// one file changed (files kept parsed between plans) against reading every file again.
extension CalendarBench {
    static func runBig(binary: String) throws {
        let scratch = try BenchFolder("vdir-bench-50000")
        defer { scratch.finish() }
        let folder = scratch.url.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeVdir(folder, events: 50_000)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { "\(folder.path)/\($0)" }
        let clock = ContinuousClock()
        func statistics(_ values: [Double]) -> (min: Double, median: Double, max: Double) {
            let sorted = values.sorted()
            return (sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1])
        }
        // Reading the files: each opened and read whole, as the reader does (the page cache warm).
        func readAll() -> Double {
            seconds(clock.measure { for file in files { _ = RegularFile.read(file, limit: CalendarReader.maximumFileBytes) } })
        }
        _ = readAll()
        var reads: [Double] = []
        for _ in 0..<5 { reads.append(readAll()) }
        // And as `cat` reads them, a process of its own.
        var cats: [Double] = []
        for _ in 0..<5 { cats.append(try OrganizerBench.timeProcess("/bin/sh", ["-c", "cd \"$0\" && exec cat -- * > /dev/null", folder.path])) }

        let config = scratch.url.appendingPathComponent("config.json5").path
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"big\", path: \"\(folder.path)\" } ] }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let database = scratch.url.appendingPathComponent("bench.sqlite").path
        _ = try Store(path: database)
        let arguments = ["--db", database, "--config", config, "preview", "--now", "2026-11-30T00:00", "--days", "7"]
        let output = scratch.url.appendingPathComponent("preview.txt").path
        _ = try OrganizerBench.timeProcess(binary, arguments, stdout: output)
        var previews: [Double] = []
        for _ in 0..<5 { previews.append(try OrganizerBench.timeProcess(binary, arguments, stdout: output)) }
        let listed = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").components(separatedBy: " calendar ").count - 1
        let (r, c, p) = (statistics(reads), statistics(cats), statistics(previews))
        let ratios = statistics(zip(previews.sorted(), reads.sorted()).map { $0 / $1 })
        let catRatios = statistics(zip(previews.sorted(), cats.sorted()).map { $0 / $1 })
        print("calendar files: a vdir of 50,000 events (12,500 weekly), each with a VTIMEZONE and a VALARM")
        print(
            String(
                format: "  reading the files (open, read, close each; warm cache): min %.0f, median %.0f, max %.0f ms of 5", r.min * 1000, r.median * 1000,
                r.max * 1000))
        print(
            String(
                format: "  preview --days 7 (cold process, %d reminders listed): min %.0f, median %.0f, max %.0f ms of 5", listed, p.min * 1000,
                p.median * 1000, p.max * 1000))
        print(String(format: "  cat -- * > /dev/null in the folder: min %.0f, median %.0f, max %.0f ms of 5", c.min * 1000, c.median * 1000, c.max * 1000))
        print(String(format: "  preview / cat: min %.2fx, median %.2fx, max %.2fx (target: <= 1.5x)", catRatios.min, catRatios.median, catRatios.max))
        print(String(format: "  preview / reading in process: min %.2fx, median %.2fx, max %.2fx", ratios.min, ratios.median, ratios.max))

        // serve's re-plan: the calendars read again with the files kept parsed, after one changed.
        let zone = try ZoneDatabase.system.zone(named: "Europe/Berlin")
        let from = zone.resolve(WallTime.midnight, on: CivilDate(year: 2026, month: 11, day: 30)!).instant
        let window = from...from.adding(seconds: 14 * 86_400)
        let cache = CalendarReader.Cache()
        var whole: [Double] = []
        var replans: [Double] = []
        var counts = (parsed: 0, kept: 0)
        // What the kept files cost: resident anonymous memory before and after they are kept.
        let before = RunnerBench.status(getpid(), "RssAnon")
        _ = CalendarReader.read(name: "big", path: folder.path, window: window, zone: zone, cache: cache)
        let kept = RunnerBench.status(getpid(), "RssAnon") - before
        for run in 0..<5 {
            whole.append(seconds(clock.measure { _ = CalendarReader.read(name: "big", path: folder.path, window: window, zone: zone) }))
            let changed = files[run * 997 % files.count]
            let text = try String(contentsOfFile: changed, encoding: .utf8).replacingOccurrences(of: "SUMMARY:Event", with: "SUMMARY:Changed")
            try text.write(toFile: changed, atomically: true, encoding: .utf8)
            cache.beginPlan()
            replans.append(seconds(clock.measure { _ = CalendarReader.read(name: "big", path: folder.path, window: window, zone: zone, cache: cache) }))
            counts = (cache.parsed, cache.reused)
        }
        let (w, q) = (statistics(whole), statistics(replans))
        print(
            String(
                format:
                    "  serve's calendar reading, 14 days: every file read and parsed: median %.0f ms; re-plan after one file changed (%d parsed, %d kept): min %.0f, median %.0f, max %.0f ms of 5",
                w.median * 1000, counts.parsed, counts.kept, q.min * 1000, q.median * 1000, q.max * 1000))
        print(
            String(
                format: "  the %d files kept parsed: about %.1f MiB resident (anonymous memory grown while they were kept)", cache.count, Double(kept) / 1024))
    }
}
