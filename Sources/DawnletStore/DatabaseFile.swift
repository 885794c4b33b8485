import DawnletCCall
import Glibc

/// What an existing file at the database path is, decided from its bytes alone, before SQLite
/// opens it: SQLite's own opening may roll back a hot journal, checkpoint or delete a WAL, and so
/// change a file that is not ours. Only a file this says is dawnlet's is ever opened for writing.
///
/// The answer comes from the newest committed copy of page 1 (the main file's, or a later one in
/// the `-wal`): its header carries SQLite's magic, `application_id` and `user_version`, and the
/// page is the root of `sqlite_schema`, so it also tells whether the file has any tables.
enum DatabaseFile {
    enum Verdict: Equatable {
        /// A dawnlet database at this schema version.
        case ours(version: Int)
        /// Not a dawnlet database, and why (one line, for a person).
        case foreign(String)
    }

    /// SQLite's header is 100 bytes; its smallest page is 512.
    static let smallestDatabase = 512

    /// Reads `path` (and its `-wal`, when present) without writing anything.
    static func inspect(_ path: String) throws(StoreError) -> Verdict {
        var info = stat()
        guard CCall.posix("stat", context: path, { stat(path, &info) }) == 0 else {
            throw StoreError(.cannotOpen, "cannot open database \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .foreign("it is not a regular file")
        }
        guard info.st_size >= smallestDatabase else {
            return .foreign(info.st_size == 0 ? "it is empty" : "it is \(info.st_size) byte\(info.st_size == 1 ? "" : "s"), too short to be a database")
        }
        guard let main = try ReadOnlyFile(path), let header = main.bytes(at: 0, count: 512) else {
            return .foreign("it cannot be read")
        }
        guard header.starts(with: magic) else { return .foreign("it is not an SQLite database") }
        if let wal = try ReadOnlyFile(path + "-wal"), let newer = latestPage1(wal: wal.bytes) {
            return verdict(page1: newer)
        }
        return verdict(page1: header)
    }

    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// The decision, from page 1's bytes.
    static func verdict(page1: [UInt8]) -> Verdict {
        guard page1.count >= 100, page1.starts(with: magic) else { return .foreign("it is not an SQLite database") }
        let applicationID = Int32(bitPattern: bigEndian32(page1, 68))
        let version = Int32(bitPattern: bigEndian32(page1, 60))
        guard applicationID == Migrations.applicationID else {
            return .foreign(
                applicationID == 0
                    ? "it is an SQLite database of another program (it has no application id)"
                    : "it is an SQLite database of another program (application id \(hex(applicationID)))")
        }
        guard version >= 1 else {
            return .foreign("it carries dawnlet's application id but schema version \(version), which no dawnlet-remind writes")
        }
        // sqlite_schema's root: a leaf table page (type 13) with no cells holds no table at all.
        // (Every dawnlet database has its tables from the first migration, written with the id.)
        if page1.count >= 105 && page1[100] == 13 && page1[103] == 0 && page1[104] == 0 {
            return .foreign("it carries dawnlet's application id but has no tables")
        }
        return .ours(version: Int(version))
    }

    /// The newest committed page 1 in a WAL file, or nil (no valid frame holds it). Frames count
    /// only while their salts match the header's and their running checksum holds, and only up to
    /// the last commit frame — exactly what SQLite itself would read.
    static func latestPage1(wal read: (_ offset: Int, _ count: Int) -> [UInt8]?) -> [UInt8]? {
        guard let wal = read(0, 32) else { return nil }
        let magicWord = bigEndian32(wal, 0)
        guard magicWord == 0x377F_0682 || magicWord == 0x377F_0683 else { return nil }
        let bigEndianSums = magicWord & 1 == 1
        let pageSize = Int(bigEndian32(wal, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        var sums = checksum(wal, 0..<24, bigEndian: bigEndianSums, from: (0, 0))
        guard sums == (bigEndian32(wal, 24), bigEndian32(wal, 28)) else { return nil }
        let salts = (bigEndian32(wal, 16), bigEndian32(wal, 20))
        var offset = 32
        var pending: [UInt8]?
        var committed: [UInt8]?
        while let frame = read(offset, 24 + pageSize) {
            guard (bigEndian32(frame, 8), bigEndian32(frame, 12)) == salts else { break }
            sums = checksum(frame, 0..<8, bigEndian: bigEndianSums, from: sums)
            sums = checksum(frame, 24..<(24 + pageSize), bigEndian: bigEndianSums, from: sums)
            guard sums == (bigEndian32(frame, 16), bigEndian32(frame, 20)) else { break }
            if bigEndian32(frame, 0) == 1 { pending = Array(frame[24...]) }
            if bigEndian32(frame, 4) != 0 { committed = pending ?? committed }
            offset += 24 + pageSize
        }
        return committed
    }

    /// SQLite's WAL checksum: over 32-bit words in pairs, s0 += x0 + s1, s1 += x1 + s0.
    private static func checksum(
        _ bytes: [UInt8], _ range: Range<Int>, bigEndian: Bool,
        from start: (UInt32, UInt32)
    ) -> (UInt32, UInt32) {
        var (s0, s1) = start
        var i = range.lowerBound
        while i + 8 <= range.upperBound {
            let x0 = bigEndian ? bigEndian32(bytes, i) : littleEndian32(bytes, i)
            let x1 = bigEndian ? bigEndian32(bytes, i + 4) : littleEndian32(bytes, i + 4)
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            i += 8
        }
        return (s0, s1)
    }

    private static func bigEndian32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func littleEndian32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
    }

    private static func hex(_ id: Int32) -> String {
        "0x" + String(UInt32(bitPattern: id), radix: 16, uppercase: true)
    }

}

/// A regular file opened read-only, read in pieces. O_NONBLOCK: a FIFO put in its place cannot
/// hang the open; anything but a regular file is treated as absent.
final class ReadOnlyFile {
    private let fd: Int32

    /// Nil when there is no such file, or it is not a regular file.
    init?(_ path: String) throws(StoreError) {
        let fd = CCall.posix("open", context: path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError(.cannotOpen, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard CCall.posix("fstat", context: path, { fstat(fd, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Exactly `count` bytes at `offset`, or nil when the file ends first.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = CCall.posix("pread") { bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) } }
            if n <= 0 { return nil }
            done += n
        }
        return bytes
    }
}
