import DawnletApp
import DawnletCCall
import DawnletCore
import DawnletRunner
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// `notify-test` (one test reminder through a real channel) and `doctor` (is everything the
/// runner needs in place?).
enum DeliveryCommands {
    static let commands: [Command] = [
        Command(
            path: ["notify-test"], usage: "notify-test [--channel desktop|command|email]",
            summary: "Send one test reminder through a channel (default: desktop, without its fallback) and say what happened.",
            options: [.value("channel")], run: notifyTest),
        Command(
            path: ["doctor"], usage: "doctor",
            summary: "Check the config, the database, the desktop notification server, email, calendar files, the export folder and the user unit.",
            options: [], runsDespiteConfigProblem: true, run: doctor),
        Command(
            path: ["mail-send"], usage: "mail-send < MESSAGE",
            summary: "Send one message (headers and body, read on stdin) as channels.email says; serve sends each email this way."
                + " Exits 75 when the failure is worth another try.",
            options: [], runsDespiteConfigProblem: true, run: mailSend),
    ]

    static func notifyTest(_ invocation: inout Invocation) throws {
        let name = invocation.arguments.value("channel") ?? "desktop"
        guard let channel = Channel(rawValue: name) else {
            throw CLIError.usage(
                "--channel must be one of \(Channel.allCases.map(\.rawValue).joined(separator: ", ")), not \(name)",
                invocation.globals.usage)
        }
        let zone = try invocation.timeZone()
        let now = Instant(Date())
        let message = ReminderMessage(
            title: "Dawnlet test reminder", body: "If you can read this, the \(channel) channel works.",
            key: .test(now), when: ISO8601.format(now, in: zone), late: false)
        let config = invocation.config
        if channel == .desktop {
            do {
                let (bus, server, capabilities, _) = try desktopServer()
                let id = try bus.notify(
                    DesktopNotification(
                        message, capabilities: capabilities, expire: config.desktop.expire,
                        snooze: config.desktop.snooze))
                // The server's name and capabilities are its own words.
                invocation.output.line(
                    DisplayText.shown(
                        "desktop: shown as notification \(id) by \(server)"
                            + " (capabilities: \(capabilities.sorted().joined(separator: ", ")))"))
            } catch {
                throw CLIError(code: .failure, message: "desktop: \(error)")
            }
            return
        }
        if channel == .email && config.email == nil {
            throw CLIError(code: .configError, message: "email: channels.email is not set up in the config")
        }
        let settings = Runner.Settings(databasePath: "", config: config, zone: zone)
        let outcome = try LoopChannels.deliverOnce(message, through: channel, settings: settings)
        guard outcome.state == .delivered else {
            throw CLIError(code: .failure, message: "\(channel): failed\(outcome.retry ? " (temporary)" : ""): \(outcome.detail ?? "")")
        }
        let target = channel == .email ? " to \(config.email?.to.joined(separator: ", ") ?? "")" : " (\(config.command.argv[0]))"
        invocation.output.line(DisplayText.shown("\(channel): delivered\(target)"))
    }

    /// The most `mail-send` reads from stdin: far more than any reminder's message.
    static let mailLimit = 1 << 20

