import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletStore

/// Every upgrade keeps the data: a database made by each schema version main ever had (filled by
/// that version's own CLI and runner, Corpus/schemas/README.md), opened by this version, migrates
/// to the latest schema and reads back the items, occurrences, money, payments, delivery log,
/// month snapshots and exported files it held; then takes a write, which names no id used before.
@Suite struct UpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/schemas")

    /// The index: the fixtures by version, and the versions no commit of main had alone.
    static var index: [String: Any] {
        let url = folder.appendingPathComponent("versions.json")
        guard let data = try? Data(contentsOf: url), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// The fixtures' names (`v07`), as the index lists them.
    static let fixtures: [String] = ((index["fixtures"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }

    @Test("the fixtures cover every schema version main had, each with its dump and manifest")
    func coversEveryVersion() throws {
        let index = Self.index
        let listed = try #require(index["fixtures"] as? [[String: Any]], "Corpus/schemas/versions.json is missing or unreadable")
        let neverAlone = (index["never_alone"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? Int }
        let versions = listed.compactMap { $0["version"] as? Int }
        #expect(versions.count == listed.count)
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
        #expect(Set(versions).isDisjoint(with: neverAlone))
        // A new migration needs a fixture made by its commit (scripts/make-schema-fixtures).
        #expect((Set(versions).union(neverAlone)).sorted() == Array(1...Store.schemaVersion))
        #expect(versions.last == Store.schemaVersion)
        for entry in listed {
            let file = try #require(entry["file"] as? String)
            let manifest = try Self.manifest(file)
            #expect(manifest["version"] as? Int == entry["version"] as? Int, "\(file)")
            #expect(manifest["commit"] as? String == entry["commit"] as? String, "\(file)")
            let sql = try String(contentsOf: Self.folder.appendingPathComponent(file + ".sql"), encoding: .utf8)  // exists
            #expect(sql.contains("PRAGMA user_version = \(entry["version"] as? Int ?? -1);"), "\(file)")
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".sql") }
        #expect(Set(onDisk) == Set(listed.compactMap { ($0["file"] as? String).map { $0 + ".sql" } }))
    }

    @Test("a database made by an earlier version migrates and reads back what it held", arguments: fixtures)
    func upgrades(_ file: String) throws {
        let manifest = try Self.manifest(file)
        let version = try #require(manifest["version"] as? Int)
        let folder = try TemporaryFolder()
        let path = folder.path("dawnlet.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
        do {
            let old = try Connection(path: path, busyTimeout: .seconds(1))
            try old.execute(String(contentsOf: Self.folder.appendingPathComponent(file + ".sql"), encoding: .utf8))
            #expect(try old.query("PRAGMA user_version") { $0.int(0) } == [Int64(version)])
        }

        // First a read command of this version's CLI (it migrates the file), then one that writes.
        let items = manifest["items"] as? [String: [[String: Any]]] ?? [:]
        let tables = manifest["tables"] as? [String: [[String: Any]]] ?? [:]
        let listed = try Self.cliJSON(path, ["todo", "list", "--json"])["todos"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["title"] as? String } == items["todo"]?.compactMap { $0["title"] as? String })
        #expect(listed?.first { $0["id"] as? Int == 1 }?["status"] as? String == "done", "the one-off todo done in the fixture")
        if version >= 2 {
            let payments = try Self.cliJSON(path, ["payment", "list", "--json"])["payments"] as? [[String: Any]] ?? []
            #expect(
                payments.map {
                    "\($0["id"] as? Int ?? 0) \($0["kind"] as? String ?? "") \($0["date"] as? String ?? "") \(Amount($0["amount"] as? String ?? "")?.magnitude.minorUnits ?? -1)"
                }
                    == (tables["payments"] ?? []).map {
                        "\($0["id"] as? Int ?? 0) \($0["kind"] as? String ?? "") \($0["date"] as? String ?? "") \(abs($0["amount_minor"] as? Int ?? 0))"
                    })
        }
        let added = try Self.cli(path, ["todo", "add", "Added by the CLI", "--due", "2026-12-06"])
        #expect(added.status == 0, "\(added.stderr)")
        let cliTodo = try #require(Int64(added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "todo add printed \(added.stdout)")

        // Opened by the store: at the latest schema, and everything reads back as it was.
        let store = try Store(path: path, create: false)
        #expect(try store.schemaVersionOnDisk() == Store.schemaVersion)
        #expect(try store.db.query("PRAGMA user_version") { $0.int(0) } == [Int64(Store.schemaVersion)])
        #expect(try store.db.query("PRAGMA application_id") { $0.int(0) } == [Int64(Migrations.applicationID)])
        #expect(manifest["application_id"] as? Int == Int(Migrations.applicationID))
        try Self.expectItems(store, manifest, besides: cliTodo)
        try Self.expectMoney(store, manifest, version: version)
        try Self.expectDeliveries(store, manifest, version: version)

        // Then a write: a todo and a payment, each with an id never used before.
        let sequences = manifest["sequences"] as? [String: Int] ?? [:]
        let loggedTodos = (manifest["deliveries"] as? [[String: Any]] ?? []).compactMap { row -> Int? in
            let parts = (row["key"] as? String ?? "").split(separator: ":")
            return parts.first == "todo" ? Int(parts[1]) : nil
        }
        let todoFloor = ([sequences["todos"] ?? 0] + loggedTodos + (items["todo"] ?? []).compactMap { $0["id"] as? Int }).max() ?? 0
        let today = try #require(CivilDate("2026-12-05"))
        #expect(cliTodo > Int64(todoFloor), "todo id \(cliTodo) was used before (highest \(todoFloor))")
        let todo = try store.items.addItem(kind: .todo, title: "After the upgrade", date: today, time: nil, schedule: nil, today: today)
        #expect(todo > cliTodo)
        if version >= 2 {
            let paymentFloor = ([sequences["payments"] ?? 0] + (tables["payments"] ?? []).compactMap { $0["id"] as? Int }).max() ?? 0
            let logged = try store.sources.logPayment(for: .subscription, id: 1, on: today, amount: nil)
            #expect(logged.payment > Int64(paymentFloor), "payment id \(logged.payment) was used before (highest \(paymentFloor))")
        }
        #expect(try store.items.definitions([.todo]).suffix(2).map(\.title) == ["Added by the CLI", "After the upgrade"])
        #expect(try store.items.definitions([.todo]).count == (items["todo"]?.count ?? 0) + 2)
    }

    /// The CLI built beside the tests (`swift build` puts both in one folder).
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dawnlet-remind")

    /// Runs the CLI on `db` at a fixed instant after every fixture was made.
    static func cli(_ db: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw StoreError(.missing, "no \(binary.path): build it with `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--db", db, "--now", "2026-12-05T12:00:00Z"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "HOME": "/nonexistent"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// The CLI's JSON answer (exit 0 expected).
    static func cliJSON(_ db: String, _ arguments: [String]) throws -> [String: Any] {
        let result = try cli(db, arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(arguments) printed \(result.stdout)")
    }

    static func manifest(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(file + ".json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file).json is not an object")
    }

    /// Todos, events and habits (title, date, time, schedule, duration, reminders; not the todo
    /// `added` since) and their stored occurrences (date, status, an edited title and time).
    static func expectItems(_ store: Store, _ manifest: [String: Any], besides added: Int64) throws {
        let items = try #require(manifest["items"] as? [String: [[String: Any]]])
        for kind in [ItemKind.todo, .event, .habit] {
            let expected = items[kind.rawValue] ?? []
            let read = try store.items.definitions([kind]).filter { $0.kind != .todo || $0.id != added }
            #expect(read.map(\.id) == expected.compactMap { ($0["id"] as? Int).map(Int64.init) }, "\(kind) ids")
            for (definition, row) in zip(read, expected) {
                let what = "\(kind) \(definition.id)"
                #expect(definition.title == (row["title"] ?? row["name"]) as? String, "\(what) title")
                #expect(definition.date?.description == (row["due_date"] ?? row["start_date"] ?? row["created"]) as? String, "\(what) date")
                #expect(definition.time?.description == (row["due_time"] ?? row["start_time"] ?? row["time"]) as? String, "\(what) time")
                let schedule = try (row["schedule"] as? String).map { try Schedule(parsing: $0) }
                #expect(definition.schedule == schedule, "\(what) schedule")
                #expect(definition.durationMinutes == row["duration_minutes"] as? Int, "\(what) duration")
                if let text = row["reminders"] as? String {
                    let offsets = text.split(separator: ",").compactMap { ReminderOffset(String($0).trimmingCharacters(in: .whitespaces)) }
                    #expect(definition.reminders == offsets, "\(what) reminders")
                }
            }
            let range = try #require(CivilDate("2000-01-01"))...(try #require(CivilDate("2100-12-31")))
            let stored = try store.items.storedOccurrences([kind], in: range).sorted { ($0.definitionID, $0.date) < ($1.definitionID, $1.date) }
            let rows = items[kind.rawValue + "_occurrences"] ?? []
            #expect(
                stored.map { "\($0.definitionID) \($0.date) \($0.status.rawValue) \($0.title ?? "-") \($0.time?.description ?? "-")" }
                    == rows.map { row in
                        let title = row["title"] as? String ?? "-"
                        let time = row["time"] as? String ?? "-"
                        return "\(row["definition_id"] as? Int ?? 0) \(row["date"] as? String ?? "") \(row["status"] as? String ?? "") \(title) \(time)"
                    }, "\(kind) occurrences")
        }
    }

    /// Bills and their rows, subscriptions, debts, goals, income, payments, month snapshots and
    /// the exported files.
    static func expectMoney(_ store: Store, _ manifest: [String: Any], version: Int) throws {
        let tables = try #require(manifest["tables"] as? [String: [[String: Any]]])
        func minor(_ row: [String: Any], _ key: String) -> Int64? { (row[key] as? Int).map(Int64.init) }

        let bills = tables["recurring_transactions"] ?? []
        #expect(
            try store.money.recurringTransactions().map { "\($0.id) \($0.name) \($0.amount.minorUnits) \($0.schedule)" }
                == bills.map {
                    "\($0["id"] as? Int ?? 0) \($0["name"] as? String ?? "") \(minor($0, "amount_minor") ?? 0) \(try Schedule(parsing: $0["schedule"] as? String ?? ""))"
                })
        let range = try #require(CivilDate("2000-01-01"))...(try #require(CivilDate("2100-12-31")))
        let rows = (tables["transactions"] ?? []).sorted {
            ($0["date"] as? String ?? "", $0["id"] as? Int ?? 0) < ($1["date"] as? String ?? "", $1["id"] as? Int ?? 0)
        }
        #expect(
            try store.money.transactions(in: range).map {
                "\($0.id) \($0.definitionID ?? 0) \($0.date) \($0.name) \($0.amount.minorUnits) \($0.status.rawValue)"
            }
                == rows.map {
                    "\($0["id"] as? Int ?? 0) \($0["definition_id"] as? Int ?? 0) \($0["date"] as? String ?? "") \($0["name"] as? String ?? "") \(minor($0, "amount_minor") ?? 0) \($0["status"] as? String ?? "")"
                }, "transactions")

        func scheduled(_ read: [ScheduledAmount], _ table: String) throws {
            let expected = try (tables[table] ?? []).map {
                "\($0["id"] as? Int ?? 0) \($0["name"] as? String ?? "") \(minor($0, "amount_minor") ?? 0) \(try Schedule(parsing: $0["schedule"] as? String ?? "")) \(($0["active"] as? Int ?? 1) == 1)"
            }
            #expect(read.map { "\($0.id) \($0.name) \($0.amount.minorUnits) \($0.schedule) \($0.active)" } == expected, "\(table)")
        }
        try scheduled(try store.sources.subscriptions(), "subscriptions")
        try scheduled(try store.sources.incomeSources(), "income_sources")
        #expect(
            try store.sources.debts().map { "\($0.id) \($0.name) \($0.balance.minorUnits) \($0.minimumPayment.minorUnits) \($0.paymentDay)" }
                == (tables["debts"] ?? []).map {
                    "\($0["id"] as? Int ?? 0) \($0["name"] as? String ?? "") \(minor($0, "balance_minor") ?? 0) \(minor($0, "minimum_minor") ?? 0) \($0["payment_day"] as? Int ?? 0)"
                }, "debts")
        #expect(
            try store.sources.goals().map { "\($0.id) \($0.name) \($0.target.minorUnits) \($0.targetDate?.description ?? "-")" }
                == (tables["goals"] ?? []).map {
                    "\($0["id"] as? Int ?? 0) \($0["name"] as? String ?? "") \(minor($0, "target_minor") ?? 0) \($0["target_date"] as? String ?? "-")"
                },
            "goals")
        #expect(
            try store.sources.payments().map { "\($0.id) \($0.kind.rawValue) \($0.sourceID) \($0.date) \($0.amount.minorUnits) \($0.periodStart)" }
                == (tables["payments"] ?? []).map {
                    "\($0["id"] as? Int ?? 0) \($0["kind"] as? String ?? "") \($0["source_id"] as? Int ?? 0) \($0["date"] as? String ?? "") \(minor($0, "amount_minor") ?? 0) \($0["period_start"] as? String ?? "")"
                }, "payments")
        // What a debt payment took off the balance (NULL for rows from before it was kept).
        let taken = (tables["payments"] ?? []).filter { $0["kind"] as? String == "debt" && $0["balance_taken_minor"] is Int }
        let balanceTaken = try store.sources.balanceTaken()
        for row in taken {
            #expect(balanceTaken[Int64(row["id"] as? Int ?? 0)]?.minorUnits == minor(row, "balance_taken_minor"), "balance taken by payment \(row["id"] ?? "")")
        }

        // Month snapshots. Migration 21 drops one that counted a debt in a month that ended
        // before the debt was added (it is made again when needed); every other is kept as it was.
        let debtsAdded = Dictionary(uniqueKeysWithValues: (tables["debts"] ?? []).map { ("\($0["id"] as? Int ?? 0)", $0["created"] as? String ?? "") })
        let kept = (tables["month_snapshots"] ?? []).filter { row in
            guard version < 21, let month = YearMonth(row["month"] as? String ?? "") else { return true }
            let named = (row["debts"] as? String ?? "").split(separator: ",").map { String($0.split(separator: ":")[0]) }
            return !named.contains { (debtsAdded[$0] ?? "") > month.lastDay.description }
        }
        for row in kept {
            let month = try #require(YearMonth(row["month"] as? String ?? ""))
            let snapshot = try #require(try store.sources.snapshot(of: month), "the snapshot of \(month) is gone")
            #expect(snapshot.incoming.minorUnits == Int128(row["money_in"] as? String ?? ""), "\(month) in")
            #expect(snapshot.outgoing.minorUnits == Int128(row["money_out"] as? String ?? ""), "\(month) out")
            #expect(snapshot.debts.map { "\($0.key):\($0.value.minorUnits)" }.sorted().joined(separator: ",") == row["debts"] as? String, "\(month) debts")
        }
        #expect(try store.db.query("SELECT month FROM month_snapshots ORDER BY month") { $0.text(0) } == kept.compactMap { $0["month"] as? String })
        if version >= 17 {
            #expect(kept.contains { $0["month"] as? String == "2026-11" }, "the fixture's November snapshot")
        }

        for row in tables["calendar_exports"] ?? [] {
            let path = try #require(row["path"] as? String)
            let folder = (row["folder"] as? String) ?? URL(fileURLWithPath: path).deletingLastPathComponent().path
            let file = try #require(try store.log.exported(row["uid"] as? String ?? "", in: folder), "the export of \(path) is gone")
            #expect(file.kind.rawValue == row["kind"] as? String && file.itemID == Int64(row["item_id"] as? Int ?? 0) && file.path == path, "\(path)")
        }
        #expect(try store.db.query("SELECT count(*) FROM calendar_exports") { $0.int(0) } == [Int64(tables["calendar_exports"]?.count ?? 0)])
    }

    /// The delivery log: each row's key, channel, state, title, time and lateness, and how it was
    /// answered: its words, its snooze, and its answer as a code with where it came from (rows
    /// answered before answers were kept as codes are read from their words, as migration 24 says).
    static func expectDeliveries(_ store: Store, _ manifest: [String: Any], version: Int) throws {
        let expected = (manifest["deliveries"] as? [[String: Any]] ?? []).map { row in
            let response = row["response"] as? String
            let snoozed = row["snoozed_until"] as? Int
            var answer = row["answer"] as? String
            var origin = row["answered_from"] as? String
            if version < 24, let response, row["state"] as? String == "delivered" {
                answer =
                    ["done", "skipped", "dismissed", "expired", "closed"].contains(response)
                    ? response
                    : snoozed.map { "snoozed:\($0)" }
                        ?? (response.hasPrefix("paid ") ? "paid" : response.hasPrefix("logged payment") ? "logged" : "elsewhere:device")
                origin = ["expired", "closed"].contains(response) ? "server" : response.contains("on another device") ? "device" : "button"
            }
            return "\(row["key"] as? String ?? "") \(row["channel"] as? String ?? "") \(row["state"] as? String ?? "") \(row["title"] as? String ?? "")"
                + " \(row["fire_at"] as? Int ?? 0) \((row["late"] as? Int ?? 0) != 0) \(response ?? "-") \(snoozed.map(String.init) ?? "-") \(answer ?? "-") \(origin ?? "-")"
        }
        var read: [String] = []
        for state in [Delivery.State.claimed, .delivered, .failed, .missed] {
            read += try store.log.deliveries(state).map {
                "\($0.key) \($0.channel.rawValue) \($0.state.rawValue) \($0.title) \($0.fireAt.secondsSinceEpoch) \($0.late)"
                    + " \($0.response ?? "-") \($0.snoozedUntil.map { String($0.secondsSinceEpoch) } ?? "-") \($0.answer?.code ?? "-") \($0.answeredFrom?.rawValue ?? "-")"
            }
        }
        #expect(read.sorted() == expected.sorted(), "deliveries")
        if manifest["deliveries_made_by"] as? String == "serve" {
            #expect(read.contains { $0.hasPrefix("todo:3:2026-11-16:0m command delivered Call the bank") }, "the fixture's delivery")
        }
        if version >= 12 {
            #expect(read.contains { $0.hasPrefix("todo:3:2026-11-16:0m") && $0.hasSuffix(" done - done \(version < 24 ? "button" : "terminal")") })
        }
    }
}
