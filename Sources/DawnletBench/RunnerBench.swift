import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation

/// The runner's figures: wake-ups while idle before and after deliveries, fire
/// latency of reminders due together, idle memory, re-plan time.
/// Each starts the release binary's `serve` as its own process.
enum RunnerBench {
    static func run(binary: String) throws {
        let scratch = try BenchFolder("runner-bench")
        defer { scratch.finish() }
        let folder = scratch.url
        let config = folder.appendingPathComponent("config.json5").path
        // Nothing here is due: the channel is never used.
        try """
        { timeZone: "UTC", route: { default: ["command"] }, channels: { command: { argv: ["/bin/true"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        print("runner: `dawnlet-remind serve`, release build")
        let size = ((try? FileManager.default.attributesOfItem(atPath: binary)[.size]) as? Int) ?? -1
        print(String(format: "  the shipped binary (%@, static Swift runtime): %.1f MB (%d bytes; stat -c %%s)", binary, Double(size) / 1e6, size))

        // Idle: nothing due for a year; count the process's voluntary context switches.
        let idleDB = folder.appendingPathComponent("idle.sqlite").path
        let idle = try spawn(binary, ["--db", idleDB, "--config", config, "serve"], faketime: nil)
        usleep(1_000_000)
        let before = switches(idle)
        let rss = status(idle, "VmRSS")
        let anonymous = status(idle, "RssAnon"), fileBacked = status(idle, "RssFile")
        let rollup = (try? String(contentsOfFile: "/proc/\(idle)/smaps_rollup", encoding: .utf8)) ?? ""
        let pss =
            rollup.split(separator: "\n").first { $0.hasPrefix("Pss:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
        let idleSeconds = Int(ProcessInfo.processInfo.environment["DAWNLET_BENCH_IDLE_SECONDS"] ?? "") ?? 60
        sleep(UInt32(idleSeconds))
        let after = switches(idle)
        print("  idle for \(idleSeconds) s with nothing ever delivered: \(after - before) wake-ups (voluntary context switches of /proc/PID/task/*; target 0)")
        print(
            "  idle RSS: \(rss / 1024) MiB (\(rss) KiB, VmRSS; target < 20 MB): \(anonymous) KiB its own (anonymous),"
                + " \(fileBacked) KiB clean pages of the binary and shared libraries; PSS \(pss) KiB")
        print("  resident by file (smaps): \(residentFiles(idle))")

        // Re-plan: time from a CLI write until the runner has a new plan (its next STATUS).
        let socket = try NotifySocket(path: folder.appendingPathComponent("notify.sock").path)
        terminate(idle)
        let watched = try spawn(
            binary, ["--db", idleDB, "--config", config, "serve"], faketime: nil,
            environment: ["NOTIFY_SOCKET": socket.path])
        _ = socket.wait(for: "READY=1", seconds: 10)
        var replans: [Double] = []
        for i in 0..<10 {
            let start = ContinuousClock.now
            _ = try OrganizerBench.timeProcess(binary, ["--db", idleDB, "todo", "add", "Later \(i)", "--due", "2099-01-0\(1 + i % 9)"])
            guard socket.wait(for: "STATUS=", seconds: 10) else { break }
            replans.append(seconds(ContinuousClock.now - start))
            usleep(200_000)
        }
        terminate(watched)
        replans.sort()
        if !replans.isEmpty {
            print(
                String(
                    format: "  re-plan after a CLI write (todo add → new STATUS, 100 ms debounce included): median %.0f ms, worst %.0f ms",
                    replans[replans.count / 2] * 1000, replans[replans.count - 1] * 1000))
        }

        try replanCosts(binary: binary, folder: folder)
        try latency(binary: binary, folder: folder)
        try nagWakes(binary: binary, folder: folder)
        try afterDeliveries(binary: binary, folder: folder, calendar: false)
        try afterDeliveries(binary: binary, folder: folder, calendar: true)
    }

    /// What a re-plan of `serve` costs, as its log says (`planned (…) (N reminders in X
    /// ms)`, the debounce not included): after one CLI write on 10,000 definitions, and on 5,000
    /// daily todos with three reminders each and a 366-day horizon (with the runner's peak memory).
    static func replanCosts(binary: String, folder: URL) throws {
        func planLines(_ log: String) -> [(reason: String, reminders: Int, milliseconds: Double)] {
            log.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: "planned ("),
                    let cost = line.range(of: " reminders in ", options: .backwards) ?? line.range(of: " reminder in ", options: .backwards),
                    let open = line[..<cost.lowerBound].lastIndex(of: "("), let ms = Double(line[cost.upperBound...].prefix { $0 != " " })
                else { return nil }
                let reason = line[start.upperBound...].prefix { $0 != ")" }
                return (String(reason), Int(line[line.index(after: open)..<cost.lowerBound]) ?? -1, ms)
            }
        }
        func serve(_ db: String, _ config: String, _ label: String, writes: Int, moneyWrites: Int = 0) throws {
            let log = folder.appendingPathComponent("\(label).log").path
            let runner = try spawn(binary, ["--db", db, "--config", config, "serve"], faketime: nil, stderr: log)
            defer { terminate(runner) }
            func lines() -> [(reason: String, reminders: Int, milliseconds: Double)] { planLines((try? String(contentsOfFile: log, encoding: .utf8)) ?? "") }
            func wait(for count: Int) -> Bool {
                let deadline = Date().addingTimeInterval(120)
                while Date() < deadline { if lines().count >= count { return true }; usleep(20_000) }
                return false
            }
            guard wait(for: 1) else { return print("  \(label): serve made no plan within 2 minutes") }
            for i in 0..<writes + moneyWrites {
                let write =
                    i < writes
                    ? ["todo", "add", "Later \(i)", "--due", "2099-01-0\(1 + i % 9)"]
                    : ["debt", "add", "Loan \(i)", "--balance", "1000", "--minimum", "50", "--day", "\(1 + i % 28)"]
                _ = try OrganizerBench.timeProcess(binary, ["--db", db, "--config", config] + write)
                guard wait(for: 2 + i) else { break }
            }
            let all = lines()
            let first = all[0]
            // "database changed, 1 item changed" is a splice; "database changed" alone a whole plan.
            func figure(_ writes: ArraySlice<(reason: String, reminders: Int, milliseconds: Double)>) -> String {
                let after = writes.map(\.milliseconds).sorted()
                let spliced = writes.filter { $0.reason.hasSuffix(" changed") && $0.reason != "database changed" }.count
                return String(
                    format: "median %.1f ms, worst %.1f ms of %d (%d spliced)", after.isEmpty ? -1.0 : after[after.count / 2], after.last ?? -1.0, after.count,
                    spliced)
            }
            let changed = all.dropFirst().filter { $0.reason.hasPrefix("database changed") }
            print(
                String(
                    format:
                        "  %@: first plan %d reminders in %.1f ms; re-plan after one CLI write (debounce excluded, serve's log): todo add %@%@; peak RSS %.1f MiB (VmHWM)",
                    label, first.reminders, first.milliseconds, figure(changed.prefix(writes)),
                    moneyWrites == 0 ? "" : ", debt add " + figure(changed.dropFirst(writes)), Double(status(runner, "VmHWM")) / 1024))
        }
        let config = folder.appendingPathComponent("replan.json5").path
        try "{ timeZone: \"UTC\", route: { default: [\"command\"] }, channels: { command: { argv: [\"/bin/true\"] } } }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let organizer = folder.appendingPathComponent("organizer.sqlite").path
        OrganizerBench.populate(path: organizer, today: ISO8601.localDate(of: Instant(Date()), in: Zone.utc).date)
        try serve(organizer, config, "10,000 definitions (the organizer database; target ≤ 5 ms)", writes: 10, moneyWrites: 5)

        let daily = folder.appendingPathComponent("daily.sqlite").path
        let store = try Store(path: daily)
        let today = ISO8601.localDate(of: Instant(Date()), in: Zone.utc).date
        var rng = SeededRandom(seed: 5)
        for i in 0..<5_000 {
            _ = try store.items.addItem(
                kind: .todo, title: "Daily \(i)", date: nil,
                time: WallTime(hour: Int.random(in: 6...21, using: &rng), minute: Int.random(in: 0...59, using: &rng)),
                schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: 127)), anchor: today),
                reminders: [.minutes(0), .minutes(10), .hours(1)], today: today)
        }
        let yearConfig = folder.appendingPathComponent("replan-year.json5").path
        try "{ timeZone: \"UTC\", horizon: \"366d\", route: { default: [\"command\"] }, channels: { command: { argv: [\"/bin/true\"] } } }"
            .write(toFile: yearConfig, atomically: true, encoding: .utf8)
        try serve(daily, yearConfig, "5,000 daily todos × 3 reminders, horizon 366d (target ≤ 100 ms, ≤ 50 MiB)", writes: 5)
    }

    /// A compiled recorder (a script's start-up would be the figure): writes the instant it started to the file named by its
    /// argument. A shell or an interpreter would spend milliseconds starting; this is the figure.
    static func recorder(in folder: URL) throws -> String {
        let source = folder.appendingPathComponent("recorder.c").path
        let program = folder.appendingPathComponent("recorder").path
        try """
        #include <stdio.h>
        #include <time.h>
        int main(int argc, char **argv) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            if (argc < 2) return 2;
            FILE *f = fopen(argv[1], "w");
            if (!f) return 1;
            fprintf(f, "%lld.%09ld\\n", (long long)ts.tv_sec, ts.tv_nsec);
            return fclose(f) == 0 ? 0 : 1;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let compiler else { throw TestServerError("no C compiler for the recorder: run `make deps`") }
        let (status, text) = try runTool(compiler, ["-O2", "-o", program, source], environment: ["PATH": "/usr/bin:/bin"])
        guard status == 0 else { throw TestServerError("cannot compile the recorder: \(text)") }
        return program
    }
}
