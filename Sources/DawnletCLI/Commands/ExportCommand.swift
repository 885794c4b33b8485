import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// `export --to DIR [--todos] [--events]` (docs/calendars.md): one .ics per Dawnlet todo or event
/// in a vdir folder, named by a stable UID, so exporting again rewrites the same files; each
/// written to a private temporary file and renamed into place. Files of ours for items deleted
/// since are removed.
enum ExportCommand {
    static let command = Command(
        path: ["export"], usage: "export --to DIR [--todos] [--events]",
        summary: "Write each todo and event (or only --todos / --events) as an .ics file in DIR, a vdir other calendars read.",
        options: [.value("to"), .flag("todos"), .flag("events")], run: run)

    static func run(_ invocation: inout Invocation) throws {
        guard let folder = invocation.arguments.value("to"), !folder.isEmpty else {
            throw CLIError.usage("--to DIR is required", invocation.globals.usage)
        }
        let target = URL(fileURLWithPath: folder).standardizedFileURL.path
        for source in invocation.config.calendars where source.readOnly {
            if URL(fileURLWithPath: ConfigPath.expand(source.path)).standardizedFileURL.path == target {
                throw CLIError.data("calendar \(source.name) is read-only in the config: nothing is written into \(folder)")
            }
        }
        let onlyTodos = invocation.arguments.has("todos"), onlyEvents = invocation.arguments.has("events")
        let kinds: [ItemKind] = onlyTodos == onlyEvents ? [.todo, .event] : onlyTodos ? [.todo] : [.event]
        let store = try invocation.openStore()
        let zone = try invocation.timeZone()
        let namespace = try store.log.exportNamespace()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(code: .failure, message: "\(folder): cannot create the folder")
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw CLIError(code: .failure, message: "\(folder): not a folder")
        }
        let everything = CivilDate(year: 1900, month: 1, day: 1)!...CivilDate(year: 2200, month: 12, day: 31)!
        let stored = try store.items.storedOccurrences(kinds, in: everything) + (try store.items.oneOffTodoRows())
        let stamp = Instant(Date())
        var written = Set<String>()
        var counts: [ItemKind: Int] = [:], changed = 0
        for definition in try store.items.definitions(kinds) {
            let uid = "dawnlet-\(namespace)-\(definition.kind.rawValue)-\(definition.id)"
            let offsets =
                definition.reminders.isEmpty
                ? invocation.config.reminders[definition.kind.reminderKind] ?? [] : definition.reminders
            let text = CalendarExport.document(
                definition, stored: Array(Set(stored)), offsets: offsets, uid: uid + "@dawnlet-remind", zone: zone,
                stamp: stamp)
            if try save(text, to: "\(folder)/\(uid).ics") { changed += 1 }
            written.insert("\(uid).ics")
            counts[definition.kind, default: 0] += 1
        }
        // Ours (by namespace and kind) but no longer an item: deleted since the last export.
        var removed = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where kinds.contains(where: { name.hasPrefix("dawnlet-\(namespace)-\($0.rawValue)-") }) && name.hasSuffix(".ics") && !written.contains(name) {
            if unlink("\(folder)/\(name)") == 0 { removed += 1 }
        }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        invocation.output.line(
            "exported \(count(counts[.todo] ?? 0, "todo")) and \(count(counts[.event] ?? 0, "event")) to \(folder): "
                + "\(count(changed, "file")) written, \(written.count - changed) unchanged, \(removed) removed")
    }

    /// Unchanged files are left alone; others are replaced whole (a new one private). Whether
    /// it wrote.
    static func save(_ text: String, to path: String) throws -> Bool {
        let bytes = Array(text.utf8)
        // An unchanged item keeps its file, and with it the DTSTAMP of the export that wrote it.
        if let existing = FileManager.default.contents(atPath: path),
            Array(existing) == bytes || CalendarExport.sameButStamps(String(decoding: existing, as: UTF8.self), text)
        {
            return false
        }
        if let error = RegularFile.replace(path, with: bytes) {
            throw CLIError(code: .failure, message: "\(path): cannot write (\(String(cString: strerror(error))))")
        }
        return true
    }
}
