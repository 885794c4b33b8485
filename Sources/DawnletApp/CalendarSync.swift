import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// Our todos and events in a shared folder, both ways (docs/calendars.md): what other devices
/// wrote into their files since we wrote them is applied here first — an instance done, skipped
/// or moved, an alarm acknowledged or snoozed — then each file is written again only where
/// something of ours changed, keeping everything they wrote. `export` and `serve` share it.
public struct CalendarSync {
    let store: Store
    let config: Config
    let zone: Zone
    let zones: ZoneDatabase

    public init(store: Store, config: Config, zone: Zone, zones: ZoneDatabase = .system) {
        self.store = store
        self.config = config
        self.zone = zone
        self.zones = zones
    }

    /// What one pass did.
    public struct Report: Sendable {
        public var counts: [ItemKind: Int] = [:]
        public var written = 0, unchanged = 0, removed = 0
        /// What another device's writing changed here, and conflicts, one line each (for the log).
        public var applied: [String] = []
        /// Files that could not be read or written this time (each tried again at the next pass).
        public var failures: [String] = []
        /// Where one of our files should be, something that is not ours: a link, a folder, a FIFO,
        /// a file with other names or too large to be one we wrote. Left alone, not read, written
        /// or removed; trying again changes nothing until it changes, so it is said once.
        /// Each such path, and the line that says so.
        public var leftAlone: [String: String] = [:]
        /// Files of ours gone from the folder that are held, not deleted here, and why, one line each.
        public var held: [String] = []
        /// Files that failed this time (read, written): their items, tried again at the next pass.
        public var failedItems: Set<PlanChanges.Item> = []
        /// Whether the store changed: the plan is to be made again.
        public var storeChanged = false
    }

    /// Every date an export writes: an item's stored occurrences are read over these.
    static let everything = CivilDate(year: 1900, month: 1, day: 1)!...CivilDate(year: 2200, month: 12, day: 31)!

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// Not ours: said once (`Report.leftAlone`), not tried again.
        var foreign: String?

        init(_ path: String, _ failure: RegularFile.Failure) {
            description = failure.isForeign ? "\(path): \(failure): not ours, left alone" : "\(path): \(failure)"
            foreign = failure.isForeign ? path : nil
        }

