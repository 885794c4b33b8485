import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation

/// The runner's figures (issue 5): wake-ups while idle, fire latency, idle memory, re-plan time.
/// Each starts the release binary's `serve` as its own process.
enum RunnerBench {
    static func run(binary: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dawnlet-runner-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stamps = folder.appendingPathComponent("stamps").path
        try FileManager.default.createDirectory(atPath: stamps, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config.json5").path
        // The command channel (the desktop one would first look for a notification server) writes
        // the (fake) time it started to a file named after the reminder key.
        // A fixed script of ours: no user text reaches this shell.
        try """
            { timeZone: "UTC", route: { default: ["command"] },
              channels: { command: { argv: ["/bin/sh", "-c", "date +%s.%N > \\"$0\\"", "\(stamps)/{key}"] } } }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        print("runner: `dawnlet-remind serve`, release build")

        // Idle: nothing due for a year; count the process's voluntary context switches.
        let idleDB = folder.appendingPathComponent("idle.sqlite").path
        let idle = try spawn(binary, ["--db", idleDB, "--config", config, "serve"], faketime: nil)
        usleep(1_000_000)
        let before = status(idle, "voluntary_ctxt_switches")
        let rss = status(idle, "VmRSS")
        let anonymous = status(idle, "RssAnon"), fileBacked = status(idle, "RssFile")
        let rollup = (try? String(contentsOfFile: "/proc/\(idle)/smaps_rollup", encoding: .utf8)) ?? ""
        let pss = rollup.split(separator: "\n").first { $0.hasPrefix("Pss:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
        let idleSeconds = Int(ProcessInfo.processInfo.environment["DAWNLET_BENCH_IDLE_SECONDS"] ?? "") ?? 60
        sleep(UInt32(idleSeconds))
        let after = status(idle, "voluntary_ctxt_switches")
        print("  idle for \(idleSeconds) s with nothing due: \(after - before) wake-ups (voluntary context switches in /proc/PID/status; target 0)")
        print("  idle RSS: \(rss / 1024) MiB (\(rss) KiB, VmRSS; target < 20 MB): \(anonymous) KiB its own (anonymous),"
              + " \(fileBacked) KiB clean pages of the binary and shared libraries; PSS \(pss) KiB")

        // Re-plan: time from a CLI write until the runner has a new plan (its next STATUS).
        let socket = try NotifySocket(path: folder.appendingPathComponent("notify.sock").path)
        terminate(idle)
        let watched = try spawn(binary, ["--db", idleDB, "--config", config, "serve"], faketime: nil,
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
            print(String(format: "  re-plan after a CLI write (todo add → new STATUS, 100 ms debounce included): median %.0f ms, worst %.0f ms",
                         replans[replans.count / 2] * 1000, replans[replans.count - 1] * 1000))
        }

        // Latency: 25 rounds, each starting serve under faketime 1.5 s before a minute at which two
        // reminders are due; the touch's mtime minus the due instant.
        var latencies: [Double] = []
        for round in 0..<25 {
            let db = folder.appendingPathComponent("latency-\(round).sqlite").path
            let minute = String(format: "%02d", round)
            for (i, kind) in ["todo", "habit"].enumerated() {
                let arguments = kind == "todo"
                    ? ["--db", db, "--config", config, "todo", "add", "T\(i)", "--due", "2026-12-01T10:\(minute)"]
                    : ["--db", db, "--config", config, "habit", "add", "H\(i)", "--days", "tue", "--at", "10:\(minute)", "--from", "2026-11-01"]
                _ = try OrganizerBench.timeProcess(binary, arguments)
            }
            let due = Double((CivilDate(year: 2026, month: 12, day: 1)?.dayNumber ?? 0) * 86_400 + 36_000 + round * 60)
            // The fake clock starts two seconds before the due minute.
            let start = ISO8601.format(Instant(secondsSinceEpoch: Int64(due) - 2), utcOffset: 0).prefix(19).replacingOccurrences(of: "T", with: " ")
            let server = try spawnUnderFaketime(binary, ["--db", db, "--config", config, "serve"], start: start)
            usleep(3_000_000)
            terminate(server.runner)
            var status: Int32 = 0
            waitpid(server.wrapper, &status, 0)
            for key in ["todo:1:2026-12-01:0m", "habit:1:2026-12-01:0m"] {
                if let text = try? String(contentsOfFile: "\(stamps)/\(key)", encoding: .utf8),
                   let started = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    latencies.append(started - due)
                }
                unlink("\(stamps)/\(key)")
            }
        }
        latencies.sort()
        if latencies.isEmpty {
            print("  fire latency: no reminder fired (is faketime installed? run `make deps`)")
        } else {
            print(String(format: "  fire latency over %d reminders (command start after the due instant): median %.1f ms, worst %.1f ms (target: median < 5 ms, worst < 20 ms)",
                         latencies.count, latencies[latencies.count / 2] * 1000, latencies[latencies.count - 1] * 1000))
        }
    }

    /// A field of /proc/PID/status as a number (kB for sizes).
    static func status(_ pid: pid_t, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// `serve` under the faketime wrapper (which forks the runner and waits), its clock starting at
    /// `start` (UTC); returns both pids.
    static func spawnUnderFaketime(_ binary: String, _ arguments: [String], start: String) throws -> (wrapper: pid_t, runner: pid_t) {
        let wrapper = try spawn("/usr/bin/faketime", [start, binary] + arguments, faketime: nil)
        guard let runner = childRunning(binary, under: wrapper) else { throw CocoaError(.executableLoad) }
        return (wrapper, runner)
    }

    /// Starts a program with this environment plus `environment`, stderr to /dev/null.
    static func spawn(_ binary: String, _ arguments: [String], faketime: String?, environment: [String: String] = [:]) throws -> pid_t {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { throw CocoaError(.executableLoad) }
        return pid
    }

    static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
