import DawnletCCall
import DawnletCore
import Glibc

/// Where a long-running process's log lines go, without ever waiting for whoever reads them: the
/// journal (native protocol) when systemd connected stderr to it, else stderr as lines. A write
/// that would block is not made: the line is dropped and counted, and the next line that gets
/// through is preceded by "N log lines dropped". A stderr pipe nobody reads therefore costs log
/// lines, never a reminder's time or the answer to SIGTERM.
///
/// Use it from one thread.
public final class LogOutput {
    private enum Target {
        /// A datagram socket connected to journald.
        case journal(Int32)
        /// A stream: `fd` (its own non-blocking descriptor where one could be made, else fd 2),
        /// written with `send(MSG_DONTWAIT)` when it is a socket.
        case stream(fd: Int32, socket: Bool, owned: Bool)
    }

    private let target: Target
    /// Lines (or entries) not written because the reader was behind, since the last report.
    public private(set) var dropped = 0
    /// The end of a line only partly taken by a stream, written before anything else.
    private var pending: [UInt8] = []

    /// The most one stderr line carries (PIPE_BUF: a pipe takes a line this long whole or not at
    /// all); a longer one is cut and ends in "…".
    public static let lineLimit = Int(PIPE_BUF)

    /// The journal when stderr is it (and journald's socket answers), else stderr (or `fd`).
    public init(environment: [String: String], fd: Int32 = 2, journalSocket: String = Journal.socketPath) {
        if fd == 2, Journal.stderrIsJournal(environment), let socket = Journal.connect(journalSocket) {
            target = .journal(socket)
            return
        }
        var info = stat()
        let kind = CCall.posix("fstat", { fstat(fd, &info) }) == 0 ? info.st_mode & S_IFMT : 0
        if kind == S_IFSOCK {
            target = .stream(fd: fd, socket: true, owned: false)
        } else if kind == S_IFIFO || kind == S_IFCHR {
            // A pipe or a terminal: opened again, as a file description of our own, so that it can
            // be non-blocking without changing the one we share with the shell or the parent.
            let path = "/proc/self/fd/\(fd)"
            let own = CCall.posix("open", context: path) { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
            target = own >= 0 ? .stream(fd: own, socket: false, owned: true) : .stream(fd: fd, socket: false, owned: false)
        } else {
            // A file (or nothing): a write to it does not wait on a reader.
            target = .stream(fd: fd, socket: false, owned: false)
        }
    }

    deinit {
        switch target {
        case .journal(let fd): close(fd)
        case .stream(let fd, _, let owned): if owned { close(fd) }
        }
    }

    /// True when entries go to the journal with their fields; else `line` is what is written.
    public var isJournal: Bool {
        if case .journal = target { return true }
        return false
    }

    /// One entry: to the journal with its priority and fields, or to stderr as a line, `prefix`
    /// (a time stamp) before it. `message` must already be on one line.
    public func write(_ message: String, priority: Int, fields: [(String, String)], prefix: String = "") {
        switch target {
        case .journal(let fd):
            if dropped > 0, journal(fd, Journal.entry("\(dropped) log line\(dropped == 1 ? "" : "s") dropped", priority: 4, fields: [])) { dropped = 0 }
            if !journal(fd, Journal.entry(message, priority: priority, fields: fields)) { dropped += 1 }
        case .stream(let fd, let socket, _):
            if !flushPending(fd, socket) {
                dropped += 1
                return
            }
            if dropped > 0 {
                let count = "\(prefix)\(dropped) log line\(dropped == 1 ? "" : "s") dropped\n"
                guard stream(fd, socket, Self.bounded(count)) else {
                    dropped += 1
                    return
                }
                dropped = 0
                // The count only partly taken: its end goes first, and this line waits for none.
                guard pending.isEmpty else {
                    dropped = 1
                    return
                }
            }
            if !stream(fd, socket, Self.bounded("\(prefix)\(message)\n")) { dropped += 1 }
        }
    }

    /// `text` as at most `lineLimit` bytes, still ending in a line break.
    static func bounded(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count > lineLimit else { return bytes }
        return cut(bytes, to: lineLimit - 4) + Array("…\n".utf8)
    }

    /// At most `limit` bytes of UTF-8 text, cut before a character, never inside one.
    static func cut(_ bytes: [UInt8], to limit: Int) -> [UInt8] {
        guard bytes.count > limit else { return bytes }
        var end = limit
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(bytes[..<end])
    }

    private func journal(_ fd: Int32, _ datagram: [UInt8]) -> Bool { Journal.send(fd, datagram) }

    /// Writes what it can of `bytes` without waiting. True when all of it is written, or when the
    /// stream took part of it (the rest becomes `pending`: a line is never cut in two); false when
    /// it took nothing.
    private func stream(_ fd: Int32, _ socket: Bool, _ bytes: [UInt8]) -> Bool {
        let written = put(fd, socket, bytes[...])
        if written <= 0 { return false }
        if written < bytes.count { pending = Array(bytes[written...]) }
        return true
    }

    /// The rest of a line cut short, written first; true when none is left.
    private func flushPending(_ fd: Int32, _ socket: Bool) -> Bool {
        guard !pending.isEmpty else { return true }
        let written = put(fd, socket, pending[...])
        if written > 0 { pending.removeFirst(written) }
        return pending.isEmpty
    }

    /// One non-blocking write: the bytes written, 0 when none could be (full, closed, or an error).
    private func put(_ fd: Int32, _ socket: Bool, _ bytes: ArraySlice<UInt8>) -> Int {
        let written = CCall.posix("write") {
            bytes.withUnsafeBytes { raw in
                socket ? send(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) : Glibc.write(fd, raw.baseAddress, raw.count)
            }
        }
        return max(written, 0)
    }
}
