import DawnletCCall
import Glibc

/// The one way dawnlet reads and writes a whole file it did not create this instant: the config,
/// zone files, calendars, the files it keeps in an export folder, its state files.
///
/// A folder that a sync tool, a CalDAV server and other devices write into is hostile ground
/// (docs/calendars.md, "Links, foreign files and modes"), so by default:
/// - a symbolic link where a file should be is never read through, written through or removed:
///   it is not ours, and is left alone (`links: .follow` is for a path a person named, such as
///   the config or a calendar file given in it, and for the zone files, which are links by design);
/// - only a regular file is read (a FIFO or a device is refused before it is opened, and the open
///   never blocks), and, by default, only one with no other name (a hard link);
/// - a file is replaced through a temporary file made new with `O_EXCL` at a random name (never
///   an existing name, which may be a link planted there), given dawnlet's own mode (never one
///   copied from what it replaces), synced, renamed over the old one, and the folder synced.
public enum RegularFile {
    /// Whether a symbolic link (and a file with other names) at the path is read as the file it
    /// names.
    public enum Links: Sendable {
        /// Followed: a path a person named (the config, a calendar file), or a system file.
        case follow
        /// Refused: an entry of a folder others write into. The default.
        case refuse
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing readable at the path: the errno of the stat or open.
        case cannotOpen(Int32)
        case notRegular
        case symbolicLink
        case hardLinked
        case tooLarge(limit: Int)
        case changedWhileRead
        /// The new file could not be made, written, synced or renamed into place: its errno.
        case cannotWrite(Int32)

        public var description: String {
            switch self {
            case .cannotOpen(let error): "cannot be read: \(String(cString: strerror(error)))"
            case .notRegular: "not a regular file"
            case .symbolicLink: "a symbolic link, not followed"
            case .hardLinked: "a file with other names (a hard link), not read"
            case .tooLarge(let limit): "larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB")"
            case .changedWhileRead: "cannot be read: it changed while being read"
            case .cannotWrite(let error): "cannot be written: \(String(cString: strerror(error)))"
            }
        }

        /// What stands at the path is not a file of ours, or not one we could have written: it is
        /// left alone, and saying so once is enough (trying again changes nothing until it changes).
        public var isForeign: Bool {
            switch self {
            case .notRegular, .symbolicLink, .hardLinked, .tooLarge: true
            case .cannotOpen, .changedWhileRead, .cannotWrite: false
            }
        }
    }

    public static func read(_ path: String, limit: Int, links: Links = .refuse) -> Result<[UInt8], Failure> {
        var entry = stat()
        let found =
            links == .follow
            ? CCall.posix("stat", context: path) { stat(path, &entry) } : CCall.posix("lstat", context: path) { lstat(path, &entry) }
        guard found == 0 else { return .failure(.cannotOpen(errno)) }
        if let refused = refusal(entry, links: links) { return .failure(refused) }
        let noFollow = links == .refuse ? O_NOFOLLOW : 0
        let fd = CCall.posix("open", context: path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | noFollow) }
        guard fd >= 0 else { return .failure(errno == ELOOP && links == .refuse ? .symbolicLink : .cannotOpen(errno)) }
        defer { close(fd) }
        // What was opened is checked again: the entry may have been swapped since the lstat.
        var info = stat()
        guard CCall.posix("fstat", context: path, { fstat(fd, &info) }) == 0 else { return .failure(.cannotOpen(errno)) }
        if let refused = refusal(info, links: links) { return .failure(refused) }
        guard info.st_size <= limit else { return .failure(.tooLarge(limit: limit)) }
        // One byte more than the size: a file that grew since the fstat is seen to.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let n = CCall.posix("read", context: path) { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) } }
            guard n > 0 else { break }
            filled += n
        }
        guard filled == Int(info.st_size) else { return .failure(.changedWhileRead) }
        bytes.removeLast()
        return .success(bytes)
    }

    /// Why an entry is not read, or nil: not a regular file, a link, or (refusing links) a file
    /// with other names.
    static func refusal(_ entry: stat, links: Links) -> Failure? {
        switch entry.st_mode & S_IFMT {
        case S_IFREG: links == .refuse && entry.st_nlink > 1 ? .hardLinked : nil
        case S_IFLNK: .symbolicLink
        default: .notRegular
        }
    }

    /// Replaces the file at `path` whole, or not at all, with `bytes` and the mode `mode` (never
    /// the old file's): the bytes go to a new temporary file beside it, are synced, and are
    /// renamed over it; then the folder is synced. A link or anything but a regular file at the
    /// path is not ours: it is left alone, and that is the failure returned. The folder's own
    /// path is followed (a person named it); nothing in it is.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) -> Failure? {
        let (folder, name) = FolderWatch.parts(of: path)
        let dir = CCall.posix("open", context: path) { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard dir >= 0 else { return .cannotWrite(errno) }
        defer { close(dir) }
        var entry = stat()
        if CCall.posix("fstatat", context: path, { fstatat(dir, name, &entry, AT_SYMLINK_NOFOLLOW) }) == 0 {
            // A hard link is replaced like any file of ours: the rename changes this name only.
            switch entry.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: return .symbolicLink
            default: return .notRegular
            }
        } else if errno != ENOENT {
            return .cannotWrite(errno)
        }
        // A name no file has: O_EXCL fails on anything already there, a link or a planted hard link.
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = ".\(name).\(String(UInt64.random(in: 1...UInt64.max), radix: 36)).tmp"
            fd = CCall.posix("openat", context: path) { openat(dir, temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { return .cannotWrite(errno) }
        var written = 0
        while written < bytes.count {
            let n = CCall.posix("write", context: path) { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) } }
            guard n > 0 else { break }
            written += n
        }
        var failure: Failure? = written == bytes.count ? nil : .cannotWrite(errno)
        // fchmod, not the open's mode: the umask does not narrow it, and nothing else widens it.
        if failure == nil, CCall.posix("fchmod", context: path, { fchmod(fd, mode) }) != 0 || CCall.posix("fsync", context: path, { fsync(fd) }) != 0 {
            failure = .cannotWrite(errno)
        }
        close(fd)
        if failure == nil, CCall.posix("renameat", context: path, { renameat(dir, temporary, dir, name) }) != 0 { failure = .cannotWrite(errno) }
        if failure != nil {
            unlinkat(dir, temporary, 0)
            return failure
        }
        // The rename itself survives a crash only once the folder is synced.
        if CCall.posix("fsync", context: path, { fsync(dir) }) != 0 { return .cannotWrite(errno) }
        return nil
    }

    /// Removes the regular file at `path`; a link, a file with other names or anything else there
    /// is not ours, and is left alone. Nil when it was removed or there was none.
    public static func remove(_ path: String) -> Failure? {
        let (folder, name) = FolderWatch.parts(of: path)
        let dir = CCall.posix("open", context: path) { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard dir >= 0 else { return errno == ENOENT ? nil : .cannotWrite(errno) }
        defer { close(dir) }
        var entry = stat()
        guard CCall.posix("fstatat", context: path, { fstatat(dir, name, &entry, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            return errno == ENOENT ? nil : .cannotWrite(errno)
        }
        if let refused = refusal(entry, links: .refuse) { return refused }
        guard CCall.posix("unlinkat", context: path, { unlinkat(dir, name, 0) }) == 0 else { return errno == ENOENT ? nil : .cannotWrite(errno) }
        return CCall.posix("fsync", context: path) { fsync(dir) } == 0 ? nil : .cannotWrite(errno)
    }
}
