internal import CSystemd
import Glibc

/// Structured logging to the systemd journal (sd_journal_sendv), used when stderr is the journal.
public enum Journal {
    /// True when systemd connected stderr to the journal: JOURNAL_STREAM names fd 2's device and
    /// inode. (sd_journal_sendv itself succeeds silently without journald, so it cannot tell.)
    /// False, too, without libsystemd: then entries go to stderr as lines.
    public static func stderrIsJournal() -> Bool {
        guard Systemd.isAvailable, let raw = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: raw).split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// One entry: MESSAGE, PRIORITY (syslog levels: 3 error, 4 warning, 6 info) and extra fields
    /// (upper-case names, e.g. DAWNLET_KEY).
    public static func send(_ message: String, priority: Int, fields: [(String, String)]) {
        guard Systemd.isAvailable else { return }
        let items =
            ["MESSAGE=\(message)", "PRIORITY=\(priority)", "SYSLOG_IDENTIFIER=dawnlet-remind"]
            + fields.map { "\($0.0)=\($0.1)" }
        let strings = items.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var vectors = strings.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0!)) }
        _ = Systemd.f.sd_journal_sendv!(&vectors, Int32(vectors.count))
    }
}
