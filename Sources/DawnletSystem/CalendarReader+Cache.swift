internal import CICal
import DawnletCCall
import DawnletCore
import Glibc

extension CalendarReader {
    /// Calendar files kept parsed between plans (`serve` holds one): each file of the common
    /// shapes `SimpleFile` reads, in that compact form (never libical's trees), under its device,
    /// inode, size and modification time. A re-plan after one file of a vdir changed reads and
    /// parses that file alone; files gone from their calendar are dropped at the next plan.
    /// Files libical must read are read again each plan.
    public final class Cache: @unchecked Sendable {
        typealias Key = FileKey

        private var entries: [String: (key: Key, file: SimpleFile)] = [:]
        private var mutex = pthread_mutex_t()
        /// Files read and parsed, and files expanded from what was kept, since `beginPlan`.
        public internal(set) var parsed = 0
        public internal(set) var reused = 0

        public init() { pthread_mutex_init(&mutex, nil) }
        deinit { pthread_mutex_destroy(&mutex) }

        /// How many files are kept.
        public var count: Int { locked { entries.count } }

        /// Starts counting a plan's files.
        public func beginPlan() { locked { (parsed, reused) = (0, 0) } }

        func kept(_ path: String, _ key: Key) -> SimpleFile? {
            locked {
                guard let entry = entries[path], entry.key == key else { return nil }
                return entry.file
            }
        }

        func noteParsed() { locked { parsed += 1 } }
        func noteReused() { locked { reused += 1 } }

        func keep(_ path: String, _ key: Key, _ file: SimpleFile) { locked { entries[path] = (key, file) } }

        /// Drops what was kept of the calendar at `path` that is not among `files` now.
        func sweep(_ path: String, keeping files: [String]) {
            locked {
                let now = Set(files)
                let prefix = path + "/"
                for name in Array(entries.keys) where (name == path || name.hasPrefix(prefix)) && !now.contains(name) { entries[name] = nil }
            }
        }

        private func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return body()
        }
    }
}

extension CalendarReader {
    /// What a file is before the budget and the expansion see it: kept parsed (unchanged since the
    /// cache kept it), parsed now in the compact form (with the key to keep it under), bytes for
    /// libical, or a file that could not be read.
    enum Prepared: Sendable {
        case kept(SimpleFile, size: Int)
        case simple(SimpleFile, key: Cache.Key?, size: Int)
        case other([UInt8])
        case failed(RegularFile.Failure)
    }

    /// A file read and parsed, touching nothing shared but the cache and `names` (both locked):
    /// the files of a vdir are prepared on several threads, and used in their order. Without
    /// `names`, libical reads every file.
    static func prepare(_ file: String, links: RegularFile.Links, cache: Cache?, names: ZoneNames?) -> Prepared {
        let key = cache.flatMap { _ in Cache.Key(file, links: links) }
        if let cache, let key, let kept = cache.kept(file, key) { return .kept(kept, size: Int(key.size)) }
        // One stat, one open, one fstat, one read: a vdir is thousands of small files.
        switch RegularFile.read(file, limit: CalendarReader.maximumFileBytes, links: links) {
        case .failure(let failure): return .failed(failure)
        case .success(let bytes):
            guard let names, let simple = SimpleFile(bytes, knows: names.system, builtin: names.libical) else { return .other(bytes) }
            return .simple(simple, key: key?.size == Int64(bytes.count) ? key : nil, size: bytes.count)
        }
    }

    /// `prepare` for each of `files`, on every core when there are several.
    static func prepareAll(_ files: [String], links: RegularFile.Links, cache: Cache?, names: ZoneNames?) -> [Prepared] {
        guard files.count > 1 else { return files.map { prepare($0, links: links, cache: cache, names: names) } }
        let slots = Slots(files.count)
        Parallel.forEach(files.count) { i in
            slots.set(i, prepare(files[i], links: links, cache: cache, names: names))
        }
        return slots.values
    }

    /// One result per index, each written by one thread, read once all are done.
    final class Slots: @unchecked Sendable {
        private let buffer: UnsafeMutableBufferPointer<Prepared?>

        init(_ count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }
        deinit {
            buffer.deinitialize()
            buffer.deallocate()
        }

        func set(_ index: Int, _ value: Prepared) { buffer[index] = value }
        var values: [Prepared] { buffer.map { $0! } }
    }

    /// Which TZIDs the system's zone data, and libical, know: asked from any thread, each name once.
    final class ZoneNames: @unchecked Sendable {
        private let planning: String
        private let database: ZoneDatabase
        private let ical: ICal
        private var system: [String: Bool] = [:]
        private var builtin: [String: Bool] = [:]
        private var mutex = pthread_mutex_t()

        init(planning: String, database: ZoneDatabase, ical: ICal) {
            (self.planning, self.database, self.ical) = (planning, database, ical)
            pthread_mutex_init(&mutex, nil)
        }
        deinit { pthread_mutex_destroy(&mutex) }

        /// As `Zones.named` finds it: the planning zone's name, or one the zone data has.
        func system(_ tzid: String) -> Bool {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            if let known = system[tzid] { return known }
            let known = tzid == planning || (try? database.zone(named: tzid)) != nil
            system[tzid] = known
            return known
        }

        /// Whether libical has a zone of its own under `tzid` (for a TZID no VTIMEZONE defines).
        func libical(_ tzid: String) -> Bool {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            if let known = builtin[tzid] { return known }
            let known = tzid.withCString { ical.f.icaltimezone_get_builtin_timezone($0) } != nil
            builtin[tzid] = known
            return known
        }
    }
}
