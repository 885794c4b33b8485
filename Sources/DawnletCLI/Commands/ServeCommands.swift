import DawnletCore
import DawnletRunner
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// `serve` (the runner) and `missed` (what it could not deliver in time).
enum ServeCommands {
    static let commands: [Command] = [
        Command(
            path: ["serve"], usage: "serve",
            summary: "Run the reminder service in the foreground: sleep until each reminder is due, deliver it once.",
            options: [], run: serve),
        Command(
            path: ["missed"], usage: "missed [--json] | missed --clear [KEY]...",
            summary: "List reminders missed (past the grace window, dropped as late, or given up) and why; --clear acknowledges them (all, or by key).",
            options: [.flag("json"), .flag("clear")], positionals: 0...100, run: missed),
    ]

    static func serve(_ invocation: inout Invocation) throws {
        guard invocation.globals.now == nil else {
            throw CLIError.usage("--now does not apply to serve: it runs on the clock", invocation.globals.usage)
        }
        // The runner takes SIGTERM, SIGINT and SIGHUP as sd-event sources, which needs them
        // blocked in every thread. Blocked here, once the command line is known to be `serve`
        // (any other command keeps the default: killed by them): the process is still one thread
        // (the runner starts none), and threads made later inherit it.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        var settings = Runner.Settings(databasePath: invocation.databasePath(), config: invocation.config, zone: try invocation.timeZone())
        settings.followsSystemZone = invocation.globals.timeZoneName == nil && invocation.config.timeZone == nil
        // SIGHUP reads the config again: the same file, the same rules (--tz still wins).
        let configPath = invocation.globals.configPath
        settings.configPath = configPath ?? ConfigFile.defaultPath()
        settings.commandLine =
            ([CommandLineTool.name] + (invocation.globals.databasePath.map { ["--db", ShellWords.quoted(ConfigPath.absolute($0))] } ?? [])
            + (configPath.map { ["--config", ShellWords.quoted(ConfigPath.absolute($0))] } ?? [])).joined(separator: " ")
        // What `next` shows, published while it runs (none without XDG_RUNTIME_DIR).
        if let file = RunnerStateFile(database: settings.databasePath), let runner = ProcessIdentity.current {
            settings.publish = { state in file.publish(state, by: runner) }
        }
        let fixedZone = invocation.globals.timeZoneName == nil ? nil : settings.zone
        settings.reload = { [environment = settings.environment] in
            let config = try ConfigFile.load(explicitPath: configPath)
            // load() has checked the config's zone name.
            let named = try fixedZone ?? config.timeZone.map { name throws(ZoneError) in try ZoneDatabase.system.zone(named: name) }
            return (config, try named ?? ZoneDatabase.system.systemZone(environment: environment), named == nil)
        }
        let runner: Runner
        do {
            // Under systemd stderr is the journal: structured entries there, plain lines elsewhere,
            // stamped with the runner's clock in its zone of the moment (the system's, if it
            // follows /etc/localtime). Neither is ever waited for (LogOutput).
            let output = LogOutput(environment: settings.environment)
            runner = try Runner(settings) { [settings] entry in
                // The journal stamps its entries itself; a line on stderr carries the time.
                var prefix = ""
                if !output.isJournal, let at = entry.at {
                    let zone = settings.followsSystemZone ? (try? settings.zones.systemZone(environment: settings.environment)) ?? settings.zone : settings.zone
                    prefix = ISO8601.format(at, in: zone) + " "
                }
                // One line each, whatever a title or a file name holds; escaped once (a path the
                // runner escaped in its message is not escaped again).
                output.write(DisplayText.shown(entry.message), priority: entry.priority, fields: entry.fields, prefix: prefix)
            }
            let code = try runner.run()
            guard code == 0 else { throw CLIError(code: .failure, message: "the runner stopped with \(code)") }
        } catch let error as RunnerError {
            throw CLIError(code: .failure, message: error.message)
        }
    }

