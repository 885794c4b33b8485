import DawnletCore
import DawnletTestSupport
import Foundation

/// Fire latency of reminders due at one instant, each figure beside its limit measured in the same
/// run: a small C program that sleeps on a CLOCK_REALTIME timerfd until the same kind of instant
/// and then `posix_spawn`s the same recorder as many times. Serve's rounds and the limit's run in
/// turns, a second apart, so both see the same machine.
extension RunnerBench {
    /// Each recorder's start after its due instant, in seconds: serve's and the limit's.
    struct LatencyTurns {
        var serve: [Double] = []
        var limit: [Double] = []
        var missing = 0
    }

    /// The limit: `limit DUE N RECORDER PREFIX` waits for the wall clock's second DUE on a timerfd,
    /// then spawns RECORDER PREFIXi for i in 0..<N, one after another, and waits for them.
    static func limitProgram(in folder: URL) throws -> String {
        let source = folder.appendingPathComponent("limit.c").path
        let program = folder.appendingPathComponent("limit").path
        try """
        #include <spawn.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <sys/timerfd.h>
        #include <sys/wait.h>
        #include <time.h>
        #include <unistd.h>
        extern char **environ;
        int main(int argc, char **argv) {
            if (argc < 5) return 2;
            long long due = atoll(argv[1]);
            int n = atoi(argv[2]);
            if (n < 1 || n > 1000) return 2;
            char **paths = calloc(n, sizeof *paths);
            pid_t *pids = calloc(n, sizeof *pids);
            for (int i = 0; i < n; i++) {
                paths[i] = malloc(4096);
                snprintf(paths[i], 4096, "%s%d", argv[4], i);
            }
            int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
            struct itimerspec spec = {0};
            spec.it_value.tv_sec = due;
            if (fd < 0 || timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL) != 0) return 1;
            uint64_t expirations;
            if (read(fd, &expirations, sizeof expirations) != sizeof expirations) return 1;
            for (int i = 0; i < n; i++) {
                char *args[] = { argv[3], paths[i], NULL };
                if (posix_spawn(&pids[i], argv[3], NULL, NULL, args, environ) != 0) return 1;
            }
            for (int i = 0; i < n; i++) waitpid(pids[i], NULL, 0);
            return 0;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let compiler else { throw TestServerError("no C compiler for the limit: run `make deps`") }
        let (status, text) = try runTool(compiler, ["-O2", "-o", program, source], environment: ["PATH": "/usr/bin:/bin"])
        guard status == 0 else { throw TestServerError("cannot compile the limit: \(text)") }
        return program
    }

    /// Fire latency on the real clock: for 1, 5 and 50 reminders due at one instant (VALARMs with
    /// an absolute trigger in a calendar file: our own items are due on whole minutes, and
    /// libfaketime would add its own start-up to the recorder's), serve started 2 s before it; and
    /// the first fire after an idle minute. DAWNLET_BENCH_ROUNDS (20) and DAWNLET_BENCH_IDLE_SECONDS
    /// (60) shorten it.
    static func latency(binary: String, folder: URL) throws {
        let recorder = try recorder(in: folder)
        let limit = try limitProgram(in: folder)
        let environment = ProcessInfo.processInfo.environment
        let rounds = max(1, Int(environment["DAWNLET_BENCH_ROUNDS"] ?? "") ?? 20)
        let idleSeconds = Int(environment["DAWNLET_BENCH_IDLE_SECONDS"] ?? "") ?? 60
        for (together, count) in [(1, rounds), (5, rounds), (50, max(1, rounds / 2))] {
            let turns = try latencyTurns(binary, recorder, limit, folder, together: together, rounds: count, lead: 2)
            report(turns, "\(together) due at one instant, serve started 2 s before, \(count) rounds")
        }
        let idle = try latencyTurns(binary, recorder, limit, folder, together: 5, rounds: 2, lead: Double(idleSeconds))
        report(idle, "5 due at one instant, the first fire after \(idleSeconds) s idle, 2 rounds")
    }

    /// `rounds` rounds; in each, serve and the limit start together and sleep, one due at a whole
    /// second at least `lead` seconds away and the other a second later (which goes first alternates).
    static func latencyTurns(
        _ binary: String, _ recorder: String, _ limit: String, _ folder: URL, together: Int, rounds: Int, lead: Double
    ) throws -> LatencyTurns {
        var turns = LatencyTurns()
        for round in 0..<rounds {
            let label = "latency-\(together)-\(Int(lead))-\(round)"
            let stamps = folder.appendingPathComponent("\(label)-stamps").path
            let limitStamps = folder.appendingPathComponent("\(label)-limit").path
            let vdir = folder.appendingPathComponent("\(label)-calendar").path
            for path in [stamps, limitStamps, vdir] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
            let config = folder.appendingPathComponent("\(label).json5").path
            try """
            { timeZone: "UTC", route: { default: ["command"] }, channels: { command: { argv: ["\(recorder)", "\(stamps)/{key}"] } },
              calendars: [{ name: "bench", path: "\(vdir)" }] }
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let first = Int64((Date().timeIntervalSince1970 + lead).rounded(.up))
            let serveFirst = round % 2 == 0
            let due = serveFirst ? first : first + 1
            let limitDue = serveFirst ? first + 1 : first
            func utc(_ seconds: Int64) -> String { CalendarExport.basic(Instant(secondsSinceEpoch: seconds)) }
            let events = (1...together).map { i in
                """
                BEGIN:VEVENT\r\nUID:bench-\(i)\r\nDTSTAMP:\(utc(due))\r\nDTSTART:\(utc(due + 3_600))\r\nSUMMARY:Bench \(i)\r\n\
                BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Bench \(i)\r\nTRIGGER;VALUE=DATE-TIME:\(utc(due))\r\nEND:VALARM\r\nEND:VEVENT\r\n
                """
            }
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//dawnlet bench//EN\r\n" + events.joined() + "END:VCALENDAR\r\n")
                .write(toFile: vdir + "/bench.ics", atomically: true, encoding: .utf8)
            let db = folder.appendingPathComponent("\(label).sqlite").path
            let server = try spawn(binary, ["--db", db, "--config", config, "serve"], faketime: nil)
            let limiter = try spawn(limit, ["\(limitDue)", "\(together)", recorder, "\(limitStamps)/limit-"], faketime: nil)
            func names(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
            let deadline = Date(timeIntervalSince1970: Double(max(due, limitDue)) + 10)
            while Date() < deadline {
                if names(stamps).count >= together && names(limitStamps).count >= together { break }
                usleep(20_000)
            }
            usleep(100_000)
            terminate(server)
            if names(limitStamps).count < together { kill(limiter, SIGKILL) }
            var status: Int32 = 0
            while waitpid(limiter, &status, 0) == -1 && errno == EINTR {}
            func read(_ folder: String, due: Int64) -> [Double] {
                names(folder).compactMap { name in
                    (try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8))
                        .flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map { $0 - Double(due) }
                }
            }
            let served = read(stamps, due: due), limited = read(limitStamps, due: limitDue)
            turns.serve += served
            turns.limit += limited
            turns.missing += 2 * together - served.count - limited.count
        }
        return turns
    }

    /// One line: serve's min/median/max beside the limit's, the ratio of the medians and how much
    /// later serve's worst is than the limit's.
    static func report(_ turns: LatencyTurns, _ what: String) {
        guard !turns.serve.isEmpty, !turns.limit.isEmpty, turns.missing == 0 else {
            return print("  fire latency, \(what): \(turns.missing) recorders did not start (serve \(turns.serve.count), limit \(turns.limit.count))")
        }
        func figures(_ values: [Double]) -> (min: Double, median: Double, max: Double) {
            let sorted = values.sorted()
            return (sorted[0] * 1000, sorted[sorted.count / 2] * 1000, sorted[sorted.count - 1] * 1000)
        }
        let serve = figures(turns.serve), limit = figures(turns.limit)
        print(
            String(
                format:
                    "  fire latency, %@ (%d recorders each; a recorder's start after the due instant): serve min/median/max %.1f/%.1f/%.1f ms,"
                    + " limit (C timerfd + posix_spawn) %.1f/%.1f/%.1f ms: median %.2fx the limit's (goal <= 1.1x), worst %+.1f ms past the limit's (goal <= +1 ms)",
                what, turns.serve.count, serve.min, serve.median, serve.max, limit.min, limit.median, limit.max, serve.median / limit.median,
                serve.max - limit.max))
    }
}
