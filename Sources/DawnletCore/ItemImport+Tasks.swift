/// Task lists as our todos: taskwarrior's `task export` JSON, and todo.txt lines.
extension ItemImport {
    // MARK: taskwarrior

    /// The tasks of `task export` (a JSON list of objects), each a todo matched by its uuid. A
    /// repeating task's template (status `recurring`) is the repeating todo; the instances
    /// taskwarrior made of it are skipped, and so are deleted tasks.
    public static func taskwarrior(_ bytes: [UInt8], zone: Zone) throws(Problem) -> [Entry] {
        let value: ConfigValue
        do { value = try JSON5.parse(bytes).value } catch { throw Problem("not JSON (\(error.description))") }
        guard case .array(let tasks) = value else { throw Problem("not a list of tasks, as task export writes") }
        var entries: [Entry] = []
        for (index, task) in tasks.enumerated() {
            guard case .object(let fields) = task else { throw Problem("item \(index + 1) of the list is not a task") }
            func text(_ name: String) -> String? { if case .string(let s)? = fields[name] { s } else { nil } }
            let summary = text("description") ?? ""
            guard let uuid = text("uuid"), !uuid.isEmpty else {
                entries.append(.refused(sourceID: "", title: summary, reason: "it has no uuid, by which a later import would find it"))
                continue
            }
            func refused(_ why: String) -> Entry { .refused(sourceID: uuid, title: line(summary) ?? "", reason: why) }
            let title: String
            switch ItemImport.title(summary) {
            case .success(let t): title = t
            case .failure(let why):
                entries.append(refused(why.description))
                continue
            }
            let status = text("status") ?? "pending"
            if status == "deleted" {
                entries.append(.skipped(sourceID: uuid, title: title, reason: "it is deleted in taskwarrior"))
                continue
            }
            if let parent = text("parent") {
                entries.append(.skipped(sourceID: uuid, title: title, reason: "an instance of repeating task \(parent), imported as that one todo"))
                continue
            }
            var item = Item(sourceID: uuid, kind: .todo, title: title)
            func when(_ name: String) -> (date: CivilDate, time: WallTime?)? {
                guard let value = text(name), case .utc(let at)? = RecurrenceRule.until(value) else { return nil }
                let (date, seconds) = ISO8601.localDate(of: at, in: zone)
                // taskwarrior has no date without a time: midnight is the day itself.
                return (date, seconds == 0 ? nil : WallTime(hour: seconds / 3600, minute: seconds / 60 % 60))
            }
            for name in ["due", "scheduled", "until", "end"] where text(name) != nil && when(name) == nil {
                item.leftOut.append("its \(name) \"\(DisplayText.escaped(text(name) ?? ""))\", which is no date")
            }
            if let due = when("due") ?? when("scheduled") { (item.date, item.time) = (due.date, due.time) }
            if let recur = text("recur") {
                guard let start = item.date else {
                    entries.append(refused("it repeats (recur:\(DisplayText.escaped(recur))) with no due date"))
                    continue
                }
                guard let rule = taskwarriorRule(recur) else {
                    entries.append(refused("recur:\(DisplayText.escaped(recur)) is no weekly, monthly or yearly repeat dawnlet keeps"))
                    continue
                }
                item.schedule = Schedule(rule: rule, anchor: start, until: when("until")?.date)
            }
            item.done = status == "completed" && item.schedule == nil
            item.doneOn = when("end")?.date
            if case .array(let tags)? = fields["tags"] { setTags(tags.compactMap { if case .string(let s) = $0 { s } else { nil } }, &item) }
            item.details.priority = ["H": 1, "M": 5, "L": 9][text("priority") ?? ""]
            if case .array(let notes)? = fields["annotations"] {
                let lines = notes.compactMap { note -> String? in
                    guard case .object(let o) = note, case .string(let s)? = o["description"] else { return nil }
                    return s
                }
                item.details.note = note(lines.joined(separator: "\n"))
            }
            entries.append(.item(item))
        }
        return entries
    }

