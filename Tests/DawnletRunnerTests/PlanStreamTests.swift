import DawnletApp
import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletRunner

/// A plan streamed in slices of days is the whole plan, reminder for reminder and in the
/// same order. The oracle is the straightforward computation: every occurrence of the window
/// (plus the longest lead) planned at once, sorted by fire time and then key text.
@Suite struct PlanStreamTests {
    let berlin = Zone.named("Europe/Berlin")

    /// The whole plan, made the plain way.
    func oracle(_ source: PlanReader, now: Instant, window asked: ClosedRange<Instant>, all: Bool) throws -> [PlannedReminder] {
        let window = asked.lowerBound...max(asked.lowerBound, min(asked.upperBound, PlanReader.latest))
        let definitions = try source.store.items.definitions()
        // Every offset anywhere, whether or not its kind has items: wider than the stream's lead.
        let offsets = source.config.reminders.values.flatMap { $0 } + definitions.flatMap(\.reminders)
        let lead = ((offsets.map(\.exactSeconds).max() ?? 0) + 86_399) / 86_400
        let first = ISO8601.localDate(of: window.lowerBound, in: source.zone).date.adding(days: -1)
        let last = ISO8601.localDate(of: window.upperBound, in: source.zone).date.adding(days: lead + 1)
        let items = try source.items(definitions, money: try PlanReader.MoneySources(source.store), in: first...last, anchoredFrom: first)
        let plan = Planner.plan(
            items: items, overdue: try source.overdueTodos(definitions),
            rules: PlanRules(config: source.config, databaseBegan: try source.store.log.createdAt()),
            log: try source.store.log.deliveryLog(since: window.lowerBound), snoozed: try source.store.log.snoozes(),
            now: now, window: window, zone: source.zone, includeSuppressed: all)
        return plan.reminders.enumerated().sorted { a, b in
            a.element.fireAt != b.element.fireAt
                ? a.element.fireAt < b.element.fireAt
                : a.element.key.description != b.element.key.description ? a.element.key.description < b.element.key.description : a.offset < b.offset
        }.map(\.element)
    }

