import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// What an email says to answer a digest line by line and a summary member by member, and what a
/// summary on the desktop says instead of buttons.
@Suite struct MessageAnswerTests {
    let berlin = Zone.named("Europe/Berlin")
    let day = CivilDate("2026-12-01")!
    let hostile = "Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org\nÜberweisung 💶"

    func item(_ kind: ReminderKind, _ id: Int64, _ title: String, on date: String = "2026-12-01", time: WallTime? = nil) -> PlanItem {
        PlanItem(kind: kind, definitionID: id, date: CivilDate(date)!, time: time, title: title, source: .virtual)
    }

    func digest(_ items: [PlanItem], overdue: Int = 0) -> PlannedReminder {
        PlannedReminder(
            key: .digest(day), fireAt: ISO8601.parse("2026-12-01T08:00", zone: berlin)!, utcOffset: 3_600, channels: [.email], status: .due,
            settled: [:], snoozed: false, item: nil, offset: nil, notes: [], items: items, overdueCount: overdue, occurrenceDate: day)
    }

    func single(_ item: PlanItem, at time: String) -> PlannedReminder {
        PlannedReminder(
            key: .item(item.kind, id: item.definitionID, date: item.date, offset: .minutes(0)), fireAt: ISO8601.parse(time, zone: berlin)!,
            utcOffset: 3_600, channels: [.email], status: .late, settled: [:], snoozed: false, item: item, offset: .minutes(0), notes: [], items: [],
            overdueCount: 0, occurrenceDate: item.date)
    }

    func body(_ message: ReminderMessage, program: String = "d") -> String {
        MailMessage(
            message, from: "dawnlet@example.org", to: ["me@example.org"], date: Instant(secondsSinceEpoch: 1_796_112_000), utcOffset: 3_600,
            answers: message.answerText(program: program, snooze: Config().desktop.snooze, zone: berlin)
        ).body
    }

