internal import CSQLite
import DawnletCCall
import DawnletCore
import Glibc

/// The dawnlet database: one SQLite file in WAL mode, created private (0600 in a 0700 folder),
/// migrated on open. Reads and writes of every module go through here; no clock is read here —
/// "today" is always an argument.
public final class Store {
    let db: Connection
    /// Schedules parsed during this Store's life, by their stored text: rows often share one
    /// ("weekdays from 2026-11-30"), and a plan reads every definition.
    let schedules = ScheduleTexts()

    /// The SQLite library this build links, for `doctor` and bug reports.
    public static let sqliteVersion = String(cString: sqlite3_libversion())

    /// The newest schema this version knows.
    public static var schemaVersion: Int { Migrations.latest }

    /// Opens the database at `path`, creating it (and missing folders) when absent, then migrates.
    ///
    /// Refuses, leaving the file and its `-wal`/`-journal` byte-for-byte untouched (SQLite never
    /// opens it): anything but a regular file; a file too short to be a database; a file that is
    /// not SQLite; an SQLite file of another program; a database whose schema is newer than this
    /// version's. (`DatabaseFile` decides from the bytes.)
    /// With `create: false` (a command that only reads), a missing file is `.missing`, and
    /// nothing is created. A database created here began at `began` (nil: the system clock's now).
    /// With `folders: false` (a path the person typed), a missing folder is `.missing` too: a
    /// mistyped path builds no folders.
    public init(path: String, busyTimeout: Duration = .seconds(5), create: Bool = true, folders: Bool = true, began: Instant? = nil) throws(StoreError) {
        if create {
            if !folders, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                let folder = String(path[..<slash])
                var info = stat()
                guard CCall.posix("stat", context: folder, { stat(folder, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw StoreError(.missing, "no folder \(folder) for the database \(path) (make it first, or give another --db)")
                }
            }
            try Store.createIfMissing(path, busyTimeout: busyTimeout, began: began)
        } else {
            var info = stat()
            if CCall.posix("lstat", context: path, { lstat(path, &info) }) != 0 && errno == ENOENT {
                throw StoreError(.missing, "no database at \(path) (the first command that writes, such as todo add, creates it)")
            }
        }
        let version: Int
        switch try DatabaseFile.inspect(path) {
        case .foreign(let why):
            throw StoreError(.notADatabase, "\(path) is not a dawnlet database: \(why) (left untouched)")
        case .ours(let onDisk):
            version = onDisk
        }
        if version > Migrations.latest {
            throw StoreError(
                .newerSchema,
                "database \(path) has schema version \(version), newer than this dawnlet-remind's \(Migrations.latest): upgrade dawnlet-remind")
        }
        db = try Connection(path: path, busyTimeout: busyTimeout)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        // Foreign keys go on after migrating: a migration that rebuilds a table must not cascade
        // the drop of the old one (and the pragma is a no-op inside a transaction).
        if version < Migrations.latest { try migrate(path) }
        try db.execute("PRAGMA foreign_keys = ON;")
    }

    /// Changes whenever another connection commits (`PRAGMA data_version`): the runner re-plans
    /// only when someone else wrote.
    public func dataVersion() throws(StoreError) -> Int64 {
        try db.query("PRAGMA data_version") { $0.int(0) }.first ?? 0
    }

    /// The schema version of the open database.
    public func schemaVersionOnDisk() throws(StoreError) -> Int {
        try db.query("PRAGMA user_version") { Int($0.int(0)) }.first ?? 0
    }

    /// Every pending migration in one write transaction: a migration that fails leaves the file
    /// at the version it was, with nothing of the earlier ones applied.
    private func migrate(_ path: String) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            // Read inside the write lock: another process may have migrated meanwhile.
            let current = try db.query("PRAGMA user_version") { Int($0.int(0)) }.first ?? 0
            guard current < Migrations.latest else { return }
            for (index, sql) in Migrations.all.enumerated().dropFirst(current) {
                do throws(StoreError) {
                    try db.execute(sql)
                } catch {
                    throw StoreError(
                        error.code, "migrating \(path) from schema \(current) failed at migration \(index + 1): \(error.message); the file is as it was",
                        sqliteCode: error.sqliteCode)
                }
            }
            // What foreign keys would have kept (they are off while migrating).
            if let broken = try db.query("PRAGMA foreign_key_check", [], { $0.text(0) }).first {
                throw StoreError(.corrupt, "migrating \(path) from schema \(current) left a reference in \(broken) pointing nowhere; the file is as it was")
            }
            try db.execute("PRAGMA user_version = \(Migrations.latest)")
        }
    }

    /// When nothing is at `path`: creates the missing folders (0700), then the database, migrated,
    /// in a private temporary file beside it (0600), and links that into place. So no empty or
    /// half-made file ever stands at `path`; a process that created it first wins, and its file is
    /// used. SQLite gives the -wal and -shm files the database file's permissions.
    private static func createIfMissing(_ path: String, busyTimeout: Duration, began: Instant?) throws(StoreError) {
        var info = stat()
        if CCall.posix("lstat", context: path, { lstat(path, &info) }) == 0 { return }
        var folder = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (i, component) in components.enumerated() {
            folder += (i == 0 ? "" : "/") + component
            if folder.isEmpty || CCall.posix("access", context: folder, { access(folder, F_OK) }) == 0 { continue }
            if CCall.posix("mkdir", context: folder, { mkdir(folder, 0o700) }) != 0 && errno != EEXIST {
                throw StoreError(.cannotOpen, "cannot create folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        var template = Array((path + ".new-XXXXXX").utf8CString)
        let fd = CCall.posix("mkstemp", context: path) { template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) } }
        guard fd >= 0 else {
            throw StoreError(.cannotOpen, "cannot create database \(path): \(String(cString: strerror(errno)))")
        }
        // SQLite opens the file by its name; this descriptor only made it, privately.
        close(fd)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        do {
            let fresh = try Connection(path: temporary, busyTimeout: busyTimeout)
            try fresh.writeTransaction { () throws(StoreError) in
                for sql in Migrations.all { try fresh.execute(sql) }
                if let began {
                    _ = try fresh.run("UPDATE settings SET value = ? WHERE key = 'created'", [.text(String(began.secondsSinceEpoch))])
                }
                try fresh.execute("PRAGMA user_version = \(Migrations.latest)")
            }
            try fresh.execute("PRAGMA journal_mode = WAL")
        }
        if CCall.posix("link", context: path, { link(temporary, path) }) != 0 && errno != EEXIST {
            throw StoreError(.cannotOpen, "cannot create database \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// Ids as an SQL list: integers, so nothing a person typed is ever in the statement.
func sqlList(_ ids: Set<Int64>) -> String { ids.sorted().map(String.init).joined(separator: ",") }

/// ` WHERE id IN (…)` for `ids`, or nothing for every row.
func whereID(_ ids: Set<Int64>?) -> String { ids.map { " WHERE id IN (\(sqlList($0)))" } ?? "" }

// MARK: - Repositories: one per module, over the one connection

extension Store {
    /// Todos, events and habits: definitions and their occurrence rows.
    public struct Items {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// Recurring transactions and the months of rows they lay out.
    public struct Money {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// The money calendar's sources (subscriptions, debts, goals, income) and their payments.
    public struct Sources {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// The delivery log, and the database's own notes (settings).
    public struct Log {
        let db: Connection
    }

    /// The database file, for the runner's watch on its folder.
    public var path: String { db.path }

    public var items: Items { Items(db: db, schedules: schedules) }
    public var money: Money { Money(db: db, schedules: schedules) }
    public var sources: Sources { Sources(db: db, schedules: schedules) }
    public var log: Log { Log(db: db) }
}

/// Parsed schedules and reminder lists by their stored text, for one Store (one thread): the
/// many definitions that say the same share one value (one list of offsets, not one each).
final class ScheduleTexts {
    private var parsed: [String: Schedule] = [:]
    private var lists: [String: [ReminderOffset]] = [:]

    func parse(_ text: String) -> Schedule? {
        if let known = parsed[text] { return known }
        guard let schedule = Schedule(text) else { return nil }
        parsed[text] = schedule
        return schedule
    }

    func offsets(_ text: String) -> [ReminderOffset]? {
        if let known = lists[text] { return known }
        guard let list = ReminderOffset.list(text) else { return nil }
        lists[text] = list
        return list
    }
}
