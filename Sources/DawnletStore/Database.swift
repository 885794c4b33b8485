internal import CSQLite
import DawnletCCall
import Glibc

/// A failure of the database, with a code a caller can match and a message a person can act on.
/// Messages name the file, never the user's data.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Hashable, Sendable {
        /// The file or its folder could not be created or opened.
        case cannotOpen
        /// No database at the path, and the command only reads: none was created.
        case missing
        /// The file exists but is not a dawnlet database; it was left untouched.
        case notADatabase
        /// The database was written by a newer dawnlet-remind.
        case newerSchema
        /// Another process held the write lock for longer than the busy timeout.
        case busy
        /// No row with that id.
        case notFound
        /// The request contradicts what is stored (e.g. logging a period twice).
        case conflict
        /// A stored value this version cannot read.
        case corrupt
        case sqlite
    }

    public let code: Code
    public let message: String
    /// The extended SQLite result code, when SQLite reported the failure.
    public let sqliteCode: Int32?

    public init(_ code: Code, _ message: String, sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { message }
}

/// A value bound to or read from a statement.
enum SQLValue: Sendable {
    case int(Int64)
    case text(String)
    case null
}

extension SQLValue {
    /// A value's text form (dates, times, schedules are stored as their canonical text), or NULL.
    static func described<T: CustomStringConvertible>(_ value: T?) -> SQLValue {
        value.map { .text($0.description) } ?? .null
    }
}

extension Optional where Wrapped == String {
    var sql: SQLValue { map(SQLValue.text) ?? .null }
}

/// The one owner of a `sqlite3*`. Not shared across threads: each process (CLI call, runner)
/// opens its own. `sqlite3_close_v2` runs in deinit after every statement owner is gone.
final class Connection {
    private let handle: OpaquePointer
    let path: String