    /// A database of every kind with random schedules, times, offsets, stored rows, money, and a
    /// delivery log with snoozes reaching days ahead.
    func randomDatabase(_ path: String, _ rng: inout SeededRandom, today: CivilDate) throws -> Store {
        let store = try Store(path: path)
        let offsets: [ReminderOffset] = [.minutes(0), .minutes(10), .hours(2), .days(1), .days(3), .weeks(2)]
        for i in 0..<Int.random(in: 20...60, using: &rng) {
            let kind: ItemKind = [.todo, .event, .habit][i % 3]
            let repeating = kind == .habit || Bool.random(using: &rng)
            let schedule = repeating ? randomSchedule(using: &rng, anchoredIn: today.adding(days: -400)...today.adding(days: 30)) : nil
            let time =
                Int.random(in: 0..<4, using: &rng) == 0 ? nil : WallTime(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng))
            let date: CivilDate? = repeating && Bool.random(using: &rng) ? nil : today.adding(days: Int.random(in: -40...120, using: &rng))
            let own = kind == .habit ? [] : (0..<Int.random(in: 0...2, using: &rng)).map { _ in offsets.randomElement(using: &rng)! }
            let id = try store.items.addItem(
                kind: kind, title: "\(kind) \(i) “x”", date: kind == .habit ? nil : date, time: time,
                schedule: schedule, durationMinutes: kind == .event ? 30 : nil, reminders: Array(Set(own)), today: today)
            if let schedule {
                for occurrence in schedule.occurrences(in: today...today.adding(days: 90), defaultAnchor: today) where Int.random(in: 0..<6, using: &rng) == 0 {
                    try store.items.setOccurrence(
                        kind, definitionID: id, date: occurrence, status: kind == .event || Bool.random(using: &rng) ? .skipped : .done)
                }
            }
        }
        for i in 0..<Int.random(in: 0...6, using: &rng) {
            let schedule = Schedule(rule: .monthlyOnDay(interval: 1, day: Int.random(in: 1...31, using: &rng)), anchor: today.adding(days: -60))
            _ = try store.money.addRecurringTransaction(name: "Bill \(i)", amount: Amount(minorUnits: -1_000), schedule: schedule, today: today)
            _ = try store.sources.addSubscription(name: "Sub \(i)", amount: Amount(minorUnits: -500), schedule: schedule, today: today)
            _ = try store.sources.addDebt(
                name: "Debt \(i)", balance: Amount(minorUnits: 10_000), minimum: Amount(minorUnits: 500),
                day: Int.random(in: 1...31, using: &rng), today: today)
        }
        return store
    }

    @Test("streamed in slices of days, a plan equals the whole plan: random databases, windows up to 60 days, with snoozes and settled deliveries")
    func streamedEqualsWhole() throws {
        let seed = SeededRandom.fuzzSeed(15)
        var rng = SeededRandom(seed: seed)
        let folder = try TemporaryFolder()
        let today = CivilDate(year: 2026, month: 12, day: 1)!
        var compared = 0
        for round in 0..<12 {
            let store = try randomDatabase(folder.path("plan-\(round).sqlite"), &rng, today: today)
            var config = Config()
            config.reminders[.todo] = [.minutes(10), .days(1)]
            config.reminders[.bill] = [.days(3)]
            // No income in these databases: its long lead must not be needed, nor change the plan.
            config.reminders[.income] = [.weeks(3)]
            let source = PlanReader(store: store, config: config, zone: berlin)
            let start = berlin.resolve(
                WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 0)!, on: today.adding(days: Int.random(in: -10...40, using: &rng))
            ).instant
            let window = start...start.adding(seconds: Int64.random(in: 3_600...(60 * 86_400), using: &rng))
            let now = start.adding(seconds: Int64.random(in: -86_400...86_400, using: &rng))
            // Deliveries and snoozes on some of what the plan has: settled ones and moved ones.
            for reminder in try oracle(source, now: now, window: window, all: false).shuffled(using: &rng).prefix(8) {
                for channel in reminder.channels {
                    let id = DeliveryID(reminder.key, channel)
                    _ = try store.log.claim(id, title: reminder.title, fireAt: reminder.fireAt, late: false, now: reminder.fireAt)
                    try store.log.finish(id, state: .delivered, detail: nil, now: reminder.fireAt)
                    if Bool.random(using: &rng) {
                        _ = try store.log.snooze(
                            id, until: reminder.fireAt.adding(seconds: Int64.random(in: 600...(9 * 86_400), using: &rng)), from: .button, words: "snoozed")
                    }
                }
            }
            for all in [false, true] {
                let expected = try oracle(source, now: now, window: window, all: all)
                let streamed = try source.plan(now: now, window: window, includeSuppressed: all).reminders
                // Stopped part-way (as the runner stops at its budget), the stream is a prefix of
                // the plan, whether its slices are planned on other threads (as preview's) or not.
                let stop = Int.random(in: 0...max(0, expected.count), using: &rng)
                var prefix: [PlannedReminder] = []
                func take(_ reminder: PlannedReminder) -> Bool {
                    guard prefix.count < stop else { return false }
                    prefix.append(reminder)
                    return true
                }
                if round % 2 == 0 {
                    try source.forEachSlice(now: now, window: window, includeSuppressed: all, render: { $0 }) { $0.forEach(take) }
                } else {
                    try source.forEachReminder(now: now, window: window, includeSuppressed: all, take)
                }
                #expect(prefix == Array(expected.prefix(stop)), "round \(round), seed \(seed): stopped after \(stop)")
                // Said briefly: what one has and the other lacks, then where the order parts.
                func names(_ plan: [PlannedReminder]) -> [String] { plan.map { "\($0.key)@\($0.fireAt.secondsSinceEpoch)" } }
                let (got, want) = (names(streamed), names(expected))
                #expect(
                    Set(got).subtracting(want).isEmpty && Set(want).subtracting(got).isEmpty,
                    "round \(round), seed \(seed): extra \(Set(got).subtracting(want).sorted()), missing \(Set(want).subtracting(got).sorted())")
                if let i = zip(streamed, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    Issue.record("round \(round), seed \(seed): reminder \(i) differs: \(got[i]) vs \(want[i])\n\(streamed[i])\n\(expected[i])")
                }
                compared += expected.count
            }
        }
        #expect(compared > 1_000, "the random databases plan too little to compare: \(compared)")
    }

    /// The keys and instants of a plan, to compare briefly.
    static func names(_ reminders: [PlannedReminder]) -> [String] { reminders.map { "\($0.key)@\($0.fireAt.secondsSinceEpoch)" } }

    @Test(
        "sliced, a plan keeps what a reminder gone out far from its date brings later: a nag's return after a snooze of days; the snooze of one held into the window by quiet hours"
    )
    func slicesReachWhatWentOutLate() throws {
        let folder = try TemporaryFolder()
        let at = { (date: String, hour: Int, minute: Int) in self.berlin.resolve(WallTime(hour: hour, minute: minute)!, on: CivilDate(date)!).instant }

        // A todo of 2 Feb that nags every 10 minutes: shown at 09:00, snoozed until 5 Feb 12:00,
        // shown then and not answered. Its first return is 5 Feb 12:10, three days after its date.
        do {
            let store = try Store(path: folder.path("nag.sqlite"))
            var config = Config()
            config.reminders[.todo] = [.minutes(0)]
            let id = try store.items.addItem(
                kind: .todo, title: "Pills", date: CivilDate("2027-02-02")!, time: WallTime(hour: 9, minute: 0)!, schedule: nil,
                style: ReminderStyle(nag: .seconds(600)), today: CivilDate("2027-02-01")!)
            let delivery = DeliveryID(.item(.todo, id: id, date: CivilDate("2027-02-02")!, offset: .minutes(0)), .desktop)
            _ = try store.log.claim(delivery, title: "Pills", fireAt: at("2027-02-02", 9, 0), late: false, now: at("2027-02-02", 9, 0))
            try store.log.finish(delivery, state: .delivered, detail: nil, now: at("2027-02-02", 9, 0))
            #expect(try store.log.snooze(delivery, until: at("2027-02-05", 12, 0), from: .terminal, words: "snoozed"))
            _ = try store.log.claim(delivery, title: "Pills", fireAt: at("2027-02-02", 9, 0), late: false, now: at("2027-02-05", 12, 0))
            try store.log.finish(delivery, state: .delivered, detail: nil, now: at("2027-02-05", 12, 0))
            let source = PlanReader(store: store, config: config, zone: berlin)
            let (now, window) = (at("2027-02-05", 12, 1), at("2027-02-01", 0, 0)...at("2027-02-07", 0, 0))
            let whole = try PlanSpliceTests().wholePlan(source, now: now, window: window).reminders
            #expect(whole.contains { $0.repetition == 1 && $0.fireAt == at("2027-02-05", 12, 10) }, "\(Self.names(whole))")
            let sliced = try source.plan(now: now, window: window).reminders
            #expect(Self.names(sliced) == Self.names(whole))
        }

        // Quiet hours 18:00 to 23:00: a todo due 9 Feb 19:00 is held until 23:00, shown then and
        // snoozed until 12 Feb 12:00. A window from 9 Feb 21:00 holds its held instant (not its due
        // one), and so its snooze.
        do {
            let store = try Store(path: folder.path("quiet.sqlite"))
            var config = Config()
            config.reminders[.todo] = [.minutes(0)]
            config.quietHours = QuietHours(from: WallTime(hour: 18, minute: 0)!, to: WallTime(hour: 23, minute: 0)!)
            let id = try store.items.addItem(
                kind: .todo, title: "Call", date: CivilDate("2027-02-09")!, time: WallTime(hour: 19, minute: 0)!, schedule: nil,
                today: CivilDate("2027-02-01")!)
            let delivery = DeliveryID(.item(.todo, id: id, date: CivilDate("2027-02-09")!, offset: .minutes(0)), .desktop)
            _ = try store.log.claim(delivery, title: "Call", fireAt: at("2027-02-09", 19, 0), late: false, now: at("2027-02-09", 23, 0))
            try store.log.finish(delivery, state: .delivered, detail: nil, now: at("2027-02-09", 23, 0))
            #expect(try store.log.snooze(delivery, until: at("2027-02-12", 12, 0), from: .terminal, words: "snoozed"))
            let source = PlanReader(store: store, config: config, zone: berlin)
            let (now, window) = (at("2027-02-09", 23, 5), at("2027-02-09", 21, 0)...at("2027-02-14", 0, 0))
            let whole = try PlanSpliceTests().wholePlan(source, now: now, window: window).reminders
            #expect(whole.contains { $0.snoozed && $0.fireAt == at("2027-02-12", 12, 0) }, "\(Self.names(whole))")
            let sliced = try source.plan(now: now, window: window).reminders
            #expect(Self.names(sliced) == Self.names(whole))
        }
    }

    /// The built binary (`swift build` puts it beside the test bundle), or $DAWNLET_BIN.
    static let binary: String =
        ProcessInfo.processInfo.environment["DAWNLET_BIN"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dawnlet-remind").path

    /// `dawnlet-remind ARGUMENTS`, its exit status and what it wrote to stdout alone.
    func preview(_ arguments: [String], in folder: TemporaryFolder) throws -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1"]
        let path = folder.path("stdout")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        return (process.terminationStatus, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A JSON value as the oracle has it: members in the order `preview --json` writes them.
    indirect enum Plain {
        case string(String), int(Int), bool(Bool), null
        case array([Plain])
        case object([(String, Plain)])

        /// Written out plainly: strings escaped as JSON says, and, as the manual says of JSON
        /// output, control, format (bidi), line and paragraph separator and unassigned characters
        /// as `\uXXXX` (UTF-16 units, so a surrogate pair past U+FFFF); the joiners emoji are made
        /// with kept.
        var text: String {
            switch self {
            case .string(let s):
                var out = "\""
                for scalar in s.unicodeScalars {
                    switch scalar {
                    case "\"": out += "\\\""
                    case "\\": out += "\\\\"
                    case "\n": out += "\\n"
                    case "\r": out += "\\r"
                    case "\t": out += "\\t"
                    case "\u{200C}", "\u{200D}": out.unicodeScalars.append(scalar)
                    case _ where [.control, .format, .lineSeparator, .paragraphSeparator, .unassigned].contains(scalar.properties.generalCategory):
                        for unit in String(scalar).utf16 {
                            let hex = String(unit, radix: 16)
                            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                        }
                    default: out.unicodeScalars.append(scalar)
                    }
                }
                return out + "\""
            case .int(let n): return String(n)
            case .bool(let b): return b ? "true" : "false"
            case .null: return "null"
            case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
            case .object(let members): return "{" + members.map { "\"\($0.0)\":\($0.1.text)" }.joined(separator: ",") + "}"
            }
        }

        /// As Foundation's JSONSerialization reads JSON: to compare with what it read of
        /// `preview`'s bytes, neither writer taking part.
        var foundation: Any {
            switch self {
            case .string(let s): return s
            case .int(let n): return n
            case .bool(let b): return b
            case .null: return NSNull()
            case .array(let values): return values.map(\.foundation)
            case .object(let members): return Dictionary(members.map { ($0.0, $0.1.foundation) }) { a, _ in a }
            }
        }
    }

    /// The oracle's JSON values: each reminder of the whole plan, field by field in the order of
    /// `preview --json`.
    static func plainValues(_ plan: [PlannedReminder]) -> Plain {
        func string(_ s: String) -> Plain { .string(s) }
        func optional(_ s: String?) -> Plain { s.map(Plain.string) ?? .null }
        func members(_ pairs: [(String, Plain)]) -> Plain { .object(pairs) }
        func reminder(_ r: PlannedReminder) -> Plain {
            let outcomes = Set(r.settled.values.map(\.outcome))
            let status: String
            switch r.status {
            case .pending: status = "pending"
            case .due: status = "due"
            case .late: status = "late"
            case .missed: status = "missed"
            case .suppressed: status = "suppressed"
            case .settled: status = outcomes.contains(.failed) ? "failed" : outcomes == [.missed] ? "missed" : "delivered"
            }
            var pairs: [(String, Plain)] = [
                ("key", string(r.key.description)), ("fire_at", string(ISO8601.format(r.fireAt, utcOffset: r.utcOffset))),
                ("kind", string(r.kind.rawValue)), ("title", string(r.title)), ("occurrence_date", string(r.occurrenceDate.description)),
                ("source", string(r.sourceName)), ("definition_id", r.definitionID.map { .int(Int($0)) } ?? .null),
                ("channels", .array(r.channels.map { string($0.rawValue) })),
                ("offset", optional(r.offset?.description)), ("status", string(status)),
            ]
            if case .suppressed(let reason) = r.status { pairs.append(("reason", string(reason.rawValue))) }
            if r.snoozed { pairs.append(("snoozed", .bool(true))) }
            if r.repetition > 0 { pairs.append(("repeat", .int(r.repetition))) }
            if let held = r.heldFrom { pairs.append(("held_from", string(ISO8601.format(held, utcOffset: r.utcOffset)))) }
            if !r.settled.isEmpty {
                let deliveries = r.channels.compactMap { channel in
                    r.settled[channel].map { settled in
                        members(
                            [("channel", string(channel.rawValue)), ("outcome", string(settled.outcome.rawValue))]
                                + (settled.at.map { [("at", string(ISO8601.format($0, utcOffset: r.utcOffset)))] } ?? [])
                                + [("detail", optional(settled.detail))] + (settled.waiting ? [("waiting", .bool(true))] : []))
                    }
                }
                pairs.append(("deliveries", .array(deliveries)))
            }
            if !r.notes.isEmpty { pairs.append(("notes", .array(r.notes.map(string)))) }
            if r.item == nil {
                let items = r.items.map { item in
                    members([
                        ("kind", string(item.kind.rawValue)), ("definition_id", item.isCalendar ? .null : .int(Int(item.definitionID))),
                        ("title", string(item.title)), ("date", string(item.date.description)),
                    ])
                }
                pairs.append(("items", .array(items)))
            }
            return members(pairs)
        }
        // No calendar in these databases: nothing cut.
        return .object([("reminders", .array(plan.map(reminder))), ("calendar_cuts", .array([]))])
    }

    /// The oracle's JSON written out plainly (`Plain.text`), as `preview --json` writes it.
    static func plainJSON(_ plan: [PlannedReminder]) -> String { plainValues(plan).text + "\n" }

    /// The oracle's text: day headings, and each reminder's lines as `preview` shows them, made
    /// with strings from the reminder's own `why` and `body`.
    static func plainText(_ plan: [PlannedReminder], zone: Zone) -> String {
        var lines: [String] = []
        var shown: CivilDate?
        for r in plan {
            let day = ISO8601.localDate(of: r.fireAt, in: zone).date
            if day != shown {
                if shown != nil { lines.append("") }
                lines.append("\(day.weekday.fullName) \(day)")
                shown = day
            }
            var words: [String] = []
            switch r.status {
            case .pending:
                if r.snoozed { words.append("snoozed") }
                if r.repetition > 0 { words.append("back until answered") }
            case .due: words.append("due: goes out now")
            case .late: words.append("late: goes out now, marked late")
            case .missed: words.append("missed: outside the grace window")
            case .settled: break
            case .suppressed(let reason): words.append("suppressed: \(reason.rawValue)")
            }
            for channel in r.channels {
                guard let settled = r.settled[channel] else { continue }
                var text = "\(settled.outcome.rawValue) on \(channel)"
                if let at = settled.at { text += " at \(ISO8601.format(at, utcOffset: r.utcOffset).dropFirst(11).prefix(8))" }
                if settled.outcome == .failed, let detail = settled.detail { text += ": \(detail)" }
                if settled.waiting { text += ", waiting for an answer" }
                words.append(text)
            }
            let what = r.definitionID.map { "\(r.kind) #\($0)" } ?? r.kind.rawValue
            let column = what.count >= 16 ? String(what.prefix(16)) : what + String(repeating: " ", count: 16 - what.count)
            let time = ISO8601.format(r.fireAt, utcOffset: r.utcOffset).dropFirst(11).prefix(5)
            let state = words.isEmpty ? "" : "  [\(words.joined(separator: "; "))]"
            // Text from outside with its control characters as escapes (DisplayText.shown).
            lines.append("  \(time)  \(column) \(DisplayText.shown(r.title))  → \(r.channels.map(\.rawValue).joined(separator: ", "))\(state)")
            if r.item == nil { lines += r.body.split(separator: "\n").map { "           · " + DisplayText.shown(String($0)) } }
            lines.append("           why: " + DisplayText.shown(r.why.joined(separator: "; ")))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    @Test("preview, as JSON and as text, writes byte for byte the whole plan written out plainly: random databases and windows up to a year")
    func previewBytesEqualWholePlan() throws {
        try Repository.require(Self.binary, "the dawnlet-remind binary (swift build)")
        let seed = SeededRandom.fuzzSeed(1515)
        var rng = SeededRandom(seed: seed)
        let folder = try TemporaryFolder()
        let today = CivilDate(year: 2026, month: 12, day: 1)!
        let configPath = folder.path("config.json5")
        try #"{ timeZone: "Europe/Berlin", reminders: { todo: ["10m", "1d"], bill: ["3d"], income: ["3w"] } }"#
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        var config = Config()
        config.timeZone = "Europe/Berlin"
        config.reminders[.todo] = [.minutes(10), .days(1)]
        config.reminders[.bill] = [.days(3)]
        config.reminders[.income] = [.weeks(3)]
        var compared = 0
        for round in 0..<6 {
            let path = folder.path("bytes-\(round).sqlite")
            let store = try randomDatabase(path, &rng, today: today)
            // Titles JSON must escape: quotes, a backslash, a tab, a control character, a newline.
            _ = try store.items.addItem(
                kind: .todo, title: "say \"hi\" \\ to\tmum\u{1}\nnow ✓", date: nil, time: WallTime(hour: 9, minute: 5)!,
                schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: 127)), anchor: today.adding(days: -3)), reminders: [], today: today)
            // And what the manual says JSON output writes as \uXXXX: DEL and a C1 control, a bidi
            // override, a line separator, a format character past U+FFFF; the joiner of an emoji kept.
            _ = try store.items.addItem(
                kind: .todo, title: "del\u{7F} c1\u{85} \u{202E}evil\u{202C} line\u{2028}sep tag\u{E0041} 👩\u{200D}💻", date: nil,
                time: WallTime(hour: 18, minute: 20)!,
                schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: 127)), anchor: today.adding(days: -3)),
                reminders: [], today: today)
            let source = PlanReader(store: store, config: config, zone: berlin)
            let start = berlin.resolve(
                WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 0)!, on: today.adding(days: Int.random(in: -10...20, using: &rng))
            ).instant
            let window = start...start.adding(seconds: Int64.random(in: 3_600...(366 * 86_400), using: &rng))
            let now = start.adding(seconds: Int64.random(in: -86_400...86_400, using: &rng))
            for reminder in try oracle(source, now: now, window: window, all: false).shuffled(using: &rng).prefix(6) {
                for channel in reminder.channels {
                    let id = DeliveryID(reminder.key, channel)
                    _ = try store.log.claim(id, title: reminder.title, fireAt: reminder.fireAt, late: false, now: reminder.fireAt)
                    try store.log.finish(id, state: Bool.random(using: &rng) ? .delivered : .failed, detail: "id \"7\"", now: reminder.fireAt)
                }
            }
            for all in [false, true] {
                let plan = try oracle(source, now: now, window: window, all: all)
                let expected = Self.plainJSON(plan)
                let iso = { (instant: Instant) in ISO8601.format(instant, in: berlin) }
                let (status, bytes) = try preview(
                    [
                        "--db", path, "--config", configPath, "preview", "--now", iso(now), "--from", iso(window.lowerBound), "--to", iso(window.upperBound),
                        "--json",
                    ]
                        + (all ? ["--all"] : []), in: folder)
                #expect(status == 0, "round \(round), seed \(seed)")
                let got = String(decoding: bytes, as: UTF8.self)
                // As values: what Foundation's JSON reader makes of preview's bytes is the oracle's
                // plan, neither writer taking part (an escape both wrote wrongly alike fails here).
                let parsed = try? JSONSerialization.jsonObject(with: bytes) as? NSDictionary
                let want = Self.plainValues(plan).foundation as? [String: Any] ?? [:]
                if parsed?.isEqual(to: want) != true {
                    let gotList = parsed?["reminders"] as? [NSDictionary] ?? []
                    let wantList = want["reminders"] as? [[String: Any]] ?? []
                    let i = zip(gotList, wantList).enumerated().first { !$0.element.0.isEqual(to: $0.element.1) }?.offset
                    let what = i.map { "reminder \($0): \(gotList[$0])\nexpected \(wantList[$0])" } ?? "\(gotList.count) reminders, expected \(wantList.count)"
                    Issue.record("round \(round), seed \(seed), all: \(all): preview's JSON read back is not the plan (\(parsed == nil ? "not JSON" : what))")
                }
                if got != expected {
                    let (a, b) = (Array(got.utf8), Array(expected.utf8))
                    let at = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
                    func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, at - 120)..<min(bytes.count, at + 120)], as: UTF8.self) }
                    let message = "round \(round), seed \(seed), all: \(all): preview differs at byte \(at) of \(a.count) (oracle \(b.count)):"
                    Issue.record("\(message)\ngot    \(around(a))\noracle \(around(b))")
                }
                compared += expected.utf8.count
                // And as text, the same.
                let (textStatus, textBytes) = try preview(
                    [
                        "--db", path, "--config", configPath, "preview", "--now", iso(now), "--from", iso(window.lowerBound), "--to", iso(window.upperBound),
                    ] + (all ? ["--all"] : []), in: folder)
                #expect(textStatus == 0, "round \(round), seed \(seed)")
                if !plan.isEmpty {
                    let text = String(decoding: textBytes, as: UTF8.self)
                    let lines = (
                        text.split(separator: "\n", omittingEmptySubsequences: false),
                        Self.plainText(plan, zone: berlin).split(separator: "\n", omittingEmptySubsequences: false)
                    )
                    if let i = zip(lines.0, lines.1).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                        ?? (lines.0.count == lines.1.count ? nil : min(lines.0.count, lines.1.count))
                    {
                        Issue.record(
                            "round \(round), seed \(seed), all: \(all): text line \(i) differs:\ngot    \(i < lines.0.count ? lines.0[i] : "(end)")\noracle \(i < lines.1.count ? lines.1[i] : "(end)")"
                        )
                    }
                    compared += text.utf8.count
                }
            }
        }
        #expect(compared > 1_000_000, "the random databases plan too little to compare: \(compared) bytes")
    }
}
