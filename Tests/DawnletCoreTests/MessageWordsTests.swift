import DawnletTestSupport
import Testing

@testable import DawnletCore

/// A message's words are made when it goes out: how far its item is then (late, a snooze's or a
/// nag's return, the end of quiet hours), and the same due time in its first lines and an email's
/// last.
@Suite struct MessageWordsTests {
    static let berlin = Zone.named("Europe/Berlin")
    let day = CivilDate("2026-12-04")!

    func at(_ text: String) -> Instant { ISO8601.parse(text, zone: Self.berlin)! }

    /// How far an item's time is ahead of (positive) or behind the moment its message goes out, in
    /// seconds → the words after its time.
    static let spans: [(Int64, String?)] = [
        (600, "in 10m"), (599, "in 10m"), (541, "in 10m"), (540, "in 9m"), (1, "in 1m"), (0, nil), (-59, nil), (-60, "1m ago"),
        (-179, "2m ago"), (5_400, "in 1h30m"), (86_400, "in 1d"), (90_000, "in 1d1h"), (604_800, "in 1w"), (1_209_600, "in 2w"),
        (-604_800, "1w ago"), (-90_061, "1d1h1m ago"),
    ]

    @Test(
        "how far an item's time is from the moment its message goes out: ahead rounded up to the minute, past down, nothing within its minute", arguments: spans
    )
    func relative(seconds: Int64, expected: String?) {
        let sent = at("2026-12-04T14:00")
        #expect(DueWords.relative(sent.adding(seconds: seconds), from: sent) == expected)
    }

    @Test(
        "an item of a day: days from the day it goes out on, whole weeks as weeks, nothing on its day",
        arguments: [(1, "in 1d"), (7, "in 1w"), (9, "in 9d"), (0, nil), (-2, "2d ago")] as [(Int, String?)])
    func relativeDays(days: Int, expected: String?) {
        #expect(DueWords.relative(day.adding(days: days), from: day) == expected)
    }

    /// An item of each kind, at a time or on its day → how a reminder's body begins.
    static let kinds: [(ReminderKind, String?, String)] = [
        (.todo, "09:00", "Todo due at 09:00"), (.todo, nil, "Todo due on 2026-12-04"), (.event, "14:30", "Event starts at 14:30"),
        (.event, nil, "Event on 2026-12-04"), (.habit, "07:30", "Habit at 07:30"), (.habit, nil, "Habit on 2026-12-04"),
        (.bill, nil, "Bill due on 2026-12-04"), (.subscription, nil, "Subscription renews on 2026-12-04"),
        (.debt, nil, "Debt payment due on 2026-12-04"), (.goal, nil, "Goal by 2026-12-04"), (.income, nil, "Income expected on 2026-12-04"),
    ]

    @Test("a reminder's body says what its item is and when, per kind: an event starts, a todo and a bill are due, a subscription renews", arguments: kinds)
    func wordedPerKind(kind: ReminderKind, time: String?, expected: String) {
        let item = PlanItem(kind: kind, definitionID: 3, date: day, time: time.flatMap(WallTime.init), title: "T", source: .virtual)
        #expect(item.whenWords == expected)
    }

    @Test("a calendar file's todo is due at its DUE, and starts at a DTSTART without one; its event starts")
    func calendarWordedPerKind() {
        func item(_ kind: CalendarOccurrence.Kind, due: Bool, time: String?) -> PlanItem {
            PlanItem(
                calendar: CalendarOccurrence(
                    calendar: "work", uid: "u", kind: kind, title: "T", date: day, start: time.map { at("2026-12-04T\($0)") },
                    time: time.flatMap(WallTime.init), alarms: nil, instance: nil, hasDue: due))
        }
        #expect(item(.todo, due: true, time: "09:00").whenWords == "Todo due at 09:00")
        #expect(item(.todo, due: false, time: "09:00").whenWords == "Todo starts at 09:00")
        #expect(item(.todo, due: true, time: nil).whenWords == "Todo due on 2026-12-04")
        #expect(item(.event, due: false, time: "09:00").whenWords == "Event starts at 09:00")
        #expect(item(.event, due: false, time: nil).whenWords == "Event on 2026-12-04")
    }

    func event(at time: String?, offset: ReminderOffset, fireAt: String, snoozed: Bool = false, heldFrom: String? = nil) -> PlannedReminder {
        let item = PlanItem(kind: .event, definitionID: 3, date: day, time: time.flatMap(WallTime.init), title: "Talk", source: .virtual)
        var reminder = PlannedReminder(
            key: .item(.event, id: 3, date: day, offset: offset), fireAt: at(fireAt), utcOffset: 3_600, channels: [.email], status: .pending,
            settled: [:], snoozed: snoozed, item: item, offset: offset, notes: [], items: [], overdueCount: 0, occurrenceDate: day)
        reminder.heldFrom = heldFrom.map(at)
        return reminder
    }

    /// A reminder 10m before a 14:30 event, going out at each instant → its body.
    static let sendings: [(String, Bool, String)] = [
        ("2026-12-04T14:20:00", false, "Event starts at 14:30 (in 10m)"),
        ("2026-12-04T14:20:40", false, "Event starts at 14:30 (in 10m)"),
        ("2026-12-04T14:27:00", true, "Event starts at 14:30 (in 3m)"),
        ("2026-12-04T14:30:30", true, "Event starts at 14:30"),
        ("2026-12-04T14:35:10", true, "Event starts at 14:30 (5m ago)"),
        ("2026-12-05T09:00:00", true, "Event starts at 14:30 (18h30m ago)"),
    ]