    /// Opens an existing file read-write (never creating it: `Store` decides about creation).
    init(path: String, busyTimeout: Duration) throws(StoreError) {
        var db: OpaquePointer?
        let rc = CCall.resultCode("sqlite3_open_v2", context: path) { sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) }
        guard rc == SQLITE_OK, let db else {
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()."
            // No handle at all (no memory, or a failure a test injected): the code's own words.
            let message = String(cString: db.map { sqlite3_errmsg($0) } ?? sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw StoreError(.cannotOpen, "cannot open database \(path): \(message)", sqliteCode: rc)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.microseconds / 1000))
        self.busyTimeout = busyTimeout
    }

    private let busyTimeout: Duration

    deinit {
        // sqlite3_close_v2 always succeeds: with statements still open it closes after the last.
        sqlite3_close_v2(handle)
    }

    /// Converts a SQLite result code into a `StoreError`: the one place that convention is read.
    func check(_ rc: Int32, _ context: @autoclosure () -> String) throws(StoreError) {
        guard rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE else { return }
        throw error(rc, context())
    }

    func error(_ rc: Int32, _ context: String) -> StoreError {
        // The connection's own words, when they are about this code (an injected failure's are not).
        let message = String(cString: sqlite3_extended_errcode(handle) == rc ? sqlite3_errmsg(handle) : sqlite3_errstr(rc))
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            let seconds = Double(busyTimeout.microseconds / 1000) / 1000
            return StoreError(.busy, "database \(path) is locked by another process (waited \(seconds) s)", sqliteCode: rc)
        case SQLITE_NOTADB:
            return StoreError(.notADatabase, "\(path) is not a dawnlet database (left untouched)", sqliteCode: rc)
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_IOERR, SQLITE_FULL:
            return StoreError(.cannotOpen, "cannot write database \(path): \(message)", sqliteCode: rc)
        case SQLITE_CORRUPT:
            return StoreError(.corrupt, "database \(path) is corrupt: \(message)", sqliteCode: rc)
        default:
            return StoreError(.sqlite, "database \(path): \(context): \(message)", sqliteCode: rc)
        }
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws(StoreError) {
        // The SQL itself stays out of the message: a person gets the file and SQLite's words.
        try check(CCall.resultCode("sqlite3_exec", context: sql) { sqlite3_exec(handle, sql, nil, nil, nil) }, "executing a statement")
    }

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let rc = CCall.resultCode("sqlite3_prepare_v2", context: sql) { sqlite3_prepare_v2(handle, sql, -1, &statement, nil) }
        guard rc == SQLITE_OK, let statement else { throw error(rc, "prepare") }
        return Statement(statement, connection: self)
    }

    /// Every row of `sql` with `arguments` bound, mapped by `row`.
    func query<T>(_ sql: String, _ arguments: [SQLValue] = [], _ row: (Statement) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try rows(of: try prepare(sql), arguments, row)
    }

    /// Every row of `sql` with `arguments` bound, handed to `body` in turn.
    func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: (Statement) throws(StoreError) -> Void) throws(StoreError) {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() { try body(statement) }
    }

    /// Every row of `statement` with `arguments` bound, mapped by `row`.
    private func rows<T>(of statement: Statement, _ arguments: [SQLValue], _ row: (Statement) throws(StoreError) -> T) throws(StoreError) -> [T] {
        try statement.bind(arguments)
        var result: [T] = []
        while try statement.step() { result.append(try row(statement)) }
        return result
    }

    /// Runs one statement with `arguments`; returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> Int {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        _ = try statement.step()
        return Int(sqlite3_changes(handle))
    }

    /// Statements run often (a claim per reminder due), prepared once for this connection's life.
    private var prepared: [String: Statement] = [:]

    /// The statement of `sql` prepared once and kept; a new one while the kept one is stepping
    /// (a query inside another's rows).
    /// Compiles `sql` now and keeps it, for a statement that must not be compiled when it is
    /// first needed (the claim, when reminders are due).
    func keep(_ sql: String) throws(StoreError) { _ = try kept(sql) }

    private func kept(_ sql: String) throws(StoreError) -> Statement {
        if let known = prepared[sql] { return known.isBusy ? try prepare(sql) : known }
        let statement = try prepare(sql)
        prepared[sql] = statement
        return statement
    }

    /// `run`, with the statement prepared once and kept: for the runner's fire path.
    @discardableResult
    func runPrepared(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> Int {
        let statement = try kept(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        _ = try statement.step()
        return Int(sqlite3_changes(handle))
    }

    /// `query`, with the statement prepared once and kept: for what a plan reads per slice of
    /// days (the same few texts, some dozens of times a plan). Only for SQL of fixed text.
    func queryPrepared<T>(_ sql: String, _ arguments: [SQLValue], _ row: (Statement) throws(StoreError) -> T) throws(StoreError) -> [T] {
        let statement = try kept(sql)
        defer { statement.reset() }
        return try rows(of: statement, arguments, row)
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `BEGIN IMMEDIATE` … `COMMIT`: takes the write lock before reading, so a read-then-write is
    /// never interleaved with another writer. Rolls back when `body` throws.
    /// Inside a transaction already (an import's), a savepoint instead: the outer one holds both.
    func writeTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if sqlite3_get_autocommit(handle) == 0 {
            try execute("SAVEPOINT nested")
            do {
                let result = try body()
                try execute("RELEASE nested")
                return result
            } catch {
                rollback("ROLLBACK TO nested; RELEASE nested")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Undoes the open transaction (or savepoint, with its `sql`). It may already be gone (SQLite
    /// rolls back on some errors); nothing to add then.
    func rollback(_ sql: String = "ROLLBACK") {
        _ = CCall.resultCode("sqlite3_exec", context: sql) { sqlite3_exec(handle, sql, nil, nil, nil) }
    }
}

/// The one owner of a `sqlite3_stmt*`; finalized in deinit.
final class Statement {
    private let handle: OpaquePointer
    /// Unowned: the connection keeps its prepared statements, and every other statement lives
    /// only inside one of its calls. (sqlite3_close_v2 waits for the statements to be finalized.)
    private unowned let connection: Connection

    init(_ handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ values: [SQLValue]) throws(StoreError) {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let n): rc = CCall.resultCode("sqlite3_bind_int64") { sqlite3_bind_int64(handle, index, n) }
            case .text(let s): rc = CCall.resultCode("sqlite3_bind_text") { sqlite3_bind_text(handle, index, s, -1, dawnlet_sqlite_transient()) }
            case .null: rc = CCall.resultCode("sqlite3_bind_null") { sqlite3_bind_null(handle, index) }
            }
            try connection.check(rc, "bind")
        }
    }

    /// Advances; true when a row is available.
    func step() throws(StoreError) -> Bool {
        let rc = CCall.resultCode("sqlite3_step", context: String(cString: sqlite3_sql(handle))) { sqlite3_step(handle) }
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc, "step")
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// A column read by `parse`: nil for NULL, `corrupt` for text it cannot read (never silently
    /// dropped: a row this version cannot read is said so).
    func decoded<T>(_ column: Int32, _ parse: (String) -> T?, _ corrupt: @autoclosure () -> StoreError) throws(StoreError) -> T? {
        guard let text = optionalText(column) else { return nil }
        guard let value = parse(text) else { throw corrupt() }
        return value
    }
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }

    /// Makes the statement ready to run again with new bindings.
    func reset() {
        // sqlite3_reset repeats the last step's error, which that step already threw.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Stepped and not yet done or reset.
    var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }
}
