import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

/// What was deleted on another device (docs/calendars.md, "Deleted elsewhere"): `deleted` lists
/// the todos and events whose exported files another device deleted within the last 30 days, each
/// with the command that brings it back; `todo restore ID` and `event restore ID` do, and write
/// its file again. A file held (many of ours gone at once) is written again by the same verb.
enum DeletedCommands {
    static var commands: [Command] {
        [
            Command(
                path: ["deleted"], usage: "deleted [--json]",
                summary: "List the todos and events deleted on another device within the last 30 days, each with the command that restores it.",
                options: [.flag("json")], run: list)
        ]
            + [ItemKind.todo, .event].map { kind in
                Command(
                    path: [kind.rawValue, "restore"], usage: "\(kind.rawValue) restore ID",
                    summary: "Bring back a \(kind.rawValue) deleted on another device (or one held), and write its file again.",
                    options: [], positionals: 1...1, run: { try restore(kind, &$0) })
            }
    }

    static func list(_ invocation: inout Invocation) throws {
        let store = try invocation.readStore()
        let zone = try invocation.timeZone()
        let now = try invocation.now()
        let rows = try store.items.deletedElsewhere(since: now.adding(seconds: -CalendarSync.keptDeleted))
        let held = try store.log.heldExports()
        func command(_ kind: ItemKind, _ id: Int64) -> String { "dawnlet-remind \(kind.rawValue) restore \(id)" }
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "deleted",
                        .array(
                            rows.map {
                                .object([
                                    ("kind", .string($0.kind.rawValue)), ("id", .int(Int($0.id))), ("title", .string($0.title)),
                                    ("deleted_at", .string(ISO8601.format($0.deletedAt, in: zone))), ("folder", .string($0.folder)),
                                    ("until", .string(ISO8601.format($0.deletedAt.adding(seconds: CalendarSync.keptDeleted), in: zone))),
                                    ("restore", .string(command($0.kind, $0.id))),
                                ])
                            })
                    ),
                    (
                        "held",
                        .array(
                            held.map {
                                .object([
                                    ("kind", .string($0.record.kind.rawValue)), ("id", .int(Int($0.record.itemID))), ("folder", .string($0.folder)),
                                    ("since", .string($0.record.heldSince.map { ISO8601.format($0, in: zone) } ?? "")),
                                    ("restore", .string(command($0.record.kind, $0.record.itemID))),
                                ])
                            })
                    ),
                ]))
            return
        }
        if rows.isEmpty && held.isEmpty { invocation.output.line("nothing deleted on another device in the last 30 days") }
        for row in rows {
            invocation.output.line(
                DisplayText.shown(
                    "\(ISO8601.format(row.deletedAt, in: zone))  \(row.kind.rawValue) #\(row.id)  \(row.title)  (deleted in \(row.folder); "
                        + "`\(command(row.kind, row.id))` until \(ISO8601.format(row.deletedAt.adding(seconds: CalendarSync.keptDeleted), in: zone).prefix(10)))"
                ))
        }
        for (folder, record) in held {
            invocation.output.line(
                DisplayText.shown(
                    "held since \(record.heldSince.map { ISO8601.format($0, in: zone) } ?? "?")  \(record.kind.rawValue) #\(record.itemID)  "
                        + "(its file went from \(folder) with many others: `\(command(record.kind, record.itemID))` writes it again, "
                        + "`dawnlet-remind \(record.kind.rawValue) delete \(record.itemID)` deletes it here)"))
        }
    }

    static func restore(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let now = try invocation.now()
        // Kept 30 days: what is older can no longer be restored.
        try store.items.purgeDeletedElsewhere(before: now.adding(seconds: -CalendarSync.keptDeleted))
        let exists = (try? store.items.definition(kind, id: id)) != nil
        if exists {
            // Not deleted: held, or nothing to do.
            let folders = try store.log.restoreHeld(kind, id: id)
            guard !folders.isEmpty else {
                throw CLIError.data("\(kind.rawValue) \(id) was not deleted on another device: nothing to restore")
            }
            invocation.output.line("\(kind.rawValue) \(id): its file is written again")
        } else {
            let restored = try store.items.restore(kind, id: id)
            invocation.output.line(DisplayText.shown("\(kind.rawValue) \(id) restored: \(restored.title)"))
        }
        try writeFile(kind, id, store: store, now: now, invocation)
    }

    /// The item's file written again into the config's export folder now (`serve`, if it runs,
    /// finds it written); said on stderr when it cannot be.
    static func writeFile(_ kind: ItemKind, _ id: Int64, store: Store, now: Instant, _ invocation: Invocation) throws {
        guard let to = invocation.config.exportTo, ConfigPath.readOnlyCalendar(at: to, in: invocation.config.calendars) == nil else { return }
        let folder = ConfigPath.expand(to)
        guard FileManager.default.fileExists(atPath: folder) else {
            invocation.output.error(DisplayText.shown("\(folder) is not there: the file is written when it is (by `serve`, or `export --to`)"))
            return
        }
        let report = try CalendarSync(store: store, config: invocation.config, zone: try invocation.timeZone())
            .run(folder: folder, kinds: [kind], only: [PlanChanges.Item(kind: kind.reminderKind, id: id)], now: now)
        for line in report.applied + report.held + report.failures + report.leftAlone.values.sorted() { invocation.output.error(DisplayText.shown(line)) }
    }
}
