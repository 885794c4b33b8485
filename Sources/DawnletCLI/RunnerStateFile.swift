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

    /// The file of the runner on `database`, or nil without XDG_RUNTIME_DIR.
    init?(database: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
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
        w.key("next")
        if let next = state.next.map(NextCommand.Head.init) {
            w.beginObject()
            w.field("fire_at", Int(next.fireAt.secondsSinceEpoch))
            w.field("utc_offset", next.utcOffset)
            w.field("what", next.what)
            w.field("title", next.title)
            w.field("json", next.json)
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
        let bytes = w.out.withBytes { Array($0) }
        return RegularFile.replace(path, with: bytes).map { "\(path): \($0)" }
    }

    /// The answer published, if it holds at `now` for these files and this zone, and the runner
    /// that published it still runs; else nil (and `next` plans).
    func read(files: [String], zone: String, now: Instant) -> NextCommand.Answer? {
        guard case .success(let bytes) = RegularFile.read(path, limit: RunnerStateFile.maximumBytes),
            let document = try? JSON5.parse(bytes), case .object(let root) = document.value
        else { return nil }
        func int(_ value: ConfigValue?) -> Int64? {
            guard case .number(let n)? = value else { return nil }
            return Int64(exactly: n)
        }
        func string(_ value: ConfigValue?) -> String? {
            guard case .string(let s)? = value else { return nil }
            return s
        }
        guard int(root["version"]) == Int64(RunnerStateFile.version), string(root["database"]) == database, string(root["zone"]) == zone,
            let since = int(root["since"]), let until = int(root["valid_until"]),
            (since..<until).contains(now.secondsSinceEpoch),
            let pid = int(root["pid"]).flatMap({ Int32(exactly: $0) }), let started = string(root["started"]).flatMap({ UInt64($0) }),
            ProcessIdentity(pid: pid, started: started).isRunning,
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