    static func missed(_ invocation: inout Invocation) throws {
        if invocation.arguments.has("clear") {
            let keys = try invocation.arguments.positionals.map { (text) throws(CLIError) in
                guard let key = ReminderKey(text) else {
                    throw CLIError.usage("\"\(text)\" is not a reminder key (as `missed` lists them, e.g. todo:3:2026-12-01:0m)", invocation.globals.usage)
                }
                return key
            }
            let count = try invocation.openStore().log.acknowledgeMissed(keys: keys.isEmpty ? nil : keys)
            invocation.output.line("\(count) missed reminder\(count == 1 ? "" : "s") acknowledged")
            return
        }
        guard invocation.arguments.positionals.isEmpty else {
            throw CLIError.usage("keys are given with --clear", invocation.globals.usage)
        }
        let rows = try invocation.readStore().log.unacknowledgedMissed()
        let zone = try invocation.timeZone()
        let reasons = MissedReasons(policy: DeliveryPolicy(config: invocation.config))
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "missed",
                        .array(
                            rows.map {
                                .object([
                                    ("key", .string($0.key.description)), ("channel", .string($0.channel.rawValue)), ("kind", .string($0.kind.rawValue)),
                                    ("title", .string($0.title)), ("due", .string(ISO8601.format($0.fireAt, in: zone))),
                                    ("why", reasons.why($0).map { .string($0) } ?? .null),
                                    ("reason", reasons.reason($0).map { .string($0.rawValue) } ?? .null),
                                ])
                            })
                    )
                ]))
            return
        }
        if rows.isEmpty { invocation.output.line("nothing missed") }
        for row in rows {
            invocation.output.line(
                invocation.output.paint(ISO8601.format(row.fireAt, in: zone), .red)
                    // The title, a calendar's key (its item's UID) and why it failed are outside text.
                    + DisplayText.shown("  \(row.kind)  \(row.title)  → \(row.channel)  (\(row.key))" + (reasons.why(row).map { ": " + $0 } ?? "")))
        }
    }
}

/// Why a reminder was missed, as `missed` and `doctor` say it: as the runner recorded it
/// (`Delivery.missedReason`), or, for a row recorded before it did, told from the row as it was
/// then: every reminder recorded missed said "outside the grace window", and one recorded while
/// it was only late (inside the grace window, as the config has it now) was dropped by a late
/// policy; one given up after retries says so in its detail.
struct MissedReasons {
    let policy: DeliveryPolicy

    /// The reason's code, recorded or told.
    func reason(_ row: Delivery) -> ReminderLife.MissedReason? {
        if let recorded = row.missedReason { return recorded }
        if row.detail == Delivery.outsideGraceWindow {
            guard let at = row.finishedAt, policy.timing(row.fireAt, now: at) == .late else { return .graceWindow }
            return .latePolicy
        }
        return row.detail?.contains("gave up after") == true ? .gaveUp : nil
    }

    /// In words: `outside the grace window`, `dropped as late (late policy "drop"), 2m after its
    /// time`, or what the last try said and that it gave up.
    func why(_ row: Delivery) -> String? {
        switch reason(row) {
        case .graceWindow?: return ReminderLife.MissedReason.graceWindow.words
        case .latePolicy?:
            guard let at = row.finishedAt else { return ReminderLife.MissedReason.latePolicy.words }
            let late = DurationText.format(.seconds(at.secondsSinceEpoch - row.fireAt.secondsSinceEpoch))
            // Told from an older row, under a config whose policy no longer drops its kind.
            if row.missedReason == nil && row.kind.reminderKind.flatMap({ policy.late[$0] }) != .drop {
                return "dropped as late, \(late) after its time, inside the grace window"
            }
            return "\(ReminderLife.MissedReason.latePolicy.words), \(late) after its time"
        case .gaveUp?: return row.detail ?? ReminderLife.MissedReason.gaveUp.words
        case nil: return row.detail
        }
    }

    /// How many of `rows` were missed for each reason, in a few words (`2 outside the grace
    /// window, 1 dropped as late`), as `doctor` says it.
    func counted(_ rows: [Delivery]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for row in rows {
            let words: String
            switch reason(row) {
            case .graceWindow?: words = "outside the grace window"
            case .latePolicy?: words = "dropped as late"
            case .gaveUp?: words = "given up after failures"
            case nil: words = "for another reason"
            }
            if counts[words] == nil { order.append(words) }
            counts[words, default: 0] += 1
        }
        return order.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
    }
}
