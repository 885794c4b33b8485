import DawnletCCall
import Glibc

/// A regular file's whole bytes, as the config, zone and calendar readers take them: only a regular
/// file (a FIFO or a device in its place is refused before it is opened, and it is opened without
/// blocking in case one is swapped in), no more than `limit` bytes, read in full or not at all.
public enum RegularFile {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing readable at the path: the errno of the stat or open.
        case cannotOpen(Int32)
        case notRegular
        case tooLarge(limit: Int)
        case changedWhileRead

        public var description: String {
            switch self {
            case .cannotOpen(let error): "cannot be read: \(String(cString: strerror(error)))"
            case .notRegular: "not a regular file"
            case .tooLarge(let limit): "larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB")"
            case .changedWhileRead: "cannot be read: it changed while being read"
            }
        }
    }

    public static func read(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        var entry = stat()
        guard CCall.posix("stat", context: path, { stat(path, &entry) }) == 0 else { return .failure(.cannotOpen(errno)) }
        guard entry.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        let fd = CCall.posix("open", context: path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return .failure(.cannotOpen(errno)) }
        defer { close(fd) }
        var info = stat()
        guard CCall.posix("fstat", context: path, { fstat(fd, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard info.st_size <= limit else { return .failure(.tooLarge(limit: limit)) }
        // One byte more than the size: a file that grew since the fstat is seen to.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let n = CCall.posix("read") { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) } }
            guard n > 0 else { break }
            filled += n
        }
        guard filled == Int(info.st_size) else { return .failure(.changedWhileRead) }
        bytes.removeLast()
        return .success(bytes)
    }

    /// Replaces the file at `path` whole, or not at all: the bytes go to a temporary file beside
    /// it, are synced, and are renamed over it. The file keeps its permissions (a new one gets
    /// `mode`). Returns the errno of what failed.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) -> Int32? {
        var entry = stat()
        let permissions = stat(path, &entry) == 0 ? entry.st_mode & 0o7777 : mode
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder.isEmpty ? "/" : folder)/.\(name).\(getpid()).tmp"
        let fd = CCall.posix("open", context: temporary) { open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, permissions) }
        guard fd >= 0 else { return errno }
        var written = 0
        while written < bytes.count {
            let n = CCall.posix("write") { bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) } }
            guard n > 0 else { break }
            written += n
        }
        var failure: Int32? = written == bytes.count ? nil : errno
        if failure == nil, CCall.posix("fchmod", context: path, { fchmod(fd, permissions) }) != 0 || CCall.posix("fsync", context: path, { fsync(fd) }) != 0 {
            failure = errno
        }
        close(fd)
        if failure == nil, CCall.posix("rename", context: path, { rename(temporary, path) }) != 0 { failure = errno }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
