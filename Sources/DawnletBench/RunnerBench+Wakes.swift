import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation

/// The runner's wake-ups around deliveries: between a nag's returns, and idle after a burst on
/// every channel.
extension RunnerBench {
    /// A reminder that nags (every 10 s, for 40 s: four returns) on the command channel: the
    /// runner's wake-ups in each wait between two returns (from just after one went out to just
    /// before the next is due; target 0), each return's lateness, and the wake-ups once it is over.
    static func nagWakes(binary: String, folder: URL) throws {
        let run = folder.appendingPathComponent("nag")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        let stamps = run.appendingPathComponent("stamps").path
        try FileManager.default.createDirectory(atPath: stamps, withIntermediateDirectories: true)
        let recorder = try recorder(in: run)
        let config = run.appendingPathComponent("nag.json5").path
        try """
        { timeZone: "UTC", nagFor: "40s", route: { default: ["command"] }, channels: { command: { argv: ["\(recorder)", "\(stamps)/return{repeat}"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let db = run.appendingPathComponent("nag.sqlite").path
        let now = Int(Date().timeIntervalSince1970)
        let due = (now + 5 + 59) / 60 * 60
        let when = ISO8601.format(Instant(secondsSinceEpoch: Int64(due)), utcOffset: 0).prefix(16)
        _ = try OrganizerBench.timeProcess(binary, ["--db", db, "--config", config, "todo", "add", "Pills", "--due", String(when), "--nag", "10s"])
        let runner = try spawn(binary, ["--db", db, "--config", config, "serve"], faketime: nil)
        defer { terminate(runner) }
        func stamp(_ name: String) -> Double? {
            (try? String(contentsOfFile: "\(stamps)/\(name)", encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        func waitFor(_ name: String, until deadline: Date) -> Double? {
            while Date() < deadline {
                if let at = stamp(name) { return at }
                usleep(20_000)
            }
            return nil
        }
        // The first going out ("return", {repeat} empty), then returns 1 to 4.
        guard let first = waitFor("return", until: Date().addingTimeInterval(Double(due - now) + 20)) else {
            return print("  nag: the reminder did not go out")
        }
        var between: [Int] = []
        var lateness: [Double] = []
        var last = first
        for k in 1...4 {
            // From half a second after the last went out to half a second before the next is due
            // (instants are whole seconds: the first going out's, plus ten a return).
            let next = first.rounded(.down) + Double(10 * k)
            usleep(useconds_t(max(0, last + 0.5 - Date().timeIntervalSince1970) * 1_000_000))
            let before = switches(runner)
            usleep(useconds_t(max(0, next - 0.5 - Date().timeIntervalSince1970) * 1_000_000))
            between.append(switches(runner) - before)
            guard let at = waitFor("return\(k)", until: Date().addingTimeInterval(5)) else { return print("  nag: return \(k) did not go out") }
            lateness.append(at - next)
            last = at
        }
        usleep(500_000)
        let before = switches(runner)
        sleep(20)
        let after = switches(runner) - before
        print(
            "  nag every 10 s for 40 s (command channel): wake-ups between returns \(between) (target 0 each); each return after its instant: "
                + lateness.map { String(format: "%.1f ms", $0 * 1000) }.joined(separator: ", ") + "; after the last, 20 s idle: \(after) wake-ups")
    }

    /// Idle after deliveries: 67 reminders due at one instant on the command, desktop
    /// (dunst under Xvfb on a private bus) and email (aiosmtpd) channels, 201 deliveries; then 60 s
    /// of nothing due: wake-ups of every thread, and the memory it keeps.
    /// With `calendar`, a vdir of 200 events of 2025 (CalendarBench's, none repeating, so none due)
    /// is configured too: libical is loaded and the files read at each plan.
    static func afterDeliveries(binary: String, folder: URL, calendar: Bool) throws {
        let run = folder.appendingPathComponent(calendar ? "with-calendar" : "without-calendar")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        let folder = run
        var calendars = ""
        if calendar {
            let vdir = folder.appendingPathComponent("vdir")
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            try CalendarBench.writeVdir(vdir, events: 200, year: 2025, repeating: false)
            calendars = ", calendars: [ { name: \"bench\", path: \"\(vdir.path)\" } ]"
        }
        let stamps = folder.appendingPathComponent("delivery-stamps").path
        try FileManager.default.createDirectory(atPath: stamps, withIntermediateDirectories: true)
        let recorder = try recorder(in: folder)
        let servers = try TemporaryFolder()
        let desktop = try DesktopSession(notificationServer: true)
        let smtp = try SMTPServer(folder: servers, mode: "accept")
        let config = folder.appendingPathComponent("deliveries.json5").path
        try """
        { timeZone: "UTC", route: { default: ["command", "desktop", "email"] },
          channels: { command: { argv: ["\(recorder)", "\(stamps)/{key}"] }, desktop: { expire: "1s" },
                      email: { url: "smtp://127.0.0.1:\(smtp.port)", tls: "none", from: "dawnlet@example.org", to: ["me@example.org"] } }\(calendars) }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let db = folder.appendingPathComponent("deliveries.sqlite").path
        // Due at the next minute that is at least 5 s away, on the real clock (sd-bus does not
        // work under libfaketime: it shifts the monotonic timerfds sd-bus uses).
        let now = Int(Date().timeIntervalSince1970)
        let due = (now + 5 + 59) / 60 * 60
        let when = ISO8601.format(Instant(secondsSinceEpoch: Int64(due)), utcOffset: 0).prefix(16)
        let count = 67
        for i in 0..<count {
            _ = try OrganizerBench.timeProcess(binary, ["--db", db, "--config", config, "todo", "add", "Bench \(i)", "--due", String(when)])
        }
        let serveLog = folder.appendingPathComponent("deliveries-serve.log").path
        let runner = try spawn(binary, ["--db", db, "--config", config, "serve"], faketime: nil, environment: desktop.environment, stderr: serveLog)
        defer { terminate(runner) }
        let expected = count * 3
        let deadline = Date().addingTimeInterval(Double(due - now) + 60)
        var recorded = 0
        while Date() < deadline {
            recorded = deliveries(db)
            if recorded >= expected { break }
            usleep(200_000)
        }
        guard recorded >= expected else {
            let log = (try? String(contentsOfFile: serveLog, encoding: .utf8)) ?? ""
            print("  after deliveries: only \(recorded) of \(expected) deliveries were recorded within a minute; the runner said:")
            for line in log.split(separator: "\n").filter({ !$0.contains(" delivered ") }).suffix(15) { print("    \(line)") }
            return
        }
        // dunst closes each notification a second after it shows it (a few at a time), and says so
        // on the bus: the runner records each. Idle is measured once all of that is over.
        let closings = Date().addingTimeInterval(180)
        while Date() < closings && responses(db).closed < responses(db).shown { usleep(500_000) }
        usleep(500_000)
        let mails = (try? smtp.messages().count) ?? -1
        let threads = taskCount(runner)
        let before = switches(runner)
        let idleSeconds = Int(ProcessInfo.processInfo.environment["DAWNLET_BENCH_IDLE_SECONDS"] ?? "") ?? 60
        sleep(UInt32(idleSeconds))
        let after = switches(runner)
        let rss = status(runner, "VmRSS"), anonymous = status(runner, "RssAnon")
        print(
            "  \(calendar ? "with a calendar of 200 events configured, a" : "A")fter \(expected) deliveries at one instant (\(count) on each of command, desktop through dunst, email through aiosmtpd: \(mails) messages arrived;"
                + " \(responses(db).shown) shown as notifications, \(responses(db).closed) reported closed by dunst):")
        print("    idle \(idleSeconds) s: \(after - before) wake-ups over all \(threads) thread(s) (voluntary context switches of /proc/PID/task/*; target 0)")
        print(
            String(format: "    idle RSS: %.1f MiB (%d KiB VmRSS, %d KiB anonymous; target ≤ %d MiB)", Double(rss) / 1024, rss, anonymous, calendar ? 16 : 12))
        print("    resident by file (smaps): \(residentFiles(runner))")
    }

    /// Rows of the delivery log that are settled (delivered or failed), read with the CLI's own store.
    static func deliveries(_ db: String) -> Int {
        guard let store = try? Store(path: db) else { return 0 }
        return ((try? store.log.deliveries(.delivered).count) ?? 0) + ((try? store.log.deliveries(.failed).count) ?? 0)
    }

    /// Desktop deliveries shown as notifications, and those the server has reported closed.
    static func responses(_ db: String) -> (shown: Int, closed: Int) {
        guard let store = try? Store(path: db) else { return (0, 0) }
        let shown = ((try? store.log.deliveries(.delivered)) ?? []).filter { $0.channel == .desktop && $0.notificationID != nil }
        return (shown.count, shown.filter { $0.response != nil }.count)
    }
}
