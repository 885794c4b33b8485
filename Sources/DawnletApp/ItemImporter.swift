import DawnletCore
import DawnletStore

/// Imported items written into the store (`import`, docs/import.md), all in one transaction:
/// each entry matched by its source's identifier to the item an earlier import made of it, and
/// that one updated (or left as it is) rather than a second made. An item deleted here since is
/// made again, and says so. A dry run does the same in a transaction rolled back.
public enum ItemImporter {
    /// What became of one entry.
    public struct Outcome: Sendable {
        public enum What: String, Sendable { case new, updated, unchanged, refused, skipped }
        public let what: What
        public let kind: ItemKind?
        /// Its item here (nil: refused or skipped, or new in a dry run of no database).
        public let id: Int64?
        public let sourceID: String
        public let title: String
        /// Why it was refused or skipped; for a new one, that its item was deleted since.
        public let reason: String?
        public let leftOut: [String]
    }

    /// Writes `entries` of `source` (or, when `dryRun`, works out what it would write and undoes
    /// it). With no `store` (a dry run before any database), each item would be new.
    public static func run(
        _ entries: [ItemImport.Entry], source: ItemImport.Source, store: Store?, dryRun: Bool, today: CivilDate, now: Instant
    ) throws(StoreError) -> [Outcome] {
        guard let store else { return entries.map { outcome($0, what: .new, id: nil) } }
        let body = { () throws(StoreError) -> [Outcome] in
            var outcomes: [Outcome] = []
            for entry in entries {
                guard case .item(let item) = entry else {
                    outcomes.append(outcome(entry, what: .new, id: nil))
                    continue
                }
                outcomes.append(try write(item, source: source, store: store, dryRun: dryRun, today: today, now: now))
            }
            return outcomes
        }
        return dryRun ? try store.rehearsal(body) : try store.transaction(body)
    }

    static func write(_ item: ItemImport.Item, source: ItemImport.Source, store: Store, dryRun: Bool, today: CivilDate, now: Instant) throws(StoreError)
        -> Outcome
    {
        let found = try store.imports.item(source: source.rawValue, sourceID: item.sourceID)
        var old: ItemDefinition?
        if let found, found.kind == item.kind {
            do { old = try store.items.definition(found.kind, id: found.id) } catch  where error.code == .notFound { old = nil }
        }
        if let old {
            let rows = try rows(of: old, store)
            guard item.differs(from: old, rows: rows, today: today) else { return outcome(.item(item), what: .unchanged, id: old.id) }
            try store.items.replaceDefinition(item.definition(over: old), now: now)
            try mark(item, id: old.id, rows: rows, store: store, today: today)
            return outcome(.item(item), what: .updated, id: old.id)
        }
        let id = try store.items.addItem(
            kind: item.kind, title: item.title, date: item.date, time: item.time, schedule: item.timedSchedule, durationMinutes: item.durationMinutes,
            reminders: item.reminders, details: item.details, zone: item.zone, today: today, now: now)
        try mark(item, id: id, rows: [], store: store, today: today)
        try store.imports.record(source: source.rawValue, sourceID: item.sourceID, kind: item.kind, id: id)
        let again = found.map { "made again: \($0.kind.rawValue) \($0.id), imported before, was deleted since" }
        return outcome(.item(item), what: .new, id: dryRun ? nil : id, reason: again)
    }

    /// The stored rows of one item, whatever their date.
    static func rows(of d: ItemDefinition, _ store: Store) throws(StoreError) -> [StoredOccurrence] {
        let all = CivilDate(year: 1, month: 1, day: 1)!...CivilDate(year: 9999, month: 12, day: 31)!
        return try store.items.storedOccurrences(d.kind, ids: [d.id], in: all)
    }

    static func mark(_ item: ItemImport.Item, id: Int64, rows: [StoredOccurrence], store: Store, today: CivilDate) throws(StoreError) {
        for (date, status) in item.marks(given: rows, today: today) {
            try store.items.setOccurrence(item.kind, definitionID: id, date: date, status: status)
        }
    }

    static func outcome(_ entry: ItemImport.Entry, what: Outcome.What, id: Int64?, reason: String? = nil) -> Outcome {
        switch entry {
        case .item(let item):
            return Outcome(what: what, kind: item.kind, id: id, sourceID: item.sourceID, title: item.title, reason: reason, leftOut: item.leftOut)
        case .refused(let sourceID, let title, let reason):
            return Outcome(what: .refused, kind: nil, id: nil, sourceID: sourceID, title: title, reason: reason, leftOut: [])
        case .skipped(let sourceID, let title, let reason):
            return Outcome(what: .skipped, kind: nil, id: nil, sourceID: sourceID, title: title, reason: reason, leftOut: [])
        }
    }
}
