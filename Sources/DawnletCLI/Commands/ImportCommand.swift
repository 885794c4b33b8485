import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem
import Glibc

/// `import FILE [--from icalendar|taskwarrior|todo.txt] [--dry-run] [--json]` (docs/import.md):
/// another program's todos and events made ours, in one transaction; importing again updates
/// them. Exit 0 when everything came in, 65 when some were refused (the rest are written) or
/// the file is no such file, 66 when it cannot be read.
enum ImportCommand {
    static let command = Command(
        path: ["import"], usage: "import FILE [--from icalendar|taskwarrior|todo.txt] [--dry-run] [--json]",
        summary: "Make todos and events of an iCalendar file, a taskwarrior export or a todo.txt file; importing again updates them.",
        options: [.value("from"), .flag("dry-run"), .flag("json")], positionals: 1...1, run: run)

    /// The largest file read: 16 MiB.
    static let limit = 16 << 20

    static func run(_ invocation: inout Invocation) throws {
        let name = invocation.arguments.value("from") ?? ItemImport.Source.icalendar.rawValue
        guard let source = ItemImport.Source(rawValue: name.lowercased()) else {
            throw CLIError.usage("--from \"\(DisplayText.escaped(name))\": give icalendar, taskwarrior or todo.txt", invocation.globals.usage)
        }
        let path = invocation.arguments.positionals[0]
        let shown = DisplayText.escaped(path)
        let bytes: [UInt8]
        switch RegularFile.read(path, limit: limit, links: .follow) {
        case .success(let read): bytes = read
        case .failure(.cannotOpen(ENOENT)): throw CLIError(code: .noInput, message: "\(shown): no such file")
        case .failure(.tooLarge(let limit)): throw CLIError.data("\(shown): larger than \(limit >> 20) MiB, so not imported")
        case .failure(let failure): throw CLIError(code: .noInput, message: "\(shown): \(failure)")
        }
        let zone = try invocation.timeZone()
        let entries: [ItemImport.Entry]
        do {
            switch source {
            case .icalendar: entries = try ItemImport.calendar(bytes, zone: zone, zones: { try? ZoneDatabase.system.zone(named: $0) })
            case .taskwarrior: entries = try ItemImport.taskwarrior(bytes, zone: zone)
            case .todoTxt: entries = try ItemImport.todoTxt(bytes)
            }
        } catch {
            throw CLIError.data("\(shown): \(error.description); nothing imported")
        }
        let dryRun = invocation.arguments.has("dry-run")
        var store: Store?
        if dryRun {
            do { store = try invocation.readStore() } catch let error as StoreError where error.code == .missing { store = nil }
        } else {
            store = try invocation.openStore()
        }
        let outcomes = try ItemImporter.run(entries, source: source, store: store, dryRun: dryRun, today: try invocation.today(), now: try invocation.now())
        var counts: [ItemImporter.Outcome.What: Int] = [:]
        for outcome in outcomes { counts[outcome.what, default: 0] += 1 }
        if invocation.json {
            invocation.output.line(json(outcomes, source: source, dryRun: dryRun).text)
        } else {
            for outcome in outcomes { text(outcome, &invocation) }
            let tally = [ItemImporter.Outcome.What.new, .updated, .unchanged, .refused, .skipped].map { "\(counts[$0] ?? 0) \($0.rawValue)" }
            invocation.output.line((dryRun ? "dry run, nothing written: " : "imported \(shown): ") + tally.joined(separator: ", "))
        }
        if let refused = counts[.refused] {
            let rest = dryRun ? "the rest would be imported" : "the rest were imported"
            throw CLIError.data("\(refused) of \(outcomes.count) refused (see above); \(rest)")
        }
    }

    /// `new      todo 12  Call mum`, `refused  "Gym" (UID abc): why`, and what was left out.
    static func text(_ outcome: ItemImporter.Outcome, _ invocation: inout Invocation) {
        let word = outcome.what.rawValue + String(repeating: " ", count: 10 - outcome.what.rawValue.count)
        let title = DisplayText.shown(outcome.title)
        switch outcome.what {
        case .refused, .skipped:
            let from = outcome.sourceID.isEmpty ? "" : " (\(DisplayText.escaped(outcome.sourceID)))"
            invocation.output.line("\(word)\"\(title)\"\(from): \(outcome.reason ?? "")")
        default:
            let item = [outcome.kind?.rawValue, outcome.id.map(String.init)].compactMap { $0 }.joined(separator: " ")
            invocation.output.line("\(word)\(item)  \(title)" + (outcome.reason.map { " (\($0))" } ?? ""))
            for what in outcome.leftOut { invocation.output.line("          left out: \(DisplayText.shown(what))") }
        }
    }

    static func json(_ outcomes: [ItemImporter.Outcome], source: ItemImport.Source, dryRun: Bool) -> JSON {
        .object([
            ("source", .string(source.rawValue)), ("dry_run", .bool(dryRun)),
            (
                "items",
                .array(
                    outcomes.map { o in
                        .object([
                            ("outcome", .string(o.what.rawValue)), ("kind", o.kind.map { .string($0.rawValue) } ?? .null),
                            ("id", o.id.map { .int(Int($0)) } ?? .null), ("source_id", .string(o.sourceID)), ("title", .string(o.title)),
                            ("reason", o.reason.map { .string($0) } ?? .null), ("left_out", .array(o.leftOut.map { .string($0) })),
                        ])
                    })
            ),
        ])
    }
}
