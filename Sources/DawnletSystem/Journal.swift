import DawnletCCall
import Glibc

/// The systemd journal's native protocol: one datagram per entry to journald's socket, each field
/// as `NAME=value\n`, or, for a value with a line break, `NAME\n`, its length as 64-bit little
/// endian, the value and `\n`. Sent without waiting: a journald that falls behind costs the entry,
/// never the caller's time.
public enum Journal {
    /// True when systemd connected stderr to the journal: JOURNAL_STREAM names fd 2's device and
    /// inode. (A datagram to journald's socket succeeds whether or not anyone reads the journal
    /// later, so where stderr goes is what tells.)
    public static func stderrIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard CCall.posix("fstat", { fstat(2, &info) }) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// The most one entry's message may carry; longer messages are cut (an entry is one datagram).
    static let messageLimit = 32 * 1024

    /// One entry: MESSAGE, PRIORITY (syslog levels: 3 error, 4 warning, 6 info), our identifier
    /// and the extra fields (upper-case names, e.g. DAWNLET_KEY), as one datagram.
    static func entry(_ message: String, priority: Int, fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        func field(_ name: String, _ value: some Collection<UInt8>) {
            bytes += name.utf8
            if value.contains(10) {
                bytes.append(10)
                withUnsafeBytes(of: UInt64(value.count).littleEndian) { bytes += $0 }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes += value
            bytes.append(10)
        }
        field("MESSAGE", LogOutput.cut(Array(message.utf8), to: messageLimit))
        field("PRIORITY", "\(priority)".utf8)
        field("SYSLOG_IDENTIFIER", "dawnlet-remind".utf8)
        for (name, value) in fields { field(name, value.utf8) }
        return bytes
    }

    /// Where journald takes entries.
    public static let socketPath = "/run/systemd/journal/socket"

    /// One datagram, sent without waiting: false when it could not be (a full queue, no one there).
    static func send(_ fd: Int32, _ datagram: [UInt8]) -> Bool {
        CCall.posix("send") { datagram.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) } }
            == datagram.count
    }

    /// A datagram socket connected to journald (or a test's socket, or systemd's notify socket:
    /// a path, or an abstract name after `@`), non-blocking; nil when there is none to connect to.
    static func connect(_ path: String) -> Int32? {
        let fd = CCall.posix("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0) }
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        // An abstract name is its bytes after a NUL, with no NUL after; a path ends with its NUL.
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw in
            guard !bytes.isEmpty, bytes.count < raw.count else { return false }
            raw.copyBytes(from: bytes)
            return true
        }
        let length = abstract ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count) : socklen_t(MemoryLayout<sockaddr_un>.size)
        let connected =
            fits
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    CCall.posix("connect") { Glibc.connect(fd, address, length) }
                }
            } == 0
        guard connected else {
            close(fd)
            return nil
        }
        return fd
    }
}
