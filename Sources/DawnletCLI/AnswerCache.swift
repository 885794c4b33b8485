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
/// binary), of the files it was read from (the database and its WAL, the config, the calendars,
/// each file of a calendar folder, and the zone's rules) and, within the day, of the clock only
/// where a one-off todo of today's, open and timed, becomes overdue at its time. So it is kept as
/// a `TimedText`: the text with those spans as they read before their times of day, and what each
/// reads from then on; every call, the one that makes it and each that uses it, prints it as it
/// reads at that moment (`TimedText.write(at:to:)`), byte for byte what a new plan would print.
/// It serves all day: a new day is another request (`today=`), answered anew.
///
/// Each file's stamp (device:inode:size:mtime) is taken before it is read and kept with the
/// answer; a later call uses the answer only if every stamp is the same. A write gives a file a
/// new mtime, except one made in the same tick of the kernel's coarse clock as a write before it:
/// so nothing is kept while a file's mtime is that recent (git's "racy" index entries, met the
/// same way).
struct AnswerCache {
    static let version = 3
    /// Larger answers (a long agenda) are made each time.
    static let maximumBytes = 1 << 20
    /// Longer than a tick of the coarse clock file times come from (4 ms at 250 Hz).
    static let settled: Int64 = 50_000_000

    let path: String
    let request: String
    let files: [String]

    /// The cache of `command` on `database`, for `request`, following `files` (folders stand for
    /// their files); nil without XDG_RUNTIME_DIR (in `environment`, else this process's).
    init?(_ command: String, database: String, request: String, files: [String], environment: [String: String]? = nil) {
        guard let runtime = Environment.variable("XDG_RUNTIME_DIR", in: environment), runtime.hasPrefix("/") else { return nil }
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
    /// is one line of JSON (what the answer was made for and from, and where its spans change
    /// with the time of day), then the answer's text as it reads before any of them, then what
    /// each span reads from its time on, one after another.
    func read() -> TimedText? {
        guard case .success(let bytes) = RegularFile.read(path, limit: 2 * AnswerCache.maximumBytes + (1 << 16)),
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")),
            let document = try? JSON5.parse(Array(bytes[..<end])), case .object(let root) = document.value,
            case .number(let version)? = root["version"], version == Double(AnswerCache.version),
            case .string(let request)? = root["request"], request == self.request,
            case .number(let count)? = root["length"], let length = Int(exactly: count), length >= 0, length <= bytes.count - end - 1,
            case .array(let spans)? = root["flips"],
            RunnerStateFile.stampsHold(root["files"], for: files)
        else { return nil }
        var answer = TimedText()
        answer.text = Array(bytes[(end + 1)..<(end + 1 + length)])
        answer.later = Array(bytes[(end + 1 + length)...])
        for span in spans {
            guard case .array(let numbers) = span else { return nil }
            let values = numbers.compactMap { value -> Int? in
                guard case .number(let n) = value else { return nil }
                return Int(exactly: n)
            }
            // In order, apart, within the text; each later reading after the one before.
            let (offset, length, from, count) = values.count == 4 ? (values[0], values[1], values[2], values[3]) : (-1, -1, 0, -1)
            let after = answer.flips.last?.after.upperBound ?? 0
            guard offset >= (answer.flips.last.map { $0.offset + $0.length } ?? 0), length >= 0, offset + length <= answer.text.count, count >= 0,
                after + count <= answer.later.count
            else { return nil }
            answer.flips.append(TimedText.Flip(offset: offset, length: length, from: from, after: after..<(after + count)))
        }
        guard (answer.flips.last?.after.upperBound ?? 0) == answer.later.count else { return nil }
        return answer
    }

    /// Keeps `answer`, read from the files as `stamps` found them; a failure only means the next
    /// call makes it again.
    func keep(_ answer: TimedText, stamps: [String]) {
        guard answer.text.count + answer.later.count <= AnswerCache.maximumBytes, stamps.count == files.count else { return }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { return }
        var w = JSONWriter()
        w.beginObject()
        w.field("version", AnswerCache.version)
        w.field("request", request)
        RunnerStateFile.write(stamps: Array(zip(files, stamps)), to: &w)
        w.field("length", answer.text.count)
        w.key("flips")
        w.beginArray()
        for flip in answer.flips { w.value(.array([.int(flip.offset), .int(flip.length), .int(flip.from), .int(flip.after.count)])) }
        w.endArray()
        w.endObject()
        _ = RegularFile.replace(path, with: w.out.withBytes { Array($0) } + [UInt8(ascii: "\n")] + answer.text + answer.later)
    }
}

/// An answer of a day as printed, but for the spans of it the clock changes within the day: each
/// reads as the text has it before a time of day, and otherwise from then on (a one-off todo of
/// today's, open and timed, is overdue from its time). `today` and `agenda` write it out as it
/// reads at the moment they run, whether made then or kept (`AnswerCache`).
struct TimedText {
    struct Flip: Equatable {
        /// The span of `text`, in bytes, as it reads before `from`.
        var offset: Int
        var length: Int
        /// Seconds into the day from which it reads as `later[after]`.
        var from: Int
        var after: Range<Int>
    }

    /// The text as it reads before every span's time.
    var text: [UInt8] = []
    /// Each span's later reading, in the spans' order.
    var later: [UInt8] = []
    var flips: [Flip] = []

    mutating func append(_ string: String) { text += string.utf8 }

    /// Text that reads `before` until `secondsOfDay` into the day, and `after` from then on. Only
    /// the bytes that differ are kept twice.
    mutating func append(_ before: String, from secondsOfDay: Int, after: String) {
        let (b, a) = (Array(before.utf8), Array(after.utf8))
        let shorter = min(b.count, a.count)
        var head = 0
        while head < shorter && b[head] == a[head] { head += 1 }
        var tail = 0
        while tail < shorter - head && b[b.count - 1 - tail] == a[a.count - 1 - tail] { tail += 1 }
        if head + tail < b.count || head + tail < a.count {
            flips.append(
                Flip(offset: text.count + head, length: b.count - head - tail, from: secondsOfDay, after: later.count..<(later.count + a.count - head - tail)))
            later += a[head..<(a.count - tail)]
        }
        text += b
    }

    /// Writes the text as it reads at `secondsOfDay` into its day.
    func write(at secondsOfDay: Int, to output: inout Output) {
        var cursor = 0
        for flip in flips where flip.from <= secondsOfDay {
            output.lines(text[cursor..<flip.offset])
            output.lines(later[flip.after])
            cursor = flip.offset + flip.length
        }
        output.lines(text[cursor...])
    }
}