    /// taskwarrior's `recur` (`weekly`, `2w`, `monthly`, `quarterly`, `yearly`, `weekdays`…) as
    /// our rule; nil for one that is not a whole number of weeks, months or years (`3d`, `hourly`).
    static func taskwarriorRule(_ recur: String) -> Schedule.Rule? {
        let named: [String: (Int, String)] = [
            "daily": (1, "d"), "day": (1, "d"), "weekly": (1, "w"), "week": (1, "w"), "biweekly": (2, "w"), "fortnight": (2, "w"),
            "monthly": (1, "mo"), "month": (1, "mo"), "bimonthly": (2, "mo"), "quarterly": (3, "mo"), "semiannual": (6, "mo"),
            "annual": (12, "mo"), "yearly": (12, "mo"), "year": (12, "mo"), "biannual": (24, "mo"), "biyearly": (24, "mo"),
        ]
        let word = recur.lowercased()
        if word == "weekdays" { return .weekly(interval: 1, days: .workdays) }
        var (n, unit) = named[word] ?? (1, "")
        if named[word] == nil {
            let digits = word.prefix { $0.isASCII && $0.isNumber }
            guard let count = digits.isEmpty ? 1 : Int(digits) else { return nil }
            (n, unit) = (count, String(word.dropFirst(digits.count)))
            let units = [
                "d": "d", "day": "d", "days": "d", "w": "w", "wk": "w", "wks": "w", "week": "w", "weeks": "w", "mo": "mo", "mos": "mo",
                "month": "mo", "months": "mo", "q": "q", "qtr": "q", "qtrs": "q", "quarter": "q", "quarters": "q", "y": "y", "yr": "y", "yrs": "y",
                "year": "y", "years": "y",
            ]
            guard let known = units[unit] else { return nil }
            (n, unit) = known == "q" ? (n * 3, "mo") : known == "y" ? (n * 12, "mo") : (n, known)
        }
        guard Schedule.intervalLimit.contains(n) else { return nil }
        switch unit {
        case "d": return n == 1 ? .weekly(interval: 1, days: .all) : nil
        case "w": return .weekly(interval: n, days: nil)
        default: return .monthlyOnDay(interval: n, day: nil)
        }
    }

    // MARK: todo.txt

    /// The lines of a todo.txt file, each a todo: `x` done (and its completion date), `(A)` its
    /// priority (A 1 … I and after 9), a creation date, `+project` and `@context` as tags, `due:`
    /// its date, `id:` its identifier. Without `id:`, a line is known by a hash of its text
    /// without the completion mark, the priority and the creation date (`line:` and 16 hex digits).
    public static func todoTxt(_ bytes: [UInt8]) throws(Problem) -> [Entry] {
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { throw Problem("not UTF-8 text, so no todo.txt file") }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard raw.utf8.count <= longestLine else { throw Problem("line \(number + 1) is longer than \(longestLine / 1024) KiB") }
            var words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            var done = false, doneOn: CivilDate?, priority: Int?
            if words.first == "x" {
                done = true
                words.removeFirst()
                if let day = words.first.flatMap(CivilDate.init) { (doneOn, words) = (day, Array(words.dropFirst())) }
            }
            if let first = words.first, first.count == 3, first.hasPrefix("("), first.hasSuffix(")"), let letter = first.dropFirst().first?.asciiValue,
                (65...90).contains(letter)
            {
                (priority, words) = (min(Int(letter) - 64, 9), Array(words.dropFirst()))
            }
            if let first = words.first, CivilDate(first) != nil { words.removeFirst() }
            var identity: String?, due: CivilDate?, tags: [String] = [], titleWords: [String] = [], leftOut: [String] = []
            var kept: [String] = []
            for word in words {
                let pair = word.split(separator: ":", maxSplits: 1).map(String.init)
                let key = pair.count == 2 && !pair[1].hasPrefix("/") ? pair[0].lowercased() : ""
                if key != "pri" { kept.append(word) }
                switch key {
                case "due":
                    if let day = CivilDate(pair[1]) { due = day } else { leftOut.append("\(word), which is no date as YYYY-MM-DD") }
                case "id": identity = "id:" + pair[1]
                case "pri":
                    if let letter = pair[1].uppercased().first?.asciiValue, pair[1].count == 1, (65...90).contains(letter) {
                        priority = min(Int(letter) - 64, 9)
                    }
                case "t", "rec", "h": leftOut.append(word)
                default:
                    if word.count > 1, word.hasPrefix("+") || word.hasPrefix("@") { tags.append(String(word.dropFirst())) } else { titleWords.append(word) }
                }
            }
            let sourceID = identity ?? "line:" + fnv1a(kept.joined(separator: " "))
            let summary = titleWords.isEmpty ? kept.joined(separator: " ") : titleWords.joined(separator: " ")
            guard seen.insert(sourceID).inserted else {
                entries.append(.refused(sourceID: sourceID, title: summary, reason: "line \(number + 1) is the same todo as one before it"))
                continue
            }
            guard case .success(let title) = ItemImport.title(summary) else {
                entries.append(.refused(sourceID: sourceID, title: line(summary) ?? "", reason: "line \(number + 1) has no title, or one over 500 characters"))
                continue
            }
            var item = Item(sourceID: sourceID, kind: .todo, title: title)
            (item.date, item.done, item.doneOn, item.leftOut) = (due, done, doneOn, leftOut)
            item.details.priority = priority
            setTags(tags, &item)
            entries.append(.item(item))
        }
        return entries
    }

    /// FNV-1a, 64 bits, of the text's UTF-8, as 16 hex digits: a line's stable name.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
