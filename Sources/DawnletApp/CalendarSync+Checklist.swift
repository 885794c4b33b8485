import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// A todo's checklist in the shared folder: each entry a file of its own beside the todo's
/// (`dawnlet-NAMESPACE-todo-3-item-7.ics`, a subtask as other task programs write them). Not
/// items of ours: never read back as a todo, never deleted here when gone there (written again).
/// An entry checked or unchecked elsewhere, on the occurrence its file names, after the todo last
/// changed here, is applied here; else the file is written as the checklist here says.
extension CalendarSync {
    /// The todo and entry of one of our checklist files; nil for any other name.
    public static func checklistEntry(ofFile name: String, namespace: String) -> (todo: Int64, entry: Int64)? {
        guard name.hasSuffix(".ics"), let range = name.ranges(of: "-item-").last else { return nil }
        let digits = name[range.upperBound...].dropLast(4)
        guard let todo = item(ofFile: String(name[..<range.lowerBound]) + ".ics", namespace: namespace), todo.kind == .todo,
            !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let entry = Int64(digits), String(entry) == digits
        else { return nil }
        return (todo.id, entry)
    }

    /// Writes the files of `d`'s checklist entries (`uid`: the todo's file stem) where they differ
    /// from what the checklist says, after applying what another device checked there. The
    /// names of the files it stands for.
    func syncChecklist(_ d: ItemDefinition, uid: String, folder: String, stored: [StoredOccurrence], now: Instant, into report: inout Report) throws
        -> Set<String>
    {
        guard d.kind == .todo, !d.checklist.isEmpty else { return [] }
        var definition = d
        var subtasks = checklistDocuments(definition, uid: uid, stored: stored, now: now)
        let here = try store.log.changedAt(.todo, id: d.id)
        let occurrence = Checklist.current(of: d, stored: stored, today: ISO8601.localDate(of: now, in: zone).date)
        var files: [Int64: ICalendar.Document] = [:]
        var applied = false
        for subtask in subtasks {
            let path = "\(folder)/\(Self.stem(subtask.uid)).ics"
            guard case .success(let bytes) = RegularFile.read(path, limit: CalendarReader.maximumFileBytes) else { continue }
            let file = ICalendar.Document(parsing: String(decoding: bytes, as: UTF8.self))
            files[subtask.entry.id] = file
            // Checked or unchecked there, on this occurrence, later than the todo changed here.
            guard let edit = CalendarExport.subtaskEdit(file), let there = edit.changedAt, here.map({ there > $0 }) ?? true,
                edit.occurrence == occurrence, edit.checked != d.checklist.isChecked(subtask.entry, on: occurrence)
            else { continue }
            if try store.items.setChecked(todo: d.id, entry: subtask.entry.id, occurrence: occurrence, edit.checked, at: there) {
                let on = occurrence.map { " on \($0)" } ?? ""
                report.applied.append(
                    "todo \(d.id)\(on): checklist entry \"\(subtask.entry.text)\" \(edit.checked ? "checked" : "unchecked") on another device")
                applied = true
            }
        }
        if applied {
            report.storeChanged = true
            definition = try store.items.definition(.todo, id: d.id)
            subtasks = checklistDocuments(definition, uid: uid, stored: stored, now: now)
        }
        var names = Set<String>()
        for subtask in subtasks {
            let name = "\(Self.stem(subtask.uid)).ics"
            names.insert(name)
            if let file = files[subtask.entry.id], CalendarExport.sameButStamps(file, subtask.document) {
                report.unchanged += 1
                continue
            }
            if let failure = RegularFile.replace("\(folder)/\(name)", with: Array(subtask.document.rendered.utf8)) {
                throw Failure("\(folder)/\(name)", failure)
            }
            report.written += 1
        }
        return names
    }

    func checklistDocuments(_ d: ItemDefinition, uid: String, stored: [StoredOccurrence], now: Instant) -> [CalendarExport.Subtask] {
        CalendarExport.checklist(d, stored: stored, uid: uid + "@dawnlet-remind", zone: zone, stamp: now)
    }

    /// A file's stem from an entry's UID (`…-item-7@dawnlet-remind` → `…-item-7`).
    static func stem(_ uid: String) -> String { uid.split(separator: "@", maxSplits: 1).first.map(String.init) ?? uid }
}
