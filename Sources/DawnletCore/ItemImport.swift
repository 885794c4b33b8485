/// Todos and events brought in from another program's file (docs/import.md): an iCalendar file's
/// VTODOs and VEVENTs (`ItemImport+ICalendar.swift`), taskwarrior's `task export` JSON and
/// todo.txt lines (`ItemImport+Tasks.swift`), each read into `Item`s of ours or refused one by one
/// with the reason; and what an item already imported would become (`Item.definition(over:)`,
/// `Item.differs`). Pure: text in, values out; the store and the file are the caller's.
public enum ItemImport {
    /// Where items come from: kept beside each item made, so that importing again matches them.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        case icalendar
        case taskwarrior
        case todoTxt = "todo.txt"
    }

    /// One todo or event as the source says it, in our terms.
    public struct Item: Hashable, Sendable {
        /// Its identifier in the source: a UID, a uuid, a todo.txt line's `id:` or hash.
        public var sourceID: String
        public var kind: ItemKind
        public var title: String
        /// A one-off's date (a todo's due date, an event's start); a repeating item's first day.
        public var date: CivilDate?
        public var time: WallTime?
        /// Its repeats, anchored on `date`, with no time of its own (the item's `time` is it).
        public var schedule: Schedule?
        public var durationMinutes: Int?
        /// The zone its time is read in (`America/New_York`), when the source names one; nil: floating.
        public var zone: String?
        public var reminders: [ReminderOffset] = []
        public var details = ItemDetails()
        /// A one-off the source says is done.
        public var done = false
        /// The day an undated one-off was done (its completion date), else the day it is imported.
        public var doneOn: CivilDate?
        /// Instances of a repeating item the source says are done or skipped.
        public var instances: [CivilDate: OccurrenceStatus] = [:]
        /// What the source had that is left out (an alarm after the start, a tag of other letters).
        public var leftOut: [String] = []

        public init(sourceID: String, kind: ItemKind, title: String) { (self.sourceID, self.kind, self.title) = (sourceID, kind, title) }

        /// The definition it becomes over `old` (the item made by an earlier import): what the
        /// source says, and what only dawnlet holds (channels, way of reminding) kept.
        public func definition(over old: ItemDefinition) -> ItemDefinition {
            var d = ItemDefinition(
                kind: kind, id: old.id, title: title, time: time, schedule: timedSchedule, date: date, durationMinutes: durationMinutes,
                reminders: reminders)
            (d.remindsFrom, d.channels, d.style, d.details, d.zone) = (old.remindsFrom, old.channels, old.style, details, zone)
            return d
        }

        /// The schedule as an item keeps it: with the item's time.
        public var timedSchedule: Schedule? {
            guard var schedule else { return nil }
            schedule.time = time
            return schedule
        }

        /// Whether importing it over `old` and its stored rows (`rows`) changes anything: its
        /// definition, or a done or skipped instance the source says that is not recorded yet.
        /// What was done here and is open in the source stays done (an import never reopens).
        public func differs(from old: ItemDefinition, rows: [StoredOccurrence], today: CivilDate) -> Bool {
            var theirs = old
            theirs.schedule?.time = old.time
            if definition(over: old) != theirs { return true }
            return !marks(given: rows, today: today).isEmpty
        }

        /// The instances to mark (date and status) that `rows` (the item's stored rows) do not
        /// already say. An undated one-off done is done once, on whatever day was recorded.
        public func marks(given rows: [StoredOccurrence], today: CivilDate) -> [(date: CivilDate, status: OccurrenceStatus)] {
            var wanted = instances
            if schedule == nil {
                guard done else { return [] }
                if date == nil, rows.contains(where: { $0.status == .done }) { return [] }
                wanted = [date ?? doneOn ?? today: .done]
            }
            let recorded = Dictionary(rows.map { ($0.date, $0.status) }, uniquingKeysWith: { a, _ in a })
            return wanted.filter { recorded[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// What one component, task or line of the file is.
    public enum Entry: Hashable, Sendable {
        case item(Item)
        /// Not imported, and why (a repeat dawnlet cannot keep, no title…).
        case refused(sourceID: String, title: String, reason: String)
        /// Not imported on purpose (a task deleted in taskwarrior, an instance of a repeating task).
        case skipped(sourceID: String, title: String, reason: String)
    }

    /// A whole file that is not what it should be: nothing of it is imported.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The longest line read, in bytes, of a todo.txt file or an iCalendar content line unfolded.
    public static let longestLine = 65_536

    // MARK: Text as kept

    /// A title or location as kept: line breaks and tabs as spaces, other control characters and
    /// bidi overrides left out, blank space at the ends cut; nil when nothing is left. Longer than
    /// 500 characters is the caller's refusal.
    public static func line(_ text: String) -> String? {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                out.unicodeScalars.append(" ")
            } else if DisplayText.isTypable(scalar) {
                out.unicodeScalars.append(scalar)
            }
        }
        let trimmed = String(out.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A note as kept: its lines (tabs and line breaks kept, other control characters left out),
    /// blank space at the end cut, at most `ItemDetails.noteLimit` characters; nil when empty.
    public static func note(_ text: String) -> String? {
        var out = ""
        for scalar in text.unicodeScalars where scalar == "\n" || scalar == "\t" || DisplayText.isTypable(scalar) { out.unicodeScalars.append(scalar) }
        let kept = String(out.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().prefix(ItemDetails.noteLimit))
        return kept.isEmpty ? nil : kept
    }

    /// The tags of `words` as kept (spaces as `-`, lowercase), each once; the words that cannot be
    /// a tag are returned beside them.
    public static func tags(_ words: [String]) -> (tags: [String], refused: [String]) {
        var tags: [String] = [], refused: [String] = []
        for word in words {
            let trimmed = word.split(separator: " ", omittingEmptySubsequences: true).joined(separator: "-")
            guard !trimmed.isEmpty else { continue }
            guard let tag = ItemDetails.tag(trimmed) else {
                refused.append(word)
                continue
            }
            if !tags.contains(tag) { tags.append(tag) }
        }
        return (tags, refused)
    }

    /// An item's title checked: nil with the reason it is refused.
    static func title(_ text: String?) -> Result<String, Problem> {
        guard let title = text.flatMap(line) else { return .failure(Problem("it has no title")) }
        guard title.count <= 500 else { return .failure(Problem("its title is longer than 500 characters")) }
        return .success(title)
    }

    /// `value` put in its details, or left out with a word of why.
    static func setLocation(_ text: String?, _ item: inout Item) {
        guard let text, let location = line(text) else { return }
        if location.count <= 500 { item.details.location = location } else { item.leftOut.append("its location, longer than 500 characters") }
    }

    static func setLink(_ text: String?, _ item: inout Item) {
        guard let text, !text.isEmpty else { return }
        if ItemDetails.isLink(text) { item.details.url = text } else { item.leftOut.append("its link \"\(DisplayText.escaped(text))\", which is no link") }
    }

    static func setTags(_ words: [String], _ item: inout Item) {
        let (tags, refused) = tags(words)
        item.details.tags = tags
        for word in refused { item.leftOut.append("the tag \"\(DisplayText.escaped(word))\" (a tag is 1 to 40 letters, digits, - or _)") }
    }
}
