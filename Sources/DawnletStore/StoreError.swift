// DawnletStore: the SQLite database (schema, migrations, repositories, delivery log) through the
// CSQLite target. Built by issue 3.
import CSQLite

/// The SQLite library this build links, e.g. "3.40.1" — shown by `doctor` and in bug reports.
public let sqliteLibraryVersion = String(cString: sqlite3_libversion())
