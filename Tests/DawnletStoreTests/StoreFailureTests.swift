import DawnletCCall
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletStore

/// Opening, creating and writing a database when SQLite or the kernel refuses a call, made to
/// fail by name: a clear StoreError naming the file, and nothing half made.
@Suite(.enabled(if: FailureInjection.isCompiledIn, "failures are injected in debug builds only"))
struct StoreFailureTests {
    @Test("sqlite3_open_v2 failing: the database is not opened, the message names the file and SQLite's words; the next open works")
    func openFails() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("dawnlet.sqlite")
        _ = try Store(path: path)
        // SQLITE_CANTOPEN
        let plan = FailureInjection.Plan([FailureInjection.Rule("sqlite3_open_v2", context: path, code: 14)])
        let error = #expect(throws: StoreError.self) { try FailureInjection.$plan.withValue(plan) { _ = try Store(path: path) } }
        #expect(plan.unfired.isEmpty)
        #expect(error?.code == .cannotOpen)
        #expect(error?.sqliteCode == 14)
        #expect(error?.message == "cannot open database \(path): unable to open database file")
        #expect(try Store(path: path).schemaVersionOnDisk() == Store.schemaVersion)
    }

    @Test("mkstemp failing while a database is created: it says why, and nothing is left in its folder")
    func createFails() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("data/dawnlet.sqlite")
        let plan = FailureInjection.Plan([FailureInjection.Rule("mkstemp", context: path, code: ENOSPC)])
        let error = #expect(throws: StoreError.self) { try FailureInjection.$plan.withValue(plan) { _ = try Store(path: path) } }
        #expect(plan.unfired.isEmpty)
        #expect(error?.code == .cannotOpen)
        #expect(error?.message == "cannot create database \(path): No space left on device")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("data")) == [])
    }

    @Test("a bind failing (SQLITE_NOMEM): adding a todo throws and stores nothing")
    func bindFails() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path("dawnlet.sqlite"))
        let plan = FailureInjection.Plan([FailureInjection.Rule("sqlite3_bind_text", code: 7)])
        let error = #expect(throws: StoreError.self) {
            try FailureInjection.$plan.withValue(plan) {
                _ = try store.items.addItem(kind: .todo, title: "Call mum", date: nil, time: nil, schedule: nil, today: CivilDate(dayNumber: 0))
            }
        }
        #expect(plan.unfired.isEmpty)
        #expect(error?.sqliteCode == 7)
        #expect(try store.db.query("SELECT count(*) FROM todos") { $0.int(0) } == [0])
    }
}
