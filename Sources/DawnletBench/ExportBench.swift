import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation

/// Starts that read only what changed: `export` of 2,000 todos none of which changed, against a
/// process reading the same files (`cat`), in turns; `serve` reaching READY with those files
/// present; and a todo done → its file, while serve runs.
enum ExportBench {
    static func run(binary: String) throws {
        let scratch = try BenchFolder("export-bench")
        defer { scratch.finish() }
        let folder = scratch.url
        let database = folder.appendingPathComponent("export.sqlite").path
        let vdir = folder.appendingPathComponent("vdir").path
        let config = folder.appendingPathComponent("config.json5").path
        try """
        { timeZone: "UTC", export: { to: "\(vdir)" }, route: { default: ["command"] }, channels: { command: { argv: ["/bin/true"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let today = ISO8601.localDate(of: Instant(Date()), in: Zone.utc).date
        let store = try Store(path: database)
        var rng = SeededRandom(seed: 11)
        for i in 0..<2_000 {
            let repeating = i % 2 == 0
            _ = try store.items.addItem(
                kind: .todo, title: "Todo \(i)", date: repeating ? nil : today.adding(days: Int.random(in: 1...300, using: &rng)),
                time: WallTime(hour: 8 + i % 12, minute: 0),
                schedule: repeating
                    ? Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: UInt8.random(in: 1...127, using: &rng))), anchor: today) : nil,
                reminders: [.minutes(10)], details: OrganizerBench.details(i), today: today.adding(days: 300))
        }
        let export = ["--db", database, "--config", config, "export", "--to", vdir]
        print("export: 2,000 todos (half repeating, each with a note, a location and two tags) in a vdir, release, static")
        print(String(format: "  the first export, every file written: %.0f ms", try OrganizerBench.timeProcess(binary, export) * 1000))
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).sorted().map { "\(vdir)/\($0)" }
        // The files' times are well in the past before anything is measured against them.
        usleep(200_000)
        var ours: [Double] = [], reading: [Double] = []
        for _ in 0..<7 {
            ours.append(try OrganizerBench.timeProcess(binary, export))
            reading.append(try OrganizerBench.timeProcess("/bin/cat", files))
        }
        print("  export again, nothing changed: \(line(ours)); cat of the \(files.count) files: \(line(reading))")
        print(String(format: "    export/cat %.2f (target ≤ 3)", median(ours) / median(reading)))

        // serve: from exec to READY=1, the export folder's pass included.
        var ready: [Double] = []
        for i in 0..<5 {
            let socket = try NotifySocket(path: folder.appendingPathComponent("notify-\(i).sock").path)
            let start = ContinuousClock.now
            let runner = try RunnerBench.spawn(
                binary, ["--db", database, "--config", config, "serve"], faketime: nil, environment: ["NOTIFY_SOCKET": socket.path])
            let up = socket.wait(for: "READY=1", seconds: 60)
            ready.append(up ? seconds(ContinuousClock.now - start) : .infinity)
            RunnerBench.terminate(runner)
        }
        print("  serve with the 2,000 files present, exec to READY=1: \(line(ready)) (target ≤ 300 ms)")

        // A todo done here → its file says so, while serve runs: 50 one-off todos, one at a time.
        let socket = try NotifySocket(path: folder.appendingPathComponent("notify-done.sock").path)
        let runner = try RunnerBench.spawn(binary, ["--db", database, "--config", config, "serve"], faketime: nil, environment: ["NOTIFY_SOCKET": socket.path])
        defer { RunnerBench.terminate(runner) }
        _ = socket.wait(for: "READY=1", seconds: 60)
        let namespace = try Store(path: database, create: false).log.exportNamespace()
        var done: [Double] = []
        for id in stride(from: 2, through: 100, by: 2) {
            let file = "\(vdir)/dawnlet-\(namespace)-todo-\(id).ics"
            let start = ContinuousClock.now
            _ = try OrganizerBench.timeProcess(binary, ["--db", database, "--config", config, "todo", "done", "\(id)"])
            let deadline = start + .seconds(10)
            while ContinuousClock.now < deadline, !((try? String(contentsOfFile: file, encoding: .utf8))?.contains("STATUS:COMPLETED") ?? false) {
                usleep(1_000)
            }
            done.append(seconds(ContinuousClock.now - start))
        }
        print("  todo done → STATUS:COMPLETED in its file, serve running, 50 todos: \(line(done)) (target: worst ≤ 500 ms)")
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func line(_ values: [Double]) -> String {
        let s = values.sorted()
        return String(format: "min %.1f, median %.1f, max %.1f ms", s[0] * 1000, s[s.count / 2] * 1000, s[s.count - 1] * 1000)
    }
}
