import DawnletApp
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
        if let source = ConfigPath.readOnlyCalendar(at: folder, in: invocation.config.calendars) {
            throw CLIError.data("calendar \(source.name) is read-only in the config: nothing is written into \(folder)")
        }
        let onlyTodos = invocation.arguments.has("todos"), onlyEvents = invocation.arguments.has("events")
        let kinds: [ItemKind] = onlyTodos == onlyEvents ? [.todo, .event] : onlyTodos ? [.todo] : [.event]
        let store = try invocation.openStore()
        let zone = try invocation.timeZone()
        // A folder not there is made anew: every file is written into it, none taken as deleted.
        let fresh = !FileManager.default.fileExists(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(code: .failure, message: "\(folder): cannot create the folder")
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw CLIError(code: .failure, message: "\(folder): not a folder")
        }
        let report: CalendarSync.Report
        do {
            report = try CalendarSync(store: store, config: invocation.config, zone: zone).run(
                folder: folder, kinds: kinds, now: try invocation.now(), fresh: fresh)
        } catch let failure as CalendarSync.Failure {
            throw CLIError(code: .failure, message: failure.description)
        }
        // What other devices wrote into the files, now applied here; files left for next time.
        // Files not ours where ours should be, left alone: each named, and the export fails.
        for line in report.applied + report.held + report.failures + report.leftAlone.values.sorted() { invocation.output.error(DisplayText.shown(line)) }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        invocation.output.line(
            "exported \(count(report.counts[.todo] ?? 0, "todo")) and \(count(report.counts[.event] ?? 0, "event")) to \(DisplayText.shown(folder)): "
                + "\(count(report.written, "file")) written, \(report.unchanged) unchanged, \(report.removed) removed")
        let notExported = report.failures.count + report.leftAlone.count
        if notExported > 0 {
            throw CLIError(code: .failure, message: "\(count(notExported, "file")) not exported: see above; nothing else was lost")
        }
    }
}
