import DawnletCore
import DawnletSystem
import FoundationEssentials
import Glibc

/// What `today` or `agenda` printed, kept for the next call that asks the same of the same files
/// (a status bar or shell prompt asks for today every few seconds, and reading 10,000
/// definitions costs more than the answer). One file per command and database, in
/// `$XDG_RUNTIME_DIR/dawnlet-remind/` (the user's own tmpfs, private, gone at logout); without
/// XDG_RUNTIME_DIR nothing is kept.
///
/// The answer is a function of the request (the days, the format, the zone, today's date, this
/// binary), of the clock only where an open todo of today's reaches its time (it is kept until
/// then), and of the files it was read from: the database and its WAL, the config, the
/// calendars (each file of a calendar folder) and the zone's rules. Each file's stamp
/// (device:inode:size:mtime) is taken before it is read and kept with the answer; a later call
/// uses the answer only if every stamp is the same. A write gives a file a new mtime, except one
/// made in the same tick of the kernel's coarse clock as a write before it: so nothing is kept
/// while a file's mtime is that recent (git's "racy" index entries, met the same way).
struct AnswerCache {
    static let version = 2
    /// Larger answers (a long agenda) are made each time.
    static let maximumBytes = 1 << 20
    /// Longer than a tick of the coarse clock file times come from (4 ms at 250 Hz).
    static let settled: Int64 = 50_000_000

    let path: String
    let request: String
    let files: [String]

    /// The cache of `command` on `database`, for `request`, following `files` (folders stand for
    /// their files); nil without XDG_RUNTIME_DIR.
    init?(_ command: String, database: String, request: String, files: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let database = ConfigPath.canonical(database)
        path = "\(runtime)/dawnlet-remind/\(command)-\(MailMessage.hash(database)).json"
        // This binary's own stamp: another build may answer otherwise.
        self.request = "\(request) database=\(database) binary=\(FileStamp.text(of: "/proc/self/exe"))"
        var expanded: [String] = []
        for file in files {
            expanded.append(file)
            guard let entries = AnswerCache.entries(of: file) else { continue }
            expanded += entries
        }
        self.files = expanded
    }

    /// A folder's entries (a vdir's files), sorted; nil for anything else.
    static func entries(of folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(folder + "/" + name) }
        }
        return names.sorted()
    }

    /// The stamps of the files now, to keep with an answer read after this; nil when one was
    /// written too recently for a later write to be told from it.
    func stamps() -> [String]? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let recent = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - AnswerCache.settled
        var stamps: [String] = []
        for file in files {
            let stamp = FileStamp(path: file)
            if let stamp, stamp.modified > recent { return nil }
            stamps.append(stamp?.description ?? "-")
        }
        return stamps
    }

    /// The answer kept for this request, if every file is as it was when it was read. The file
    /// is one line of JSON (what the answer was made for and from) and the answer after it, as
    /// it was printed.
    func read(now: Instant) -> ArraySlice<UInt8>? {
        guard case .success(let bytes) = RegularFile.read(path, limit: AnswerCache.maximumBytes + (1 << 16)),
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let document = try? JSON5.parse(Array(bytes[..<end])), case .object(let root) = document.value,
            case .number(let version)? = root["version"], version == Double(AnswerCache.version),
            case .string(let request)? = root["request"], request == self.request,
            case .number(let length)? = root["length"], length == Double(bytes.count - end - 1),
            case .number(let until)? = root["until"], Double(now.secondsSinceEpoch) < until,
            RunnerStateFile.stampsHold(root["files"], for: files)
        else { return nil }
        return bytes[(end + 1)...]
    }

    /// Keeps `output`, read from the files as `stamps` found them, for calls before `until` (when
    /// the clock alone changes the answer); a failure only means the next call makes it again.
    func keep(_ output: String, stamps: [String], until: Instant) {
        guard output.utf8.count <= AnswerCache.maximumBytes, stamps.count == files.count else { return }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { return }
        var w = JSONWriter()
        w.beginObject()
        w.field("version", AnswerCache.version)
        w.field("request", request)
        RunnerStateFile.write(stamps: Array(zip(files, stamps)), to: &w)
        w.field("length", output.utf8.count)
        w.field("until", Int(until.secondsSinceEpoch))
        w.endObject()
        _ = RegularFile.replace(path, with: w.out.withBytes { Array($0) } + [UInt8(ascii: "\n")] + Array(output.utf8))
    }
}
