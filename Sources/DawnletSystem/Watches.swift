internal import CLinux
import DawnletCCall
import Glibc

/// A timerfd on CLOCK_REALTIME that never expires but is cancelled when the wall clock is set
/// (TFD_TIMER_CANCEL_ON_SET): how the runner learns the clock jumped without polling.
public final class ClockChangeWatch {
    public let fd: Int32

    public init() throws(SystemError) {
        fd = try SystemError.posix("timerfd_create") { timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        try arm()
    }

    deinit { close(fd) }

    /// Call when `fd` is readable. True when the clock was set; the watch must then be armed
    /// again (`arm()`), or it says nothing of the next change.
    public func clockWasSet() -> Bool {
        var expirations: UInt64 = 0
        return CCall.posix("read") { read(fd, &expirations, 8) } < 0 && errno == ECANCELED
    }

    public func arm() throws(SystemError) {
        var spec = itimerspec()
        spec.it_value.tv_sec = 4_102_444_800  // 2100-01-01: never reached; only the cancel matters
        try SystemError.posix("timerfd_settime") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil) }
    }
}

/// inotify on one folder: entries created, written, replaced or removed. The watch outlives its
/// folder: when the folder is removed or moved away, its parent is watched for the name instead,
/// and when a folder of that name is there again it is watched again, and said to have changed
/// whole (what was written meanwhile is to be read). Nothing polls, and a folder that stays away
/// costs nothing but the parent's watch.
public final class FolderWatch {
    public let fd: Int32
    public let folder: String
    /// The folder's watch descriptor, nil while the folder is away; the parent's, while it is.
    private var folderWatch: Int32?
    private var parentWatch: Int32?

    /// What a look at the watch found.
    public struct Changes: Sendable, Equatable {
        /// The entries that changed.
        public var names: Set<String> = []
        /// Everything may have changed: the folder is there again after being away, or the
        /// kernel's queue overflowed. Read it all.
        public var everything = false
        /// The folder was removed or moved away (and its parent is watched for it to come back).
        public var gone = false

        public init(names: Set<String> = [], everything: Bool = false, gone: Bool = false) {
            self.names = names
            self.everything = everything
            self.gone = gone
        }
    }

    /// The folder is there and watched.
    public var isPresent: Bool { folderWatch != nil }

    static let folderMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)

    /// Watches `folder`; one that is not there (yet) is waited for in its parent. Throws when
    /// neither can be watched.
    public init(_ folder: String) throws(SystemError) {
        self.folder = folder
        fd = try SystemError.posix("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        // Only a folder not there is waited for: any other refusal (no watches left) is said.
        guard watchFolder() || (errno == ENOENT && watchParent()) else {
            let error = SystemError("watch \(folder)", errno: errno)
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The folder to watch for a file, and the file's name in it: `/etc/localtime` → (`/etc`,
    /// `localtime`); a bare name is in `.`.
    public static func parts(of path: String) -> (folder: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    private func watchFolder() -> Bool {
        let wd = CCall.posix("inotify_add_watch", context: folder) { inotify_add_watch(fd, folder, FolderWatch.folderMask | UInt32(IN_ONLYDIR)) }
        guard wd >= 0 else { return false }
        folderWatch = wd
        if let parent = parentWatch {
            inotify_rm_watch(fd, parent)
            parentWatch = nil
        }
        return true
    }

    private func watchParent() -> Bool {
        let parent = FolderWatch.parts(of: folder).folder
        let wd = CCall.posix("inotify_add_watch", context: parent) { inotify_add_watch(fd, parent, FolderWatch.parentMask) }
        guard wd >= 0 else { return false }
        parentWatch = wd
        return true
    }

    /// How many reads one look makes at most: what is left is read at the loop's next turn.
    public static let readsPerLook = 4

    /// Call when `fd` is readable: what changed since the last call, or as much of it as
    /// `readsPerLook` reads give (the descriptor stays readable for the rest). Bounded, never
    /// until the queue is empty: a writer that answers each of our reads with a write of its own
    /// (a tracer logging into the folder) would keep it from ever being empty, and the loop
    /// would serve nothing else, timers and signals included.
    public func changes() -> Changes {
        var changes = Changes()
        let name = FolderWatch.parts(of: folder).name
        var buffer = [UInt8](repeating: 0, count: 8192)
        for _ in 0..<FolderWatch.readsPerLook {
            let n = CCall.posix("read", context: folder) { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) } }
            if n <= 0 { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let entry = String(decoding: buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changes.everything = true
                } else if event.wd == folderWatch {
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        // Moved away, the watch would follow it: dropped (its IN_IGNORED is then unknown).
                        if event.mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(fd, event.wd) }
                        folderWatch = nil
                        changes.gone = true
                        // Made again before the parent was watched: seen here.
                        if watchParent() && watchFolder() { changes.everything = true }
                    } else if !entry.isEmpty {
                        changes.names.insert(entry)
                    }
                } else if event.wd == parentWatch {
                    if event.mask & UInt32(IN_IGNORED) != 0 {
                        parentWatch = nil
                    } else if entry == name && watchFolder() {
                        changes.everything = true
                    }
                }
            }
        }
        if changes.everything { changes.gone = false }
        return changes
    }
}