        init(description: String) {
            self.description = description
        }
    }

    /// One pass over `folder` for `kinds`: every item, or those of `only` (a change the runner
    /// saw), whose files are read, applied, and written again where they differ. `fresh`: the
    /// folder was made anew (it was not there): what was written into the one before is forgotten,
    /// and every file is written.
    public func run(folder: String, kinds: [ItemKind], only: Set<PlanChanges.Item>? = nil, now: Instant, fresh: Bool = false) throws -> Report {
        let namespace = try store.log.exportNamespace()
        // What was last written is this folder's, however it is named.
        let record = ConfigPath.canonical(folder)
        var report = Report()
        var wanted = Set<String>()
        if fresh { try store.log.forgetExports(in: record) }
        let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        // Files of ours gone from a folder that is there: deleted elsewhere, or held.
        let skip = try names.map { try honourGone(folder: folder, record: record, names: Set($0), kinds: kinds, now: now, into: &report) } ?? []
        let definitions: [ItemDefinition], stored: [StoredOccurrence]
        if let only {
            // A pass for a few changed items reads those items only.
            var (some, rows) = ([ItemDefinition](), [StoredOccurrence]())
            for kind in kinds {
                let ids = Set(only.filter { $0.kind == kind.reminderKind }.map(\.id))
                guard !ids.isEmpty else { continue }
                some += try store.items.definitions(kind, ids: ids)
                rows += try store.items.storedOccurrences(kind, ids: ids, in: Self.everything)
                if kind == .todo { rows += try store.items.oneOffTodoRows(ids: ids) }
            }
            (definitions, stored) = (some, rows)
        } else {
            definitions = try store.items.definitions(kinds)
            stored = try store.items.storedOccurrences(kinds, in: Self.everything) + (try store.items.oneOffTodoRows())
        }
        // Each item's rows apart, once: a file is made from its own.
        let rowsOf = Dictionary(grouping: Set(stored)) { ItemRef(kind: $0.kind, id: $0.definitionID) }
        // Files that cannot have changed since they were last found the same as ours, unread.
        let (kept, counts, context) = (try store.log.keptExports(in: record), try store.log.changeCounts(), keptContext())
        var keep: [(uid: String, kept: String)] = []
        for definition in definitions where !skip.contains(ItemRef(kind: definition.kind, id: definition.id)) {
            let stored = rowsOf[ItemRef(kind: definition.kind, id: definition.id)] ?? []
            let uid = "dawnlet-\(namespace)-\(definition.kind.rawValue)-\(definition.id)"
            let path = "\(folder)/\(uid).ics"
            wanted.insert("\(uid).ics")
            report.counts[definition.kind, default: 0] += 1
            let made = "\(counts[definition.kind]?[definition.id] ?? 0) \(context)"
            let before = definition.checklist.isEmpty ? Self.settledStamp(path) : nil
            if let before, kept[uid] == "\(made) \(before)" {
                report.unchanged += 1
                continue
            }
            do {
                try sync(definition, uid: uid, path: path, record: record, stored: stored, now: now, into: &report)
                // Found the same, and the same file after as before: left unread next time.
                if let before, Self.settledStamp(path) == before { keep.append((uid, "\(made) \(before)")) }
                wanted.formUnion(try syncChecklist(definition, uid: uid, folder: folder, stored: stored, now: now, into: &report))
            } catch let failure as Failure {
                if let path = failure.foreign {
                    report.leftAlone[path] = failure.description
                } else {
                    report.failures.append(failure.description)
                    report.failedItems.insert(PlanChanges.Item(kind: definition.kind.reminderKind, id: definition.id))
                }
            } catch {
                // This file waits for the next pass; the others go on.
                report.failures.append("\(path): \(error)")
                report.failedItems.insert(PlanChanges.Item(kind: definition.kind.reminderKind, id: definition.id))
            }
        }
        try store.log.keep(keep, in: record)
        // Ours (by namespace, kind and id) but no longer an item: deleted since the last export.
        for name in names ?? [] where !wanted.contains(name) {
            // A checklist entry's file: its entry or its todo gone, or the todo not written (held).
            if let entry = Self.checklistEntry(ofFile: name, namespace: namespace) {
                guard kinds.contains(.todo), only.map({ $0.contains(PlanChanges.Item(kind: .todo, id: entry.todo)) }) ?? true else { continue }
                switch RegularFile.remove("\(folder)/\(name)") {
                case nil: report.removed += 1
                case let failure?: report.failures.append(Failure("\(folder)/\(name)", failure).description)
                }
                continue
            }
            guard let item = Self.item(ofFile: name, namespace: namespace), kinds.contains(item.kind),
                only.map({ $0.contains(PlanChanges.Item(kind: item.kind.reminderKind, id: item.id)) }) ?? true
            else { continue }
            switch RegularFile.remove("\(folder)/\(name)") {
            case nil:
                report.removed += 1
                try store.log.forgetExport(String(name.dropLast(4)), in: record)
            case let failure? where failure.isForeign: report.leftAlone["\(folder)/\(name)"] = Failure("\(folder)/\(name)", failure).description
            case let failure?: report.failures.append(Failure("\(folder)/\(name)", failure).description)
            }
        }
        return report
    }

    /// The kind and id of one of our files (`dawnlet-NAMESPACE-todo-3.ics`, exactly); nil for
    /// any other name (another program's file, a sync tool's conflict copy).
    public static func item(ofFile name: String, namespace: String) -> (kind: ItemKind, id: Int64)? {
        let prefix = "dawnlet-\(namespace)-"
        guard name.hasPrefix(prefix), name.hasSuffix(".ics") else { return nil }
        let parts = name.dropFirst(prefix.count).dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = ItemKind(rawValue: String(parts[0])), kind != .habit, parts[1].allSatisfy({ ("0"..."9").contains($0) }),
            let id = Int64(parts[1]), id > 0, String(id) == parts[1]
        else { return nil }
        return (kind, id)
    }

    /// One item's file: what another device wrote since it was last written applied here, then
    /// written again where something of ours changed.
    func sync(
        _ definition: ItemDefinition, uid: String, path: String, record folder: String, stored: [StoredOccurrence], now: Instant, into report: inout Report
    ) throws {
        var document = self.document(definition, stored: stored, uid: uid, now: now)
        let record = try store.log.exported(uid, in: folder)
        let file: String?, read: [UInt8]?
        switch RegularFile.read(path, limit: CalendarReader.maximumFileBytes) {
        case .success(let bytes): (file, read) = (String(decoding: bytes, as: UTF8.self), bytes)
        case .failure(.cannotOpen(ENOENT)): (file, read) = (nil, nil)
        // Unreadable, too large, or being written: left as it is, tried again at the next pass.
        case .failure(let failure): throw Failure(path, failure)
        }
        // The file as written last, and ours as it was then but for the time of export: nothing
        // was done there or here, so nothing is parsed, merged or written (most files, most passes).
        if let record, let file, file == record.body, CalendarExport.sameButStamps(rendered: document.rendered, record.ours) {
            report.unchanged += 1
            return
        }
        // Each text read once into the model: the file, and ours as written and as exported last.
        let written = record.map { ICalendar.Document(parsing: $0.body) }
        let previous = record.map { ICalendar.Document(parsing: $0.ours) }
        // A file that no longer holds the item (empty, cut short, only instances) says nothing
        // another device did: it is written whole again.
        let theirs = file.map { ICalendar.Document(parsing: $0) }
        // An item of its own zone is written, and read back, in that zone.
        let zone = zone(of: definition)
        let whole = theirs.map { CalendarRoundTrip.facts($0, zone: zone).hasSeries } ?? false
        // What ours is written over: the file, or what was written last when the file is an
        // older copy of that (a sync conflict resolved with a stale version): not a revert made
        // elsewhere, so nothing of it is applied, and ours is written again.
        var over = theirs
        if let file, let theirs, whole, let written, file != record?.body, CalendarRoundTrip.isStale(theirs, written: written) {
            report.applied.append("\(definition.kind.rawValue) \(definition.id): \(path) is an older copy of the file written last: ours written again")
            over = written
        } else if let file, let theirs, whole, let written, file != record?.body {
            // Another device wrote into it since: theirs applied here first.
            if try apply(file: theirs, base: written, ours: document, to: definition, now: now, into: &report) {
                let again = try store.items.definitions(definition.kind, ids: [definition.id]).first ?? definition
                let rows = try store.items.storedOccurrences(definition.kind, ids: [definition.id], in: Self.everything)
                document = self.document(again, stored: rows, uid: uid, now: now)
            }
        }
        let ours = document.rendered
        var text = ours
        if let file, let theirs, let over, whole {
            guard let merged = CalendarRoundTrip.merge(file: over, previous: previous, fresh: document, zone: zone) ?? (over == theirs ? nil : over)
            else {
                report.unchanged += 1
                if record?.body != file || previous.map({ !CalendarExport.sameButStamps($0, document) }) ?? true {
                    try store.log.recordExport(
                        uid, in: folder, kind: definition.kind, itemID: definition.id, path: path, body: file, ours: ours, at: now)
                }
                return
            }
            text = merged.rendered
        }
        // Written meanwhile by a sync tool: theirs is read at the next pass, not written over.
        if let read, case .success(let again) = RegularFile.read(path, limit: CalendarReader.maximumFileBytes), again != read {
            throw Failure(description: "\(path): changed while it was being exported: read again at the next pass")
        }
        if let failure = RegularFile.replace(path, with: Array(text.utf8)) { throw Failure(path, failure) }
        try store.log.recordExport(uid, in: folder, kind: definition.kind, itemID: definition.id, path: path, body: text, ours: ours, at: now)
        report.written += 1
    }

    /// The item as its file says it now: its reminders, its own or its kind's defaults.
    func document(_ definition: ItemDefinition, stored: [StoredOccurrence], uid: String, now: Instant) -> ICalendar.Document {
        let offsets = definition.reminders.isEmpty ? config.reminders[definition.kind.reminderKind] ?? [] : definition.reminders
        return CalendarExport.calendar(definition, stored: stored, offsets: offsets, uid: uid + "@dawnlet-remind", zone: zone(of: definition), stamp: now)
    }

    /// The zone an item's file is written and read in: its own (`ItemDefinition.zone`), else this
    /// pass's. A name the tzdata here does not know: this pass's, as its plan reads it.
    func zone(of definition: ItemDefinition) -> Zone {
        definition.zone.flatMap { try? zones.zone(named: $0) } ?? zone
    }

    /// What `file` says differently from `base`, applied to the item here; a change that
    /// disagrees with one made here since `base` is applied only when it is the later.
    /// Whether the store changed.
    func apply(
        file: ICalendar.Document, base: ICalendar.Document, ours: ICalendar.Document, to d: ItemDefinition, now: Instant, into report: inout Report
    ) throws -> Bool {
        let own = zone(of: d)
        let read = { (document: ICalendar.Document) in CalendarRoundTrip.facts(document, zone: own, zones: { try? zones.zone(named: $0) }) }
        let (before, theirs, mine) = (read(base), read(file), read(ours))
        let name = "\(d.kind.rawValue) \(d.id)"
        // When it last changed here, before anything of theirs is written (which changes it too).
        let here = try store.log.changedAt(d.kind, id: d.id)
        var changed = false
        for change in CalendarRoundTrip.changes(base: before, file: theirs) {
            if CalendarRoundTrip.conflicts(change, ours: mine, base: before) {
                let stamp = { (t: Instant?) in t.map { ISO8601.format($0, in: zone) } ?? "an unknown time" }
                guard let there = change.at, here.map({ there > $0 }) ?? true else {
                    report.applied.append(
                        "\(name): \(describe(change.what)) on another device at \(stamp(change.at)) not applied: changed here later (\(stamp(here)))")
                    continue
                }
                report.applied.append("\(name): changed here at \(stamp(here)) and on another device later (\(stamp(there))): the later kept")
            }
            guard let (words, written) = try applyOne(change.what, to: d, now: now, at: change.at) else { continue }
            report.applied.append("\(name): \(words)")
            changed = changed || written
        }
        report.storeChanged = report.storeChanged || changed
        return changed
    }

    func describe(_ what: CalendarRoundTrip.Change.What) -> String {
        switch what {
        case .status(let date, let status): "\(date.map { "\($0) " } ?? "")\(status == .open ? "open again" : status.rawValue)"
        case .time(let date, let time): "\(date) moved to \(time)"
        case .moved(let date, let to, let time): "\(date.map { "\($0) " } ?? "")moved to \(to)\(time.map { " \($0)" } ?? "")"
        case .acknowledged(let at): "acknowledged up to \(ISO8601.format(at, in: zone))"
        case .snoozed(let until, _): "snoozed until \(ISO8601.format(until, in: zone))"
        case .details: "note, location, link, priority or tags changed"
        }
    }

    /// One change written here (made there `at`): what it did, and whether the store changed; nil
    /// when it did nothing.
    func applyOne(_ what: CalendarRoundTrip.Change.What, to d: ItemDefinition, now: Instant, at: Instant? = nil) throws -> (String, Bool)? {
        let words = describe(what) + " on another device"
        let applied = { (done: Bool) in done ? (words, true) : nil }
        switch what {
        case .status(let date, let status):
            // A one-off without a date is done on the day it is marked, as `todo done` does.
            let undated = d.schedule == nil && d.date == nil ? ISO8601.localDate(of: now, in: zone).date : nil
            guard let day = date ?? (d.schedule == nil ? d.date : nil) ?? undated else { return nil }
            if let schedule = d.schedule, !schedule.matches(day, defaultAnchor: d.date ?? day) { return nil }
            switch status {
            case .open:
                let cleared = try store.items.clearOccurrence(d.kind, definitionID: d.id, date: day, status: .done)
                return applied(try cleared || store.items.clearOccurrence(d.kind, definitionID: d.id, date: day, status: .skipped))
            case .done where d.kind != .todo:
                return nil
            case .done, .skipped:
                return applied(try store.items.setOccurrence(d.kind, definitionID: d.id, date: day, status: status) != status)
            }
        case .time(let date, let time):
            guard let schedule = d.schedule, schedule.matches(date, defaultAnchor: d.date ?? date), d.time != nil else { return nil }
            try store.items.setOccurrence(d.kind, definitionID: d.id, date: date, status: nil, time: time)
            return (words, true)
        case .moved(nil, let to, let time):
            guard d.schedule == nil, d.date != to || d.time != time else { return nil }
            var moved = d
            (moved.date, moved.time) = (to, time)
            try store.items.replaceDefinition(moved, now: now)
            return (words, true)
        case .moved(let date?, let to, _):
            return ("\(date) moved to \(to) on another device: an occurrence on another day than its own is not kept here, so not applied", false)
        case .details(let details):
            guard d.details != details, d.kind != .habit else { return nil }
            var changed = d
            changed.details = details
            try store.items.replaceDefinition(changed)
            return (words, true)
        case .acknowledged(let until):
            return applied(try answer(d, .answeredElsewhere(.device), through: until, now: now, words: "acknowledged on another device"))
        case .snoozed(let until, let alarm):
            let words = "snoozed on another device until \(ISO8601.format(until, in: zone).dropFirst(11).prefix(5))"
            return applied(
                try answer(d, .snoozed(until: until), through: min(now, until), now: now, words: words, snoozing: (alarm.flatMap(Self.offset(ofAlarm:)), at)))
        }
    }

    /// The reminder offset an exported alarm's UID names (`…@dawnlet-remind-alarm-10m`); nil for
    /// another UID.
    static func offset(ofAlarm uid: String) -> ReminderOffset? {
        guard let range = uid.ranges(of: "@dawnlet-remind-alarm-").last else { return nil }
        return ReminderOffset(String(uid[range.upperBound...]))
    }

    /// The item's reminders due up to `through` (within eight days before it), recorded answered
    /// on another device: each; or, `snoozing`, the latest one the snooze moved: of the alarm it
    /// names (its offset) or, naming none of ours, the item's, which it does not move when
    /// answered here after the snooze was made.
    func answer(
        _ d: ItemDefinition, _ answer: Answer, through: Instant, now: Instant, words: String,
        snoozing: (offset: ReminderOffset?, madeAt: Instant?)? = nil
    ) throws -> Bool {
        let window = through.adding(seconds: -8 * 86_400)...through
        let reader = PlanReader(store: store, config: config, zone: zone, zones: zones)
        guard let input = try reader.spliceInput(changes: [PlanChanges.Item(kind: d.kind.reminderKind, id: d.id)], now: now, window: window) else {
            return false
        }
        var reminders = Planner.plan(
            items: input.items, overdue: [], rules: PlanRules(config: config, databaseBegan: nil), log: [:], now: now, window: window, zone: zone
        ).reminders.filter { $0.definitionID == d.id && $0.item?.kind == d.kind.reminderKind }
        if let snoozing {
            // The alarm it names, when it is one of ours: that offset's reminders only.
            if let named = snoozing.offset {
                let ofAlarm = reminders.filter { if case .item(_, _, _, let offset) = $0.key { offset == named } else { false } }
                if !ofAlarm.isEmpty { reminders = ofAlarm }
            }
            reminders = reminders.max { $0.fireAt < $1.fireAt }.map { [$0] } ?? []
        }
        var wrote = false
        for reminder in reminders {
            for channel in reminder.channels {
                wrote =
                    try store.log.answeredElsewhere(
                        DeliveryID(reminder.key, channel), title: reminder.title, fireAt: reminder.fireAt, answer: answer, words: words,
                        now: now, madeAt: snoozing?.madeAt) || wrote
            }
        }
        return wrote
    }
}
