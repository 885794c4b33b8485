import DawnletCore
import DawnletRunner
import DawnletSystem
import FoundationEssentials
import Glibc

/// What the runner publishes for `next` (`RunnerState`), as a file: one per database, in
/// `$XDG_RUNTIME_DIR/dawnlet-remind/` (the user's own tmpfs, private, gone at logout). Without
/// XDG_RUNTIME_DIR nothing is published and `next` plans.
struct RunnerStateFile {
    static let version = 1
    /// A state is a few hundred bytes; anything much larger is not one.
    static let maximumBytes = 1 << 16

    /// The database's path from the root, links resolved, and where the runner on it publishes.
    let database: String
    let path: String

    /// The file of the runner on `database`, or nil without XDG_RUNTIME_DIR (in `environment`,
    /// else this process's).
    init?(database: String, environment: [String: String]? = nil) {
        guard let runtime = Environment.variable("XDG_RUNTIME_DIR", in: environment), runtime.hasPrefix("/") else { return nil }
        self.database = ConfigPath.canonical(database)
        path = "\(runtime)/dawnlet-remind/next-\(MailMessage.hash(self.database)).json"
    }

    /// Publishes `state`, by `runner`, whole (or withdraws it, nil); returns what failed, if anything.
    func publish(_ state: RunnerState?, by runner: ProcessIdentity) -> String? {
        guard let state else {
            return RegularFile.remove(path).map { "cannot remove \(path): \($0)" }
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return "cannot make \(folder): \(String(cString: strerror(errno)))" }
        var w = JSONWriter()
        w.beginObject()
        w.field("version", RunnerStateFile.version)
        w.field("database", database)
        w.field("pid", Int(runner.pid))
        w.field("started", String(runner.started))
        w.field("zone", state.zone)
        w.field("since", Int(state.since.secondsSinceEpoch))
        w.field("valid_until", Int(state.validUntil.secondsSinceEpoch))
        RunnerStateFile.write(stamps: state.files.map { ($0.path, $0.stamp) }, to: &w)
        w.field("overdue", state.overdue)
        w.field("missed", state.missed)
        w.field("failed", state.failed)
        RunnerStateFile.write(state.holds, to: &w)
        w.key("next")
        if let next = state.next.map({ NextCommand.Head($0, holds: state.holds) }) {
            w.beginObject()
            w.field("fire_at", Int(next.fireAt.secondsSinceEpoch))
            w.field("utc_offset", next.utcOffset)
            w.field("what", next.what)
            w.field("title", next.title)
            w.field("json", next.json)
            w.key("held")
            if let held = next.held {
                w.beginObject()
                w.field("reason", held.reason.rawValue)
                w.field("since", held.since.map { Int($0.secondsSinceEpoch) })
                w.endObject()
            } else {
                w.null()
            }
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
        let bytes = w.out.withBytes { Array($0) }
        return RegularFile.replace(path, with: bytes).map { "\(path): \($0)" }
    }

    /// What was published for this database by a runner that still runs; else nil.
    private func published() -> [String: ConfigValue]? {
        guard case .success(let bytes) = RegularFile.read(path, limit: RunnerStateFile.maximumBytes),
            let document = try? JSON5.parse(bytes), case .object(let root) = document.value,
            int(root["version"]) == Int64(RunnerStateFile.version), string(root["database"]) == database,
            let pid = int(root["pid"]).flatMap({ Int32(exactly: $0) }), let started = string(root["started"]).flatMap({ UInt64($0) }),
            ProcessIdentity(pid: pid, started: started).isRunning
        else { return nil }
        return root
    }

    private func int(_ value: ConfigValue?) -> Int64? {
        guard case .number(let n)? = value else { return nil }
        return Int64(exactly: n)
    }

    private func string(_ value: ConfigValue?) -> String? {
        guard case .string(let s)? = value else { return nil }
        return s
    }

    /// What the runner holds back now, as it published it (whatever it says of the next reminder,
    /// and whether its files have moved since: a pause is the server's, not the database's); nil
    /// without a runner that published.
    func holds() -> Holds? {
        guard let root = published() else { return nil }
        var holds = Holds()
        if case .array(let paused)? = root["paused"] {
            for entry in paused {
                guard case .array(let pair) = entry, pair.count == 2, let channel = string(pair[0]).flatMap(Channel.init(rawValue:)),
                    let since = int(pair[1])
                else { return nil }
                holds.paused[channel] = Instant(secondsSinceEpoch: since)
            }
        }
        if case .array(let held)? = root["held"] {
            for entry in held {
                guard case .array(let triple) = entry, triple.count == 3, let key = string(triple[0]).flatMap(ReminderKey.init),
                    let channel = string(triple[1]).flatMap(Channel.init(rawValue:)), let reason = string(triple[2]).flatMap(Hold.Reason.init(rawValue:))
                else { return nil }
                holds.held[DeliveryID(key, channel)] = reason
            }
        }
        return holds
    }

    /// `"paused": [[CHANNEL, SINCE], …], "held": [[KEY, CHANNEL, REASON], …]`.
    static func write(_ holds: Holds, to w: inout JSONWriter) {
        w.key("paused")
        w.beginArray()
        for (channel, since) in holds.paused.sorted(by: { $0.key < $1.key }) {
            w.value(.array([.string(channel.rawValue), .int(Int(since.secondsSinceEpoch))]))
        }
        w.endArray()
        w.key("held")
        w.beginArray()
        for (id, reason) in holds.held.sorted(by: { $0.key.description < $1.key.description }) {
            w.value(.array([.string(id.key.description), .string(id.channel.rawValue), .string(reason.rawValue)]))
        }
        w.endArray()
    }

    /// The answer published, if it holds at `now` for these files and this zone, and the runner
    /// that published it still runs; else nil (and `next` plans).
    func read(files: [String], zone: String, now: Instant) -> NextCommand.Answer? {
        guard let root = published(), string(root["zone"]) == zone,
            let since = int(root["since"]), let until = int(root["valid_until"]),
            (since..<until).contains(now.secondsSinceEpoch),
            RunnerStateFile.stampsHold(root["files"], for: files)
        else { return nil }
        guard let overdue = int(root["overdue"]), let missed = int(root["missed"]), let failed = int(root["failed"]) else { return nil }
        var answer = NextCommand.Answer(now: now)
        (answer.overdue, answer.missed, answer.failed, answer.from) = (Int(overdue), Int(missed), Int(failed), "serve")
        switch root["next"] {
        case .null?: break
        case .object(let next)?:
            guard let fireAt = int(next["fire_at"]), let offset = int(next["utc_offset"]), let what = string(next["what"]),
                let title = string(next["title"]), let json = string(next["json"])
            else { return nil }
            answer.next = NextCommand.Head(fireAt: Instant(secondsSinceEpoch: fireAt), utcOffset: Int(offset), what: what, title: title, json: json)
            switch next["held"] {
            case .object(let held)?:
                guard let reason = string(held["reason"]).flatMap(Hold.Reason.init(rawValue:)) else { return nil }
                answer.next?.held = (reason, int(held["since"]).map(Instant.init(secondsSinceEpoch:)))
            case .null?, nil: break
            default: return nil
            }
        default: return nil
        }
        return answer
    }

    /// `"files": [[PATH, STAMP], …]`: what an answer follows from, as it stood when read.
    static func write(stamps: [(path: String, stamp: String)], to w: inout JSONWriter) {
        w.key("files")
        w.beginArray()
        for (path, stamp) in stamps { w.value(.array([.string(path), .string(stamp)])) }
        w.endArray()
    }

    /// Whether `value`, as `write(stamps:to:)` wrote it, names `files` in order, each stamped as
    /// it stands now.
    static func stampsHold(_ value: ConfigValue?, for files: [String]) -> Bool {
        guard case .array(let stamped)? = value, stamped.count == files.count else { return false }
        for (entry, file) in zip(stamped, files) {
            guard case .array(let pair) = entry, pair.count == 2, case .string(file) = pair[0], case .string(let stamp) = pair[1],
                stamp == FileStamp.text(of: file)
            else { return false }
        }
        return true
    }
}
