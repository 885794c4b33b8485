import DawnletCore
import Glibc

extension CalendarReader {
    /// Calendar files kept parsed between plans (`serve` holds one): each file of the common
    /// shapes `SimpleFile` reads, in that compact form (never libical's trees), under its device,
    /// inode, size and modification time. A re-plan after one file of a vdir changed reads and
    /// parses that file alone; files gone from their calendar are dropped at the next plan.
    /// Files libical must read are read again each plan.
    public final class Cache: @unchecked Sendable {
        struct Key: Equatable {
            let device: UInt64
            let inode: UInt64
            let size: Int64
            let modified: Int64
            let changed: Int64

            /// The file's key now (lstat for a vdir's files, whose links are refused), or nil.
            init?(_ path: String, links: RegularFile.Links) {
                var info = stat()
                guard (links == .follow ? stat(path, &info) : lstat(path, &info)) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                device = UInt64(info.st_dev)
                inode = UInt64(info.st_ino)
                size = Int64(info.st_size)
                modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            }
        }

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
                reused += 1
                return entry.file
            }
        }

        func noteParsed() { locked { parsed += 1 } }

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