    @Test("a reminder's body says how far its item is when it goes out, not when it was planned", arguments: sendings)
    func bodyAtSending(sent: String, late: Bool, expected: String) {
        let message = ReminderMessage(event(at: "14:30", offset: .minutes(10), fireAt: "2026-12-04T14:20"), late: late, at: at(sent), zone: Self.berlin)
        #expect(message.body == expected)
        // What it was due at and the item's own time do not move with it.
        #expect(message.when == "2026-12-04T14:20:00+01:00" && message.due == "2026-12-04T14:30:00+01:00" && message.offset == "10m")
    }

    @Test("a snooze's return and an item of a day say how far the item is then; the body as planned still says the offset")
    func returns() {
        let back = event(at: "14:30", offset: .minutes(10), fireAt: "2026-12-04T14:25", snoozed: true)
        #expect(ReminderMessage(back, late: false, at: at("2026-12-04T14:25"), zone: Self.berlin).body == "Event starts at 14:30 (in 5m)")
        #expect(back.body == "Event starts at 14:30 (in 10m)", "preview's words, as planned")
        let dayBefore = event(at: nil, offset: .days(1), fireAt: "2026-12-03T08:00")
        #expect(ReminderMessage(dayBefore, late: false, at: at("2026-12-03T08:00"), zone: Self.berlin).body == "Event on 2026-12-04 (in 1d)")
        #expect(ReminderMessage(dayBefore, late: true, at: at("2026-12-04T07:59"), zone: Self.berlin).body == "Event on 2026-12-04")
    }

    @Test("an item's note goes after what is due and when, before what held it: its first three lines, a line break in it kept, 300 characters at most")
    func note() {
        let held = event(at: "23:20", offset: .minutes(10), fireAt: "2026-12-05T07:00", heldFrom: "2026-12-04T23:10")
        var message = ReminderMessage(held, late: false, at: at("2026-12-05T07:00:01"), zone: Self.berlin)
        message.addNote("Room 4\nbring the slides\n\u{1B}[31mred\nfourth line")
        #expect(message.body == "Event starts at 23:20 (7h40m ago)\nRoom 4\nbring the slides\n\\u{1B}[31mred\n…\nHeld for quiet hours: due 23:10.")
        var plain = ReminderMessage(
            event(at: "14:30", offset: .minutes(10), fireAt: "2026-12-04T14:20"), late: false, at: at("2026-12-04T14:20"), zone: Self.berlin)
        plain.addNote(String(repeating: "x", count: 500))
        #expect(plain.body.hasPrefix("Event starts at 14:30 (in 10m)\nxxx") && plain.body.count <= "Event starts at 14:30 (in 10m)\n".count + 300)
    }

    @Test("held for quiet hours: the due time in the body, {when} and the email's last lines is the one it was due at, not the end of the quiet hours")
    func heldEmail() {
        let held = event(at: "23:20", offset: .minutes(10), fireAt: "2026-12-05T07:00", heldFrom: "2026-12-04T23:10")
        let message = ReminderMessage(held, late: false, at: at("2026-12-05T07:00:01"), zone: Self.berlin)
        #expect(message.body == "Event starts at 23:20 (7h40m ago)\nHeld for quiet hours: due 23:10.")
        #expect(message.when == "2026-12-04T23:10:00+01:00" && message.templateValues["when"] == "2026-12-04T23:10:00+01:00")
        let mail = MailMessage(message, from: "d@example.org", to: ["me@example.org"], date: at("2026-12-05T07:00:01"), utcOffset: 3_600)
        #expect(
            mail.body.hasPrefix(
                "Event starts at 23:20 (7h40m ago)\nHeld for quiet hours: due 23:10.\n\nDue 2026-12-04T23:10:00+01:00; held for quiet hours.\n"))
        #expect(!mail.body.contains("07:00"), "\(mail.body)")
        // Late: said once, after when it was due.
        let late = ReminderMessage(
            event(at: "14:30", offset: .minutes(10), fireAt: "2026-12-04T14:20"), late: true, at: at("2026-12-04T14:27"), zone: Self.berlin)
        let lateMail = MailMessage(late, from: "d@example.org", to: ["me@example.org"], date: at("2026-12-04T14:27"), utcOffset: 3_600)
        #expect(lateMail.subject == "(late) Talk" && lateMail.body.hasPrefix("Event starts at 14:30 (in 3m)\n\nDue 2026-12-04T14:20:00+01:00; sent late.\n"))
        // A summary says when it was sent; its lines say when each was due.
        let summary = ReminderMessage.summary(of: [held, held], when: "2026-12-05T07:00:01+01:00", zone: Self.berlin)
        let summaryMail = MailMessage(summary, from: "d@example.org", to: ["me@example.org"], date: at("2026-12-05T07:00:01"), utcOffset: 3_600)
        #expect(summaryMail.body.hasPrefix("2026-12-04T23:10 Talk\n2026-12-04T23:10 Talk\n\nSent 2026-12-05T07:00:01+01:00.\n"), "\(summaryMail.body)")
    }
}
