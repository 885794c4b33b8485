@testable import DawnletCore
@testable import DawnletStore
import Foundation
import DawnletTestSupport
import Testing

/// Opening, creating, refusing and migrating real database files (DESIGN §7, issue 3).
@Suite struct StoreFileTests {
    @Test("a new database is private, in WAL mode, at the latest schema")
    func creates() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("a/b/dawnlet.sqlite")
        let store = try Store(path: path)
        #expect(try mode(folder.path("a")) == 0o700)
        #expect(try mode(folder.path("a/b")) == 0o700)
        #expect(try mode(path) == 0o600)
        #expect(try store.schemaVersionOnDisk() == Store.schemaVersion)
        #expect(try store.db.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
        #expect(try store.db.query("PRAGMA foreign_keys") { $0.int(0) } == [1])
        _ = try store.addItem(kind: .todo, title: "x", date: nil, time: nil, schedule: nil, today: CivilDate(dayNumber: 0))
        #expect(try mode(path + "-wal") == 0o600)
    }

    @Test("a file that is not a database is refused and left byte-for-byte untouched")
    func notADatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.sqlite")
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect { try Store(path: path) } throws: { ($0 as? StoreError)?.code == .notADatabase }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("another program's SQLite database is refused and left untouched")
    func foreignDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        do {
            let other = try Connection(path: path, busyTimeoutMilliseconds: 100)
            try other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos (name) VALUES ('cat');")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect { try Store(path: path) } throws: { ($0 as? StoreError)?.code == .notADatabase }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database from a newer version is refused, naming both versions")
    func newerSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        do {
            let store = try Store(path: path)
            try store.db.execute("PRAGMA user_version = \(Store.schemaVersion + 3)")
        }
        #expect {
            try Store(path: path)
        } throws: { error in
            guard let e = error as? StoreError else { return false }
            return e.code == .newerSchema && e.message.contains("\(Store.schemaVersion + 3)") && e.message.contains("\(Store.schemaVersion)")
        }
    }

    @Test("an empty file and every earlier schema version migrate to the latest, keeping data")
    func migrations() throws {
        for version in 0..<Migrations.latest {
            let folder = try TemporaryFolder()
            let path = folder.path("d.sqlite")
            FileManager.default.createFile(atPath: path, contents: nil)
            if version > 0 {
                let old = try Connection(path: path, busyTimeoutMilliseconds: 100)
                for sql in Migrations.all.prefix(version) { try old.execute(sql) }
                try old.execute("PRAGMA user_version = \(version); INSERT INTO todos (title, reminders, created) VALUES ('kept', '', '2026-01-01')")
            }
            let store = try Store(path: path)
            #expect(try store.schemaVersionOnDisk() == Migrations.latest)
            if version > 0 { #expect(try store.definitions([.todo]).map(\.title) == ["kept"]) }
            // Opening again runs no migration twice.
            #expect(try Store(path: path).schemaVersionOnDisk() == Migrations.latest)
        }
    }

    @Test("a database locked by another writer: wait, then a clear error")
    func locked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        let store = try Store(path: path, busyTimeoutMilliseconds: 200)
        let other = try Connection(path: path, busyTimeoutMilliseconds: 100)
        try other.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        #expect {
            try store.addItem(kind: .todo, title: "x", date: nil, time: nil, schedule: nil, today: CivilDate(dayNumber: 0))
            try store.setOccurrence(.todo, definitionID: 1, date: CivilDate(dayNumber: 0), status: .done)
        } throws: { ($0 as? StoreError)?.code == .busy }
        #expect(ContinuousClock.now - start >= .milliseconds(150))
        try other.execute("ROLLBACK")
        // Nothing half-written: the failed write left no row.
        #expect(try store.definitions([.todo]).count <= 1)
        #expect(try store.storedOccurrences(in: CivilDate(dayNumber: 0)...CivilDate(dayNumber: 0)).isEmpty)
    }
}
