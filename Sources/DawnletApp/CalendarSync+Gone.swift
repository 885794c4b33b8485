import DawnletCore
import DawnletStore
import FoundationEssentials

/// Our files gone from the folder (docs/calendars.md, "Deleted elsewhere"): a file we wrote there
/// and no longer there was deleted on another device, and its item is deleted here, kept 30 days
/// for `restore`; unless so many went at once that the folder looks emptied or unmounted: then
/// those are held, neither deleted here nor written there, until restored or there again.
extension CalendarSync {
    /// One of our items, by kind and id.
    struct ItemRef: Hashable {
        let kind: ItemKind
        let id: Int64
    }

    /// How long an item deleted elsewhere can be restored.
    public static let keptDeleted: Int64 = 30 * 86_400

    /// The folder's files of ours that are gone, honoured: deleted here or held. `names`: what the
    /// folder holds now. The items not to write this pass (deleted, or held).
    func honourGone(folder: String, record: String, names: Set<String>, kinds: [ItemKind], now: Instant, into report: inout Report) throws -> Set<ItemRef> {
        try store.items.purgeDeletedElsewhere(before: now.adding(seconds: -Self.keptDeleted))
        let records = try store.log.exportRecords(in: record)
        let missing = records.filter { !names.contains($0.uid + ".ics") }
        var skip = Set(missing.filter { $0.heldSince != nil }.map { ItemRef(kind: $0.kind, id: $0.itemID) })
        // Held and there again: written as any other from now on.
        for held in records where held.heldSince != nil && names.contains(held.uid + ".ics") { try store.log.release(held.uid, in: record) }
        let gone = missing.filter { $0.heldSince == nil && kinds.contains($0.kind) }.sorted { ($0.kind.rawValue, $0.itemID) < ($1.kind.rawValue, $1.itemID) }
        guard !gone.isEmpty else { return skip }
        let named = gone.map { "\($0.kind.rawValue) \($0.itemID)" }.joined(separator: ", ")
        if CalendarRoundTrip.holdsDeletions(gone: missing.count, of: records.count) {
            try store.log.hold(gone.map(\.uid), in: record, now: now)
            report.held.append(
                "\(missing.count) of our \(records.count) files went from \(folder) at once (\(named)): held, not deleted here and not written there; "
                    + "`dawnlet-remind doctor` says what to do")
            skip.formUnion(gone.map { ItemRef(kind: $0.kind, id: $0.itemID) })
            return skip
        }
        let answers = ReminderAnswers(store: store, config: config, zone: zone)
        for file in gone {
            guard try store.items.deleteElsewhere(file.kind, id: file.itemID, folder: record, uid: file.uid, now: now) else {
                // Its item is gone here too: nothing to keep.
                try store.log.forgetExport(file.uid, in: record)
                continue
            }
            _ = try answers.answerDeleted(file.kind.reminderKind, id: file.itemID)
            report.applied.append(
                "\(file.kind.rawValue) \(file.itemID): its file was deleted on another device: deleted here (`dawnlet-remind \(file.kind.rawValue) restore \(file.itemID)` brings it back)"
            )
            report.storeChanged = true
            skip.insert(ItemRef(kind: file.kind, id: file.itemID))
        }
        return skip
    }
}