    @Test(
        "a digest's email: each line a command answers, with its item's own command for that occurrence; events, goals, a calendar's item and a habit or renewal ahead left out; the digest dismissed as a whole"
    )
    func digestLines() {
        let reminder = digest(
            [
                item(.todo, 1, "Bins out"), item(.todo, 8, hostile), item(.event, 6, "Fair"), item(.habit, 5, "Stretch"),
                PlanItem(
                    kind: .bill, definitionID: 2, date: day, time: nil, title: "Rent", source: .virtual, detail: "-950.00"),
                item(.bill, 9, "Insurance", on: "2026-12-04"), item(.subscription, 3, "Stream", on: "2026-12-03"),
                item(.subscription, 11, "Music"), item(.debt, 4, "Card"), item(.habit, 12, "Read", on: "2026-12-02"), item(.goal, 7, "Bike"),
                item(.todo, 10, "Old", on: "2026-11-28"),
            ], overdue: 1)
        let message = ReminderMessage(reminder, late: false, at: reminder.fireAt, zone: berlin)
        let program = "dawnlet-remind --db '/home/me/my db.sqlite'"
        #expect(
            body(message, program: program).components(separatedBy: "\n\n").dropFirst(2).first
                == """
                Answer its lines from a terminal:
                  todo: Bins out
                    \(program) todo done 1 --on 2026-12-01
                  todo: Pay <b>rent</b> & $(touch x)\\r\\nBcc: victim@example.org\\nÜberweisung 💶
                    \(program) todo done 8 --on 2026-12-01
                  habit: Stretch
                    \(program) habit done 5 --on 2026-12-01
                  bill: Rent
                    \(program) money paid 2 --on 2026-12-01
                  bill: Insurance (2026-12-04)
                    \(program) money paid 9 --on 2026-12-04
                  subscription: Music
                    \(program) subscription log 11 --on 2026-12-01
                  debt: Card
                    \(program) debt log 4 --on 2026-12-01
                  overdue since 2026-11-28: Old
                    \(program) todo done 10 --on 2026-11-28
                  the digest, seen:
                    \(program) reminder dismiss digest:2026-12-01
                """)
        // A digest with nothing a command answers is dismissed, as before.
        let events = ReminderMessage(digest([item(.event, 6, "Fair")]), late: false, at: reminder.fireAt, zone: berlin)
        #expect(events.answerText(program: "d", snooze: [], zone: berlin) == "Answer it from a terminal:\n  d reminder dismiss digest:2026-12-01\n")
    }

    @Test(
        "a summary's email: each member's reminder commands, as its own email has them (the first snooze preset with a time of its own); a digest member's lines; the ones it does not list through reminder list"
    )
    func summaryMembers() {
        let members = [
            single(item(.todo, 1, "Call mum", time: WallTime("07:30")), at: "2026-12-01T07:30"),
            single(item(.bill, 2, hostile, time: WallTime("07:40")), at: "2026-12-01T07:40"),
            digest([item(.subscription, 3, "Stream"), item(.event, 6, "Fair")]),
            single(item(.event, 4, "Talk", time: WallTime("09:00")), at: "2026-12-01T09:00"),
            single(item(.goal, 5, "Bike"), at: "2026-12-01T09:10"),
        ]
        let summary = ReminderMessage.summary(of: members, when: "2026-12-01T12:00:00+01:00", zone: berlin, listed: 4)
        #expect(
            body(summary)
                == """
                2026-12-01T07:30 Call mum
                2026-12-01T07:40 \(hostile)
                2026-12-01T08:00 Tuesday 2026-12-01: 2 items
                2026-12-01T09:00 Talk
                and 1 more

                Sent 2026-12-01T12:00:00+01:00.

                Answer each from a terminal:
                  2026-12-01T07:30 Call mum
                    d reminder done todo:1:2026-12-01:0m
                    d reminder skip todo:1:2026-12-01:0m
                    d reminder snooze todo:1:2026-12-01:0m --for 10m
                    d reminder dismiss todo:1:2026-12-01:0m
                  2026-12-01T07:40 Pay <b>rent</b> & $(touch x)\\r\\nBcc: victim@example.org\\nÜberweisung 💶
                    d reminder paid bill:2:2026-12-01:0m
                    d reminder skip bill:2:2026-12-01:0m
                    d reminder snooze bill:2:2026-12-01:0m --for 10m
                    d reminder dismiss bill:2:2026-12-01:0m
                  2026-12-01T08:00 Tuesday 2026-12-01: 2 items
                    subscription: Stream
                      d subscription log 3 --on 2026-12-01
                    the digest, seen:
                      d reminder dismiss digest:2026-12-01
                  2026-12-01T09:00 Talk
                    d reminder skip event:4:2026-12-01:0m
                    d reminder snooze event:4:2026-12-01:0m --for 10m
                    d reminder dismiss event:4:2026-12-01:0m
                  and 1 more, with their keys:
                    d reminder list

                -- \nDawnlet reminder summary:todo:1:2026-12-01:0m,bill:2:2026-12-01:0m,digest:2026-12-01,event:4:2026-12-01:0m,+1

                """)
        // Only a "before start" preset, or one said as words: as each can be typed.
        let words = ReminderMessage.memberCommands(members[0].key, program: "d", snooze: [.beforeStart(.seconds(900)), .at("tomorrow 09:00")])
        #expect(
            words == [
                "d reminder done todo:1:2026-12-01:0m", "d reminder skip todo:1:2026-12-01:0m",
                "d reminder snooze todo:1:2026-12-01:0m --until 'tomorrow 09:00'", "d reminder dismiss todo:1:2026-12-01:0m",
            ])
    }

    @Test(
        "a summary on the desktop: where the server shows every action (dunst's menu), each member's own answer, Done, Paid or Log payment; where it shows a few, none; its body ends saying closing it dismisses them all, and the reminder commands its members take"
    )
    func desktopSummary() throws {
        let members = [
            single(item(.todo, 1, "Call mum", time: WallTime("07:30")), at: "2026-12-01T07:30"),
            single(item(.bill, 2, "Rent", time: WallTime("07:40")), at: "2026-12-01T07:40"),
            single(item(.event, 3, "Talk", time: WallTime("07:50")), at: "2026-12-01T07:50"),
            single(item(.subscription, 4, hostile, time: WallTime("07:55")), at: "2026-12-01T07:55"),
        ]
        let summary = ReminderMessage.summary(of: members, when: "2026-12-01T12:00:00+01:00", zone: berlin)
        let menu = DesktopNotification(summary, capabilities: ["body", "actions"], expire: .zero, snooze: Config().desktop.snooze)
        #expect(
            menu.actions.map(\.key) == [
                "member:done:todo:1:2026-12-01:0m", "member:paid:bill:2:2026-12-01:0m", "member:log:subscription:4:2026-12-01:0m",
            ])
        #expect(menu.actions.map(\.label) == ["Done: Call mum", "Paid: Rent", "Log payment: " + DisplayText.bounded(hostile, to: 40)])
        // Each key reads back as the member's answer; anything else under member: is unknown.
        #expect(
            menu.actions.map { InvokedAction(key: $0.key) } == [
                .member("done", try #require(ReminderKey("todo:1:2026-12-01:0m"))), .member("paid", try #require(ReminderKey("bill:2:2026-12-01:0m"))),
                .member("log", try #require(ReminderKey("subscription:4:2026-12-01:0m"))),
            ])
        #expect(menu.actions.allSatisfy { InvokedAction(key: $0.key).description == $0.key })
        for other in ["member:skip:todo:1:2026-12-01:0m", "member:done:", "member:done:todo:1", "member:"] {
            #expect(InvokedAction(key: other) == .unknown(other), "\(other)")
        }
        let buttons = DesktopNotification(summary, capabilities: ["body", "actions"], expire: .zero, snooze: Config().desktop.snooze, mostActions: 3)
        #expect(buttons.actions.isEmpty)
        #expect(
            buttons.body.hasSuffix(
                "\nClosing this dismisses them all; to answer one: dawnlet-remind reminder done|skip|paid|log|snooze KEY (reminder list shows the keys)."))
        #expect(buttons.body.hasPrefix("2026-12-01T07:30 Call mum\n2026-12-01T07:40 Rent\n2026-12-01T07:50 Talk\n"))
        #expect(!summary.body.contains("Closing"), "the command channel's {body} and the email are as they were")
        let single = ReminderMessage(members[0], late: true, at: members[0].fireAt, zone: berlin)
        #expect(single.desktopAnswerHint == nil && single.memberActions.isEmpty)
    }
}