/// Which file a path names (device and inode): a file deleted, replaced or moved away no longer
/// matches what was opened.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now (following symlinks), or nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard CCall.posix("stat", context: path, { stat(path, &info) }) == 0 else { return nil }
        self.init(info)
    }

    init?(fd: Int32) {
        var info = stat()
        guard CCall.posix("fstat", { fstat(fd, &info) }) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// An exclusive advisory lock on a file (flock), held until released or the process ends.
public final class FileLock {
    private let fd: Int32
    public let path: String

    /// The lock file still stands at its path: deleting it (or its folder) frees the name for
    /// another process to lock, so the holder must notice.
    public var isStillAtPath: Bool { FileIdentity(path: path) == FileIdentity(fd: fd) }

    /// Nil when another process holds it. A link or anything but a regular file at the path is
    /// not ours: it is neither followed nor locked (a FIFO would block the open; a link could
    /// make the lock file another's).
    public init?(path: String) throws(SystemError) {
        let fd = CCall.posix("open", context: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600) }
        guard fd >= 0 else {
            throw SystemError("open \(path)", errno: errno, detail: errno == ELOOP ? "a symbolic link, not followed" : nil)
        }
        var info = stat()
        let found = CCall.posix("fstat", context: path) { fstat(fd, &info) } == 0
        let failure = errno
        guard found, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw found ? SystemError("open \(path)", errno: EINVAL, detail: "not a regular file") : SystemError("fstat \(path)", errno: failure)
        }
        guard CCall.posix("flock", context: path, { flock(fd, LOCK_EX | LOCK_NB) }) == 0 else {
            // errno first: close may set it.
            let error = errno
            close(fd)
            if error == EWOULDBLOCK { return nil }
            throw SystemError("flock \(path)", errno: error)
        }
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }
}

/// A file as it stands: which file it is, its size and when it was last written (to the
/// nanosecond the kernel keeps). A write to it changes one of them, unless it keeps the size
/// and falls in the clock tick (a few ms) of the last one.
public struct FileStamp: Hashable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: Int64

    /// The file at `path` now (following symlinks), or nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard CCall.posix("stat", context: path, { stat(path, &info) }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// `device:inode:size:nanoseconds`, exact (a JSON number would round it).
    public var description: String { "\(device):\(inode):\(size):\(modified)" }

    /// The stamp of `path` as text, "-" when there is no file.
    public static func text(of path: String) -> String { FileStamp(path: path)?.description ?? "-" }
}

/// A regular file as it is now, change time too (which no program can set back): what was read
/// from it still holds while its key is the same.
public struct FileKey: Equatable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: Int64
    public let changed: Int64

    /// The file's key now (lstat when links are refused), or nil when it is not a regular file.
    public init?(_ path: String, links: RegularFile.Links) {
        var info = stat()
        guard CCall.posix("stat", context: path, { links == .follow ? stat(path, &info) : lstat(path, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG
        else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// Whether the file last changed more than `span` nanoseconds ago: a later change in the
    /// same tick of the clock file times are taken from could not be told from this key (git's
    /// "racy" entries, met the same way).
    public func settled(for span: Int64 = 50_000_000) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - max(changed, modified) > span
    }

    /// `device:inode:size:mtime:ctime`, in nanoseconds.
    public var description: String { "\(device):\(inode):\(size):\(modified):\(changed)" }
}

/// A process as the kernel knows it: its pid and when it started (clock ticks after boot, from
/// /proc/PID/stat), so a pid used again by another process is not taken for it.
public struct ProcessIdentity: Hashable, Sendable {
    public let pid: Int32
    public let started: UInt64

    public init(pid: Int32, started: UInt64) {
        self.pid = pid
        self.started = started
    }

    /// This process.
    public static var current: ProcessIdentity? { running(getpid()) }

    /// The process with `pid` now, or nil when there is none.
    public static func running(_ pid: Int32) -> ProcessIdentity? {
        // /proc's files say size 0: read what there is, up to a page.
        guard pid > 0 else { return nil }
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = CCall.posix("read") { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) } }
        guard n > 0 else { return nil }
        bytes.removeSubrange(n...)
        // After the command's ")" (which may itself hold spaces and parentheses), field 3 is the
        // state; the start time is field 22.
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let started = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return ProcessIdentity(pid: pid, started: started)
    }

    /// This process is still running (not a later one given the same pid).
    public var isRunning: Bool { ProcessIdentity.running(pid) == self }
}
