import DawnletCCall
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletStore

/// Opening, creating, refusing and migrating real database files.
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
        _ = try store.items.addItem(kind: .todo, title: "x", date: nil, time: nil, schedule: nil, today: CivilDate(dayNumber: 0))
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
            let other = try Connection(path: path, busyTimeout: .milliseconds(100))
            try other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos (name) VALUES ('cat');")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect { try Store(path: path) } throws: { ($0 as? StoreError)?.code == .notADatabase }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database from a newer version is refused, naming both versions, and left untouched")
    func newerSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        do {
            let store = try Store(path: path)
            try store.db.execute("PRAGMA user_version = \(Store.schemaVersion + 3)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try Store(path: path)
        } throws: { error in
            guard let e = error as? StoreError else { return false }
            return e.code == .newerSchema && e.message.contains("\(Store.schemaVersion + 3)") && e.message.contains("\(Store.schemaVersion)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "left untouched")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("every earlier schema version migrates to the latest, keeping data")
    func migrations() throws {
        for version in 1..<Migrations.latest {
            let folder = try TemporaryFolder()
            let path = folder.path("d.sqlite")
            FileManager.default.createFile(atPath: path, contents: nil)
            do {
                let old = try Connection(path: path, busyTimeout: .milliseconds(100))
                for sql in Migrations.all.prefix(version) { try old.execute(sql) }
                try old.execute("PRAGMA user_version = \(version); INSERT INTO todos (title, reminders, created) VALUES ('kept', '', '2026-01-01')")
            }
            let store = try Store(path: path)
            #expect(try store.schemaVersionOnDisk() == Migrations.latest)
            #expect(try store.items.definitions([.todo]).map(\.title) == ["kept"])
            // Opening again runs no migration twice.
            #expect(try Store(path: path).schemaVersionOnDisk() == Migrations.latest)
        }
    }

    @Test(
        "a migration that fails leaves the file as it was: none of the pending ones applied, the same bytes, and it migrates whole once the fault is gone",
        .enabled(if: FailureInjection.isCompiledIn, "failure injection is in debug builds only"))
    func failedMigrationChangesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        let version = 5
        do {
            let old = try Connection(path: path, busyTimeout: .milliseconds(100))
            try old.execute("PRAGMA journal_mode = WAL")
            for sql in Migrations.all.prefix(version) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = \(version); INSERT INTO todos (title, reminders, created) VALUES ('kept', '', '2026-01-01')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // Fails the third pending migration (8: the database's beginning), after two have run.
        let failing = try #require(Migrations.all[version + 2].split(separator: "\n").first.map(String.init))
        let plan = FailureInjection.Plan([.init("sqlite3_exec", context: failing, code: 13)])
        FailureInjection.$plan.withValue(plan) {
            #expect {
                try Store(path: path)
            } throws: { error in
                let e = error as? StoreError
                return e?.message.contains("from schema \(version) failed at migration \(version + 3)") == true
                    && e?.message.contains("the file is as it was") == true
            }
        }
        #expect(plan.unfired.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file's bytes")
        let store = try Store(path: path)
        #expect(try store.schemaVersionOnDisk() == Migrations.latest)
        #expect(try store.items.definitions([.todo]).map(\.title) == ["kept"])
    }

    @Test("deliveries logged before the log kept item ids get them from their keys: the log of one item finds its rows and the digests', no other's")
    func deliveriesKeepTheirItems() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        do {
            let old = try Connection(path: path, busyTimeout: .milliseconds(100))
            // The schema as it stood before the migration that added the item ids.
            let before = try #require(Migrations.all.firstIndex { $0.contains("ADD COLUMN item_id") })
            for sql in Migrations.all.prefix(before) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = \(before)")
            for (key, kind) in [
                ("todo:12:2026-12-01:0m", "todo"), ("todo:1:2026-12-01:0m", "todo"), ("todo:123:2026-12-01:0m", "todo"), ("bill:12:2026-12-01:0m", "bill"),
                ("digest:2026-12-01", "digest"), ("ics:work:u:alarm:2026-12-01T08:50:00", "calendar"),
            ] {
                try old.execute(
                    "INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at) VALUES ('\(key)', 'desktop', 'delivered', '\(kind)', 't', 1796112000, 0)"
                )
            }
        }
        let store = try Store(path: path)
        let log = try store.log.deliveryLog(since: Instant(secondsSinceEpoch: 0), items: [.todo: [12]])
        #expect(Set(log.keys.map(\.key.description)) == ["todo:12:2026-12-01:0m", "digest:2026-12-01"])
        #expect(try store.log.deliveryLog(since: Instant(secondsSinceEpoch: 0), items: [.bill: [12], .todo: [1, 123]]).count == 4)
        #expect(try store.log.deliveryLog(since: Instant(secondsSinceEpoch: 0)).count == 6)
    }

    @Test("deliveries answered before answers were kept as codes read as their words said: done, a snooze, a payment, the server's expiry, another device")
    func answersReadFromWords() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        let rows: [(key: String, response: String?, snoozed: Int64?)] = [
            ("todo:1:2026-12-01:0m", "done", nil), ("todo:2:2026-12-01:0m", "snoozed until 2026-12-01T09:10:00Z", 1_796_115_000),
            ("bill:3:2026-12-01:0m", "paid bill 3 on 2026-12-01", nil), ("debt:4:2026-12-01:0m", "logged payment #2: debt 4, -50.00 for 2026-12", nil),
            ("todo:5:2026-12-01:0m", "expired", nil), ("todo:6:2026-12-01:0m", "acknowledged on another device", nil),
            ("todo:7:2026-12-01:0m", nil, nil),
        ]
        do {
            let old = try Connection(path: path, busyTimeout: .milliseconds(100))
            let before = try #require(Migrations.all.firstIndex { $0.contains("ADD COLUMN answer ") })
            for sql in Migrations.all.prefix(before) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = \(before)")
            for row in rows {
                try old.execute(
                    """
                    INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, response, snoozed_until)
                    VALUES ('\(row.key)', 'desktop', 'delivered', 'todo', 't', 1796112000, 0, \(row.response.map { "'\($0)'" } ?? "NULL"), \(row.snoozed.map(String.init) ?? "NULL"))
                    """)
            }
        }
        let store = try Store(path: path)
        let read = try rows.map { try #require(try store.log.deliveries(of: ReminderKey($0.key)!).first) }
        #expect(
            read.map(\.answer) == [
                .done, .snoozed(until: Instant(secondsSinceEpoch: 1_796_115_000)), .paid, .logged, .expired, .answeredElsewhere(.device), nil,
            ])
        #expect(read.map(\.answeredFrom) == [.button, .button, .button, .button, .server, .device, nil])
        #expect(read.map(\.answered) == [true, true, true, true, false, true, false])
        #expect(read.map(\.response) == rows.map(\.response), "the words are kept for display")
    }

    @Test(
        "a missed reminder keeps why the runner recorded it (grace window, late policy, given up), read back as its life; a row recorded before keeps none, and its detail"
    )
    func missedReasons() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        do {
            let old = try Connection(path: path, busyTimeout: .milliseconds(100))
            let before = try #require(Migrations.all.firstIndex { $0.contains("ADD COLUMN missed_reason") })
            for sql in Migrations.all.prefix(before) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = \(before)")
            try old.execute(
                """
                INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail)
                VALUES ('todo:1:2026-12-01:0m', 'desktop', 'missed', 'todo', 't', 1796112000, 1796112120, 1796112120, 'outside the grace window')
                """)
        }
        let store = try Store(path: path)
        let at = Instant(secondsSinceEpoch: 1_796_112_000)
        func id(_ n: Int) -> DeliveryID { DeliveryID(ReminderKey("habit:\(n):2026-12-01:0m")!, .desktop) }
        try store.log.recordMissed(id(2), title: "Run", fireAt: at, reason: .latePolicy, now: at.adding(seconds: 120))
        try store.log.recordMissed(id(3), title: "Run", fireAt: at, reason: .graceWindow, now: at.adding(seconds: 50_000))
        #expect(try store.log.claim(id(4), title: "Run", fireAt: at, late: false, now: at))
        try store.log.finish(id(4), state: .missed, detail: "exited 1; gave up after 5 attempts", missed: .gaveUp, now: at.adding(seconds: 15))
        // A reason given with another outcome is not kept.
        #expect(try store.log.claim(id(5), title: "Run", fireAt: at, late: false, now: at))
        try store.log.finish(id(5), state: .delivered, detail: nil, missed: .gaveUp, now: at)
        let rows = try (1...5).map { n in
            try #require(try store.log.deliveries(of: ReminderKey(n == 1 ? "todo:1:2026-12-01:0m" : "habit:\(n):2026-12-01:0m")!).first)
        }
        #expect(rows.map(\.missedReason) == [nil, .latePolicy, .graceWindow, .gaveUp, nil])
        #expect(
            rows.map(\.detail) == [
                "outside the grace window", "dropped as late (late policy \"drop\")", "outside the grace window", "exited 1; gave up after 5 attempts", nil,
            ])
        #expect(rows.prefix(4).map(\.life.state) == [.missed(.graceWindow), .missed(.latePolicy), .missed(.graceWindow), .missed(.gaveUp)])
        #expect(try store.log.unacknowledgedMissed().count == 4 && store.log.unacknowledgedMissedCount() == 4)
    }

    @Test("a database locked by another writer: wait, then a clear error")
    func locked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        let store = try Store(path: path, busyTimeout: .milliseconds(200))
        let other = try Connection(path: path, busyTimeout: .milliseconds(100))
        try other.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        #expect {
            try store.items.addItem(kind: .todo, title: "x", date: nil, time: nil, schedule: nil, today: CivilDate(dayNumber: 0))
            try store.items.setOccurrence(.todo, definitionID: 1, date: CivilDate(dayNumber: 0), status: .done)
        } throws: { ($0 as? StoreError)?.code == .busy }
        #expect(ContinuousClock.now - start >= .milliseconds(150))
        try other.execute("ROLLBACK")
        // Nothing half-written: the failed write left no row.
        #expect(try store.items.definitions([.todo]).count <= 1)
        #expect(try store.items.storedOccurrences(in: CivilDate(dayNumber: 0)...CivilDate(dayNumber: 0)).isEmpty)
    }

    // MARK: - Files that are not ours

    /// The bytes of a file and of its -wal and -journal (nil where absent).
    private func snapshot(_ path: String) -> [Data?] {
        ["", "-wal", "-journal"].map { FileManager.default.contents(atPath: path + $0) }
    }

    /// A WAL-mode database whose last transactions are only in its -wal, as a crash leaves it: the
    /// writer's connection is still open while its files are copied to `path`.
    private func uncheckpointed(_ path: String, _ sql: String) throws {
        let live = path + ".live"
        FileManager.default.createFile(atPath: live, contents: nil)
        let writer = try Connection(path: live, busyTimeout: .milliseconds(100))
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        try writer.execute(sql)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: live + suffix, toPath: path + suffix)
        }
        withExtendedLifetime(writer) {}
    }

    @Test("another program's WAL database with transactions only in its -wal: refused, main file and -wal unchanged")
    func foreignWAL() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.sqlite")
        try uncheckpointed(path, "CREATE TABLE photos (name TEXT); INSERT INTO photos VALUES ('cat');")
        let before = snapshot(path)
        #expect(before[1] != nil && before[1]!.count > 32)
        #expect { try Store(path: path) } throws: { ($0 as? StoreError)?.code == .notADatabase }
        #expect(snapshot(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test("another program's database with a hot journal: refused, the journal not rolled back")
    func foreignHotJournal() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("other.sqlite")
        do {
            FileManager.default.createFile(atPath: path, contents: nil)
            let other = try Connection(path: path, busyTimeout: .milliseconds(100))
            try other.execute("PRAGMA application_id = 7; CREATE TABLE photos (name TEXT);")
        }
        // A journal beside it, as a writer that crashed mid-transaction leaves one.
        let journal = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try journal.write(to: URL(fileURLWithPath: path + "-journal"))
        let before = snapshot(path)
        #expect { try Store(path: path) } throws: { error in
            guard let e = error as? StoreError else { return false }
            return e.code == .notADatabase && e.message.contains("application id 0x7")
        }
        #expect(snapshot(path) == before)
    }

    @Test("a dawnlet database whose first migration is still only in its -wal opens, with its data")
    func oursInWAL() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        try uncheckpointed(
            path,
            Migrations.all.joined(separator: ";\n") + """
                ; PRAGMA user_version = \(Migrations.latest);
                INSERT INTO todos (title, reminders, created) VALUES ('kept', '', '2026-01-01');
                """)
        // The main file alone does not say it is ours: page 1 there predates the application id.
        #expect(DatabaseFile.verdict(page1: Array(FileManager.default.contents(atPath: path)!.prefix(512))) != .ours(version: Migrations.latest))
        #expect(try DatabaseFile.inspect(path) == .ours(version: Migrations.latest))
        #expect(try Store(path: path).items.definitions([.todo]).map(\.title) == ["kept"])
    }

    @Test(
        "files refused with a one-line reason, left as they were",
        arguments: [
            ("empty", "it is empty"),
            ("one byte", "too short"),
            ("our id, version -1", "schema version -1"),
            ("our id, no tables", "has no tables"),
            ("a folder", "not a regular file"),
        ])
    func refused(_ name: String, _ reason: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        switch name {
        case "empty": FileManager.default.createFile(atPath: path, contents: Data())
        case "one byte": FileManager.default.createFile(atPath: path, contents: Data([0x53]))
        case "a folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default:
            FileManager.default.createFile(atPath: path, contents: nil)
            let c = try Connection(path: path, busyTimeout: .milliseconds(100))
            try c.execute("PRAGMA application_id = \(Migrations.applicationID)")
            if name.contains("-1") {
                try c.execute("CREATE TABLE todos (id INTEGER PRIMARY KEY); PRAGMA user_version = -1")
            } else {
                try c.execute("PRAGMA user_version = 3")
            }
        }
        let before = snapshot(path)
        #expect { try Store(path: path) } throws: { error in
            guard let e = error as? StoreError else { return false }
            return e.code == .notADatabase && e.message.contains(reason) && !e.message.contains("\n")
        }
        #expect(snapshot(path) == before)
    }

    @Test("the WAL reader counts only frames up to the last commit, with salts and checksums intact")
    func walFrames() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        try uncheckpointed(path, "CREATE TABLE t (x); PRAGMA application_id = 42;")
        var wal = [UInt8](FileManager.default.contents(atPath: path + "-wal")!)
        let read = { (bytes: [UInt8]) in
            DatabaseFile.latestPage1 { offset, count in offset + count <= bytes.count ? Array(bytes[offset..<(offset + count)]) : nil }
        }
        #expect(read(wal).map { Array($0[68..<72]) } == [0, 0, 0, 42])
        // A flipped byte in the last frame's page breaks its checksum: that commit (the id) is not
        // read, the one before it (the table) is.
        wal[wal.count - 1] ^= 0xFF
        #expect(read(wal).map { Array($0[68..<72]) } == [0, 0, 0, 0])
        // A broken first frame: nothing in the log counts.
        wal[32 + 24 + 200] ^= 0xFF
        #expect(read(wal) == nil)
        #expect(read(Array(wal.prefix(20))) == nil)
    }

    @Test("a kept statement reads what is there now, with new arguments, and a query of it inside its own rows gets a statement of its own")
    func keptStatements() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path("dawnlet.sqlite"))
        try store.db.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT n FROM t WHERE n >= ? ORDER BY n"
        #expect(try store.db.queryPrepared(sql, [.int(2)]) { $0.int(0) } == [2, 3])
        try store.db.execute("INSERT INTO t VALUES (4)")
        #expect(try store.db.queryPrepared(sql, [.int(3)]) { $0.int(0) } == [3, 4])
        // While the kept one steps, the same text again: each row's own query sees every row from it.
        let nested = try store.db.queryPrepared(sql, [.int(1)]) { (row) throws(StoreError) in
            try store.db.queryPrepared(sql, [.int(row.int(0))]) { $0.int(0) }
        }
        #expect(nested == [[1, 2, 3, 4], [2, 3, 4], [3, 4], [4]])
        // And the kept one is ready again afterwards.
        #expect(try store.db.queryPrepared(sql, [.int(4)]) { $0.int(0) } == [4])
    }
}
