/// A todo's checklist exported as other task programs write subtasks: each entry a VTODO of its
/// own (a file of its own: a CalDAV resource holds one UID) with `RELATED-TO;RELTYPE=PARENT`
/// naming the todo's UID, its text as SUMMARY, and STATUS:COMPLETED (with COMPLETED, when it was
/// checked) when it is checked on the todo's current occurrence, else NEEDS-ACTION. A repeating
/// todo's entry says which occurrence in `X-DAWNLET-OCCURRENCE`, so that a check made elsewhere
/// is applied to that occurrence only.
extension CalendarExport {
    /// One entry as exported: its UID and document.
    public struct Subtask: Sendable {
        public let entry: Checklist.Entry
        public let uid: String
        public let document: ICalendar.Document
    }

    /// The UID of entry `entry` of the todo whose UID is `parent`: `-item-ID` before the parent's
    /// `@domain` (`dawnlet-x-todo-3-item-7@dawnlet-remind`), the same at every export.
    public static func checklistUID(parent: String, entry: Int64) -> String {
        guard let at = parent.lastIndex(of: "@") else { return parent + "-item-\(entry)" }
        return String(parent[..<at]) + "-item-\(entry)" + String(parent[at...])
    }

    /// Each entry of `d`'s checklist, as checked on its current occurrence at `stamp` in `zone`.
    public static func checklist(_ d: ItemDefinition, stored: [StoredOccurrence], uid: String, zone: Zone, stamp: Instant) -> [Subtask] {
        guard !d.checklist.isEmpty else { return [] }
        let occurrence = Checklist.current(of: d, stored: stored, today: ISO8601.localDate(of: stamp, in: zone).date)
        return d.checklist.entries.map { entry in
            let own = checklistUID(parent: uid, entry: entry.id)
            var lines = ["UID:\(escape(own))", "DTSTAMP:\(basic(stamp))", "SUMMARY:\(escape(entry.text))", "RELATED-TO;RELTYPE=PARENT:\(escape(uid))"]
            if let occurrence { lines.append("X-DAWNLET-OCCURRENCE;VALUE=DATE:\(basic(occurrence))") }
            if let at = d.checklist.checkedAt(entry, on: occurrence) {
                lines += ["STATUS:COMPLETED", "COMPLETED:\(basic(at))"]
            } else {
                lines.append("STATUS:NEEDS-ACTION")
            }
            let calendar = ICalendar.Component(
                "VCALENDAR", properties(["VERSION:2.0", "PRODID:\(productID)"]) + [.component(ICalendar.Component("VTODO", properties(lines)))])
            return Subtask(entry: entry, uid: own, document: ICalendar.Document([.component(calendar)], lineEnd: "\r\n"))
        }
    }

    /// What another device made of an entry's file: checked or not, on which occurrence (nil:
    /// none named), and when it changed there (its LAST-MODIFIED, which an export of ours never
    /// writes: nil for a file as we wrote it). Nil when the file holds no VTODO.
    public static func subtaskEdit(_ document: ICalendar.Document) -> (checked: Bool, occurrence: CivilDate?, changedAt: Instant?)? {
        guard let todo = document.calendarItems(unended: true).first(where: { $0.name == "VTODO" }) else { return nil }
        let checked = todo.first("STATUS")?.value.uppercased() == "COMPLETED"
        let occurrence = todo.first("X-DAWNLET-OCCURRENCE").flatMap { line -> CivilDate? in
            if case .date(let date)? = RecurrenceRule.until(line.value) { return date }
            return nil
        }
        return (checked, occurrence, todo.first("LAST-MODIFIED")?.utc)
    }
}