    /// `mail-send`: one message from stdin, sent with the settings `serve` hands over in its
    /// environment (`Mailer.settingsVariable`), or else the config's `channels.email`. One line on
    /// stderr and the exit code say how it ended: 0 sent, 75 (EX_TEMPFAIL) a temporary failure,
    /// 1 a permanent one. The process ends as soon as the outcome is known (`Mailer.sendOnce`).
    static func mailSend(_ invocation: inout Invocation) throws {
        let environment = ProcessInfo.processInfo.environment
        let settings: Config.Email
        if let document = environment[Mailer.settingsVariable] {
            do {
                settings = try Config.Email(document: document)
            } catch {
                throw CLIError(code: .configError, message: "\(Mailer.settingsVariable): \(error)")
            }
        } else {
            if let problem = invocation.configProblem { throw problem }
            guard let email = invocation.config.email else {
                throw CLIError(code: .configError, message: "channels.email is not set up in the config")
            }
            settings = email
        }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = CCall.posix("read") { read(0, &chunk, chunk.count) }
            guard count >= 0 else { throw CLIError(code: .failure, message: "cannot read the message on stdin: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            text += chunk[0..<count]
            guard text.count <= mailLimit else { throw CLIError.data("the message is larger than \(mailLimit / 1024) KiB") }
        }
        guard !text.isEmpty else { throw CLIError.data("no message on stdin") }
        // SMTP lines end in CRLF: a message written with bare line feeds is sent with CRLF.
        var lines: [UInt8] = []
        lines.reserveCapacity(text.count + text.count / 32)
        for (i, byte) in text.enumerated() {
            if byte == 10, i == 0 || text[i - 1] != 13 { lines.append(13) }
            lines.append(byte)
        }
        invocation.output.flush()
        if let sendmail = settings.sendmail {
            let result = try CommandRunner.run(sendmail, environment: environment, timeout: settings.timeout, input: lines)
            if let error = Mailer.sendmailError(result, sendmail, timeout: settings.timeout) {
                throw CLIError(code: error.permanent ? .failure : .tempFail, message: error.message)
            }
            return
        }
        Mailer.sendOnce(lines, settings: settings, environment: environment) { error in
            // Ends here, before curl closes the connection: nothing after this may wait on the server.
            guard let error else { _exit(ExitCode.success.rawValue) }
            Output.error("\(CommandLineTool.name): \(error.message)")
            _exit((error.permanent ? ExitCode.failure : ExitCode.tempFail).rawValue)
        }
    }

    /// Our files gone from an export folder: held ones (many at once) are a failure that says what
    /// to do; items deleted elsewhere within the 30 days a note.
    static func exportDeletions(_ store: Store, now: Instant, _ report: (Bool?, String, String, String) -> Void) throws(StoreError) {
        var held: [String: [ExportRecord]] = [:]
        for (folder, record) in try store.log.heldExports() { held[folder, default: []].append(record) }
        for (folder, records) in held.sorted(by: { $0.key < $1.key }) {
            let items = records.map { "\($0.kind.rawValue) \($0.itemID)" }
            let restore = records.map { "`dawnlet-remind \($0.kind.rawValue) restore \($0.itemID)`" }
            let delete = records.map { "`dawnlet-remind \($0.kind.rawValue) delete \($0.itemID)`" }
            report(
                false, "export",
                "\(records.count) of our files went from \(folder) at once (\(items.joined(separator: ", "))), which looks like a folder emptied, "
                    + "unmounted or half synced rather than deletions: held, nothing deleted here and nothing written there",
                "if the folder is unmounted or a sync is unfinished, mount it or let the sync end (each file there again is written as before); "
                    + "if they were deleted on purpose, \(delete.joined(separator: ", ")); to write them again, \(restore.joined(separator: ", "))")
        }
        let deleted = try store.items.deletedElsewhere(since: now.adding(seconds: -CalendarSync.keptDeleted))
        if !deleted.isEmpty {
            report(
                nil, "export", "\(deleted.count) deleted on another device in the last 30 days (`dawnlet-remind deleted` lists them, each with its restore)", ""
            )
        }
    }

    static func doctor(_ invocation: inout Invocation) throws {
        // Every check is a line, passed or not; a failure says what to do about it. A line quotes
        // the config's values, paths, a calendar's problems and what the bus said: escaped once, whole.
        var failures = 0
        func report(_ ok: Bool?, _ what: String, _ text: String, fix: String = "") {
            let mark = ok == true ? "ok  " : ok == false ? "FAIL" : "note"
            if ok == false { failures += 1 }
            invocation.output.line(DisplayText.shown("\(mark) \(what): \(text)" + (ok == false && !fix.isEmpty ? "; to fix: \(fix)" : "")))
        }
        let config = invocation.config
        let environment = ProcessInfo.processInfo.environment
        let configPath = invocation.globals.configPath ?? ConfigFile.defaultPath()
        if let problem = invocation.configProblem {
            report(
                false, "config", problem.message + " (the checks below use the defaults)",
                fix: "correct the file where it says (`dawnlet-remind help config` lists every key)")
        } else {
            report(true, "config", "\(configPath) (\(FileManager.default.fileExists(atPath: configPath) ? "read" : "absent: defaults"))")
        }
        // A config written under the program's own name (or another near miss) is never read: say so.
        if invocation.globals.configPath == nil {
            let folder = String(configPath.dropLast("/dawnlet/config.json5".count))
            let misplaced = ["/\(CommandLineTool.name)/config.json5", "/\(CommandLineTool.name)/config.json", "/dawnlet/config.json"].map { folder + $0 }
            for other in misplaced where FileManager.default.fileExists(atPath: other) {
                let present = FileManager.default.fileExists(atPath: configPath)
                report(
                    present ? nil : false, "config", "\(other) is not read: the config is \(configPath)",
                    fix: "move it there (mv \(other) \(configPath)), or give --config")
            }
        }
        do {
            let zone = try invocation.timeZone()
            report(
                true, "time zone",
                zone.identifier + (invocation.globals.timeZoneName == nil && config.timeZone == nil ? " (the system's; followed when it changes)" : ""))
            // The rules reminders follow: the system's tzdata.
            let zones = ZoneDatabase.system
            let change = zone.nextChange(after: try invocation.now(), within: 400 * 86_400)
            report(
                true, "time zone rules",
                "\(zones.file(of: zone.identifier))" + (zones.version.map { " (tzdata \($0))" } ?? "")
                    + (change.map { "; next change \(ISO8601.format($0, in: zone))" } ?? "; no change in the next 400 days"))
        } catch {
            report(false, "time zone", "\(error)", fix: "set timeZone (or TZ) to an IANA name such as Europe/Berlin, and install tzdata")
        }

        let path = invocation.databasePath()
        let now = try invocation.now()
        do {
            let store = try Store(path: path, create: false)
            let definitions = try store.items.definitions().count
            // What `missed` lists (not what `missed --clear` acknowledged), and why, in its words;
            // what `next` counts.
            let missed = try store.log.unacknowledgedMissed()
            let failed = try store.log.count(.failed)
            report(true, "database", "\(path): \(definitions) item definitions")
            let reasons = MissedReasons(policy: DeliveryPolicy(config: config))
            let counts =
                (missed.isEmpty ? [] : ["\(missed.count) missed (\(reasons.counted(missed)); `dawnlet-remind missed` lists them)"])
                + (failed > 0 ? ["\(failed) failed (`dawnlet-remind preview --all` over their days says why)"] : [])
            if !counts.isEmpty { report(nil, "deliveries", counts.joined(separator: ", ")) }
            try exportDeletions(store, now: now, report)
        } catch  where error.code == .missing {
            report(nil, "database", "\(path): not created yet (the first command that writes creates it)")
        } catch {
            report(
                false, "database", "\(path): \(error)",
                fix: error.code == .busy
                    ? "wait for the process holding it, or stop it"
                    : error.code == .newerSchema
                        ? "run the newer dawnlet-remind that wrote it"
                        : "give --db the path of a dawnlet database, or move this file away and let the next write make a new one")
        }

        var used = Set(ReminderKind.allCases.flatMap { config.channels(for: $0) })
        if used.contains(.desktop), let fallback = config.desktop.fallback { used.insert(fallback) }
        if used.contains(.desktop) {
            do {
                let (_, server, capabilities, information) = try desktopServer()
                report(true, "desktop", "\(server) answers on the session bus")
                report(
                    capabilities.contains("actions") ? true : nil, "desktop actions",
                    capabilities.contains("actions") ? "Done, Skip and Snooze buttons offered" : "the server shows no actions")
                doctorServer(information, capabilities: capabilities, config: config) { report($0, $1, $2, fix: $3) }
            } catch {
                report(
                    config.desktop.fallback == nil ? false : nil, "desktop",
                    "\(error)" + (config.desktop.fallback.map { "; reminders go through the \($0) fallback" } ?? "; no fallback: reminders fail"),
                    fix: "run a notification server (dunst, mako, your desktop's) in this session, or set channels.desktop.fallback")
            }
        }
        if used.contains(.command) {
            let program = config.command.argv[0]
            if let found = CommandRunner.find(program, path: environment["PATH"]) {
                report(true, "command", "\(found)")
            } else {
                report(
                    false, "command", "\(program) is not found in PATH",
                    fix: "install it, or name another program in channels.command.argv")
            }
        }
        if let email = config.email {
            do {
                report(true, "email", try Mailer.check(email, environment: environment))
            } catch {
                report(
                    false, "email", error.message,
                    fix: "check channels.email (url, user, passwordFile); `dawnlet-remind notify-test --channel email` tries a message")
            }
        } else if used.contains(.email) {
            report(
                false, "email", "routed to, but channels.email is not set up",
                fix: "set channels.email, or take email out of route")
        }

        let budget = CalendarReader.Budget()
        for source in config.calendars {
            let now = Instant(Date())
            let zone = (try? invocation.timeZone()) ?? Zone.utc
            let read = CalendarReader.read(
                name: source.name, path: ConfigPath.expand(source.path),
                window: now...now.adding(config.horizon), zone: zone, budget: budget)
            let problems = read.problems.count
            // What the plan's budget left out of it is a failure: reminders are missing.
            if let cut = read.problems.lazy.compactMap(\.cut).first {
                report(
                    false, "calendar \(source.name)", "\(read.occurrences.count) item instances in the next \(DurationText.format(config.horizon)); \(cut)",
                    fix: "split the calendar, or take out the file or rule named; `dawnlet-remind preview` warns about each calendar problem")
                continue
            }
            report(
                problems == 0 ? true : read.occurrences.isEmpty ? false : nil, "calendar \(source.name)",
                "\(read.occurrences.count) item instances in the next \(DurationText.format(config.horizon))"
                    + (problems == 0 ? "" : "; \(problems) problem\(problems == 1 ? "" : "s"), first: \(read.problems[0])"),
                fix: "check the file and path named; `dawnlet-remind preview` warns about each calendar problem")
        }

        if let to = config.exportTo {
            // The folder serve keeps your items' files in: there and writable, how many it holds, and
            // what stands at one of its names that is not its own (left alone by export and serve).
            let folder = ConfigPath.expand(to)
            var isFolder = false
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
                report(nil, "export", "\(to) does not exist yet (serve makes it at start)")
            } else if !isFolder || access(folder, W_OK | X_OK) != 0 {
                report(false, "export", "\(to) is not a folder this user can write", fix: "point export.to at a folder of yours")
            } else {
                let named = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("dawnlet-") && $0.hasSuffix(".ics") }
                let foreign = named.filter { name in
                    var entry = stat()
                    return lstat("\(folder)/\(name)", &entry) != 0 || entry.st_mode & S_IFMT != S_IFREG || entry.st_nlink > 1
                }
                let ours = named.count - foreign.count
                var text = "\(to): \(ours) file\(ours == 1 ? "" : "s") of your todos and events, kept by serve"
                if let first = foreign.sorted().first {
                    text +=
                        "; \(foreign.count) named like them \(foreign.count == 1 ? "is" : "are") not a file of ours (a link, a hard link, a folder…), "
                        + "left alone: first \(first); remove \(foreign.count == 1 ? "it" : "them") and serve writes the files again"
                }
                report(foreign.isEmpty ? true : nil, "export", text)
            }
        }

        let unit = unitState(environment)
        report(unit.ok, "service", unit.text)
        guard failures == 0 else { throw CLIError(code: .failure, message: "\(failures) problem\(failures == 1 ? "" : "s") found") }
    }

    /// The notification server on the session bus: a connection, its name, vendor and version in
    /// a line, what it can do, and GetServerInformation's answer as it came.
    static func desktopServer() throws(SystemError) -> (NotificationBus, String, Set<String>, [String]) {
        let bus = try NotificationBus()
        let information = try bus.serverInformation()
        return (bus, information.prefix(3).joined(separator: " "), try bus.capabilities(), information)
    }
}
