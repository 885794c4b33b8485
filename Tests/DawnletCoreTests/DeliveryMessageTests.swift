import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// What a reminder says on each channel: the desktop notification's content and the email.
@Suite struct DeliveryMessageTests {
    let hostile = "Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org\nÜberweisung 💶"

    /// A message of the key written as text (its kind is the key's).
    func message(
        title: String = "Call mum", body: String = "todo at 09:00", key: String = "todo:3:2026-12-01:0m", late: Bool = false,
        urgency: Urgency = .normal
    ) -> ReminderMessage {
        ReminderMessage(title: title, body: body, key: MessageKey(key)!, when: "2026-12-01T09:00:00+01:00", late: late, urgency: urgency)
    }

    func mail(_ message: ReminderMessage) -> MailMessage {
        MailMessage(
            message, from: "dawnlet@example.org", to: ["me@example.org", "you@example.net"],
            date: Instant(secondsSinceEpoch: 1_796_112_000), utcOffset: 3_600)
    }

    /// The header block (up to the blank line) unfolded, one header a line.
    func headers(_ rendered: String) -> [String] {
        let head = rendered.components(separatedBy: "\r\n\r\n")[0]
        return head.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
    }

    /// RFC 2047 B-words back to text.
    func decodeWords(_ value: String) -> String {
        value.split(separator: " ").map { word -> String in
            let inner = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            return String(decoding: Data(base64Encoded: String(inner)) ?? Data(), as: UTF8.self)
        }.joined()
    }

    @Test(
        "actions follow the CLI: done and skip for todos and habits, skip for events and bills, done (acknowledged) for calendar items, snooze for every single reminder"
    )
    func actionsByKind() {
        let snooze = ReminderAction.snooze(.after(.seconds(600)), until: nil)
        #expect(message().actions(snooze: [.after(.seconds(600))]) == [.done, .skip, snooze])
        #expect(message(key: "habit:2:2026-12-01:0m").actions(snooze: [.after(.seconds(600))]) == [.done, .skip, snooze])
        #expect(message(key: "event:2:2026-12-01:10m").actions(snooze: [.after(.seconds(600))]) == [.skip, snooze])
        #expect(message(key: "bill:7:2026-12-01:3d").actions(snooze: [.after(.seconds(600))]) == [.skip, snooze])
        #expect(message(key: "debt:1:2026-12-15:0m").actions(snooze: [.after(.seconds(600))]) == [snooze])
        #expect(message(key: "ics:work:uid@x:alarm:2026-12-01T08:50:00").actions(snooze: [.after(.seconds(600))]) == [.done, snooze])
        #expect(message(key: "digest:2026-12-01").actions(snooze: [.after(.seconds(600))]).isEmpty)
        #expect(message(key: "summary:todo:1:2026-12-01:0m,todo:2:2026-12-01:0m").actions(snooze: [.after(.seconds(600))]).isEmpty)
        #expect(snooze.label == "Snooze 10m")
        #expect(ReminderAction.snooze(.after(.seconds(5_400)), until: nil).label == "Snooze 1h30m")
    }

    @Test("a command's {due} is the item's own time (with its offset in the zone), {offset} how long before; a date-only item's due is its date")
    func dueAndOffset() {
        let berlin = Zone.named("Europe/Berlin")
        let date = CivilDate("2026-12-04")!
        func reminder(time: WallTime?, offset: ReminderOffset, fireAt: String) -> PlannedReminder {
            let item = PlanItem(kind: .event, definitionID: 3, date: date, time: time, title: "Dentist", source: .virtual)
            return PlannedReminder(
                key: .item(.event, id: 3, date: date, offset: offset), fireAt: ISO8601.parse(fireAt, zone: berlin)!, utcOffset: 3_600,
                channels: [.command], status: .pending, settled: [:], snoozed: false, item: item, offset: offset, notes: [], items: [],
                overdueCount: 0, occurrenceDate: date)
        }
        let timedReminder = reminder(time: WallTime("14:30"), offset: .hours(1), fireAt: "2026-12-04T13:30")
        let timed = ReminderMessage(timedReminder, late: false, at: timedReminder.fireAt, zone: berlin)
        let values = CommandTemplate.expand(["{when}", "{due}", "{offset}", "{key}"], timed.templateValues)
        #expect(values == ["2026-12-04T13:30:00+01:00", "2026-12-04T14:30:00+01:00", "1h", "event:3:2026-12-04:1h"])
        let allDayReminder = reminder(time: nil, offset: .days(1), fireAt: "2026-12-03T08:00")
        let allDay = ReminderMessage(allDayReminder, late: false, at: allDayReminder.fireAt, zone: berlin)
        #expect(CommandTemplate.expand(["{due} {offset}"], allDay.templateValues) == ["2026-12-04 1d"])
        #expect(CommandTemplate.expand(["{due}|{offset}"], message(key: "digest:2026-12-01").templateValues) == ["|"])
    }

    @Test(
        "snooze presets: the default four; 'before start' only where the item starts later than the reminder went out; keys read back; an email's commands for each"
    )
    func snoozePresets() {
        let berlin = Zone.named("Europe/Berlin")
        let day = CivilDate("2026-12-04")!
        func event(offset: ReminderOffset, fireAt: String) -> ReminderMessage {
            let item = PlanItem(kind: .event, definitionID: 3, date: day, time: WallTime("14:30"), title: "Talk", source: .virtual)
            let reminder = PlannedReminder(
                key: .item(.event, id: 3, date: day, offset: offset), fireAt: ISO8601.parse(fireAt, zone: berlin)!, utcOffset: 3_600,
                channels: [.desktop], status: .pending, settled: [:], snoozed: false, item: item, offset: offset, notes: [], items: [],
                overdueCount: 0, occurrenceDate: day)
            return ReminderMessage(reminder, late: false, at: reminder.fireAt, zone: berlin)
        }
        let presets = Config().desktop.snooze
        #expect(presets.map(\.description) == ["10m", "1h", "tomorrow 09:00", "15m before start"])
        let hourAhead = event(offset: .hours(1), fireAt: "2026-12-04T13:30").actions(snooze: presets)
        let quarterPast = ISO8601.parse("2026-12-04T14:15", zone: berlin)!.secondsSinceEpoch
        #expect(hourAhead.map(\.key) == ["skip", "snooze:10m", "snooze:1h", "snooze:tomorrow 09:00", "snooze-until:\(quarterPast)"])
        #expect(hourAhead.map(\.label) == ["Skip", "Snooze 10m", "Snooze 1h", "Until tomorrow 09:00", "Until 15m before start"])
        // Ten minutes ahead: a quarter of an hour before it is past.
        #expect(event(offset: .minutes(10), fireAt: "2026-12-04T14:20").actions(snooze: presets).count == 4)
        // Each key reads back as the snooze it offered.
        #expect(
            hourAhead.dropFirst().map { InvokedAction(key: $0.key) } == [
                .snooze(.after(.seconds(600))), .snooze(.after(.seconds(3_600))), .snooze(.at("tomorrow 09:00")),
                .snoozeUntil(Instant(secondsSinceEpoch: quarterPast)),
            ])
        #expect(InvokedAction(key: "snooze") == .snooze(nil) && InvokedAction(key: "snooze:soon") == .unknown("snooze:soon"))
        #expect(
            event(offset: .hours(1), fireAt: "2026-12-04T13:30").answerCommands(program: "d", snooze: presets, zone: berlin).filter { $0.contains("snooze") }
                == [
                    "d reminder snooze event:3:2026-12-04:1h --for 10m", "d reminder snooze event:3:2026-12-04:1h --for 1h",
                    "d reminder snooze event:3:2026-12-04:1h --until 'tomorrow 09:00'", "d reminder snooze event:3:2026-12-04:1h --until 2026-12-04T14:15",
                ])
    }

    @Test(
        "a snooze preset's instant, from the press",
        arguments: [
            // (preset, now in Berlin, start, expected)
            ("10m", "2026-12-04T13:30:20", nil, "2026-12-04T13:40:20"), ("tomorrow 09:00", "2026-12-04T23:50:00", nil, "2026-12-05T09:00:00"),
            ("09:00", "2026-12-04T08:00:00", nil, "2026-12-04T09:00:00"), ("09:00", "2026-12-04T10:00:00", nil, "2026-12-05T09:00:00"),
            ("15m before start", "2026-12-04T13:30:00", "2026-12-04T14:30:00", "2026-12-04T14:15:00"),
            ("15m before start", "2026-12-04T14:20:00", "2026-12-04T14:30:00", "none"), ("15m before start", "2026-12-04T13:30:00", nil, "none"),
            // Across the autumn change: a day later at 09:00, whatever the offset.
            ("tomorrow 09:00", "2026-10-24T20:00:00", nil, "2026-10-25T09:00:00"),
        ] as [(String, String, String?, String)])
    func presetInstant(preset: String, now: String, start: String?, expected: String) throws {
        let berlin = Zone.named("Europe/Berlin")
        let until = try #require(SnoozePreset(preset)).until(
            now: ISO8601.parse(now, zone: berlin)!, zone: berlin, start: start.map { ISO8601.parse($0, zone: berlin)! })
        #expect(until.map { String(ISO8601.format($0, in: berlin).prefix(19)) } ?? "none" == expected)
    }

    @Test("snooze presets that are not: too short, no time, words")
    func badPresets() {
        for bad in ["4s", "tomorrow", "soon", "15m before", "before start", "0s before start", ""] { #expect(SnoozePreset(bad) == nil, "\(bad)") }
    }

    @Test("an email's answer commands: one per answer the notification offers, and dismiss; a calendar key quoted for the shell")
    func answerCommands() {
        let program = "dawnlet-remind --db '/home/me/my db.sqlite'"
        #expect(
            message().answerCommands(program: program, snooze: [.after(.seconds(600))], zone: .utc) == [
                "\(program) reminder done todo:3:2026-12-01:0m", "\(program) reminder skip todo:3:2026-12-01:0m",
                "\(program) reminder snooze todo:3:2026-12-01:0m --for 10m", "\(program) reminder dismiss todo:3:2026-12-01:0m",
            ])
        var bill = message(key: "bill:7:2026-12-01:3d")
        bill.payables = [.init(kind: .bill, id: 7, date: CivilDate("2026-12-01")!, title: "Rent")]
        #expect(
            bill.answerCommands(program: "d", snooze: [.after(.seconds(3_600))], zone: .utc) == [
                "d reminder paid bill:7:2026-12-01:3d", "d reminder skip bill:7:2026-12-01:3d", "d reminder snooze bill:7:2026-12-01:3d --for 1h",
                "d reminder dismiss bill:7:2026-12-01:3d",
            ])
        #expect(
            message(key: "ics:work:it's $(x):alarm:2026-12-01T08:50:00").answerCommands(program: "d", snooze: [.after(.seconds(600))], zone: .utc).first
                == #"d reminder done 'ics:work:it'\''s $(x):alarm:2026-12-01T08:50:00'"#)
        #expect(
            message(key: "summary:todo:1:2026-12-01:0m,todo:2:2026-12-01:0m").answerCommands(program: "d", snooze: [.after(.seconds(600))], zone: .utc).isEmpty)
        #expect(ShellWords.quoted("") == "''" && ShellWords.quoted("a b") == "'a b'" && ShellWords.quoted("/tmp/x.sqlite") == "/tmp/x.sqlite")
    }

    @Test(
        "reminder keys read back as they print; anything else is not a key",
        arguments: [
            "todo:3:2026-12-01:10m", "habit:12:2026-02-28:1d", "bill:7:2026-12-01:3d", "event:1:2026-03-29:2h", "goal:2:2026-12-31:1w",
            "digest:2026-12-01", "ics:work:uid:with:colons@example.org:20261201T090000Z:10m", "ics:work:u:alarm:2026-12-01T08:50:00",
        ])
    func keysRoundTrip(text: String) throws {
        let key = try #require(ReminderKey(text))
        #expect(key.description == text)
    }

    @Test(
        "not reminder keys",
        arguments: [
            "habit:x:2026-02-28:1d", "todo:3:2026-02-30:0m", "todo:3:2026-12-01:010m", "todo:0:2026-12-01:0m", "calendar:1:2026-12-01:0m",
            "summary:todo:1:2026-12-01:0m", "digest:2026-13-01", "test:1796112000", "todo:3:2026-12-01", "", "todo:3:2026-12-01:0m:x",
        ])
    func notKeys(text: String) {
        #expect(ReminderKey(text) == nil)
    }

    @Test("a key names the item it reminds of: kind, id and date, whatever the offset")
    func keyItem() throws {
        #expect(ReminderKey("habit:12:2026-02-28:1d")?.item?.id == 12)
        #expect(ReminderKey("habit:12:2026-02-28:1d")?.item?.kind == .habit)
        #expect(ReminderKey("habit:12:2026-02-28:1d")?.item?.date == date("2026-02-28"))
        #expect(ReminderKey("digest:2026-02-28")?.item == nil)
    }

    @Test(
        "the desktop body is escaped only for a server that reads markup; control and bidi characters shown as escapes, its line breaks kept; no actions without the capability"
    )
    func desktopContent() {
        let m = message(title: hostile + "\u{1B}]0;x\u{7}", body: hostile + "\u{202E}", late: true, urgency: .critical)
        let markup = DesktopNotification(m, capabilities: ["body", "body-markup", "actions"], expire: .seconds(30), snooze: [.after(.seconds(600))])
        #expect(markup.body == "Pay &lt;b&gt;rent&lt;/b&gt; &amp; $(touch x)\nBcc: victim@example.org\nÜberweisung 💶\\u{202E}")
        #expect(markup.summary == #"Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org\nÜberweisung 💶\u{1B}]0;x\u{7} (late)"#)
        #expect(markup.urgency == 2)
        #expect(markup.expireMilliseconds == 30_000)
        #expect(markup.category == "x-dawnlet.todo")
        #expect(markup.actions.map(\.key) == ["done", "skip", "snooze:10m"])
        let plain = DesktopNotification(message(body: hostile), capabilities: ["body"], expire: .seconds(0), snooze: [.after(.seconds(600))])
        #expect(plain.body == hostile.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(plain.urgency == 1)
        #expect(plain.actions.isEmpty)
        #expect(plain.expireMilliseconds == 0)
    }

    @Test("a plain ASCII reminder: every header, CRLF everywhere, 7bit body")
    func plainMail() {
        let text = mail(message()).rendered
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        let h = headers(text)
        #expect(h.contains("Date: Tue, 01 Dec 2026 09:00:00 +0100"))
        #expect(h.contains("From: Dawnlet <dawnlet@example.org>"))
        #expect(h.contains("To: <me@example.org>, <you@example.net>"))
        #expect(h.contains("Subject: Call mum"))
        #expect(h.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(h.contains("Content-Transfer-Encoding: 7bit"))
        #expect(h.contains("X-Dawnlet-Key: todo:3:2026-12-01:0m"))
        #expect(h.contains { $0.hasPrefix("Message-ID: <dawnlet.todo.3.2026-12-01.0m.") && $0.hasSuffix("@example.org>") })
        #expect(text.hasSuffix("todo at 09:00\r\n\r\nDue 2026-12-01T09:00:00+01:00.\r\n-- \r\nDawnlet reminder todo:3:2026-12-01:0m\r\n"))
    }

    @Test("the Message-ID depends on the key alone: a repeat has the same one, another reminder a different one")
    func messageIDs() {
        let a = mail(message()).messageID
        #expect(a == mail(message(title: "Other title", late: true)).messageID)
        #expect(a != mail(message(key: "todo:3:2026-12-01:10m")).messageID)
        let long = mail(message(key: "summary:" + (1...40).map { "todo:\($0):2026-12-01:0m" }.joined(separator: ",")))
        #expect(long.messageID.count < 120)
        #expect(long.messageID.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "," && $0 != ":" })
    }

    @Test("CR/LF, markup, a shell snippet and non-ASCII in a title and body arrive as inert text: no header is created")
    func hostileMail() throws {
        let text = mail(message(title: hostile, body: hostile)).rendered
        let h = headers(text)
        #expect(!h.contains { $0.hasPrefix("Bcc:") })
        let subject = try #require(h.first { $0.hasPrefix("Subject: ") })
        #expect(subject.allSatisfy { $0.isASCII })
        #expect(decodeWords(String(subject.dropFirst("Subject: ".count))) == "Pay <b>rent</b> & $(touch x)  Bcc: victim@example.org Überweisung 💶")
        // Each encoded word within RFC 2047's 75 characters, each line within 78.
        #expect(subject.components(separatedBy: " ").dropFirst().allSatisfy { $0.count <= 75 })
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 || !$0.contains("=?") })
        #expect(h.contains("Content-Transfer-Encoding: quoted-printable"))
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(body.hasPrefix("Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org\r\n=C3=9Cberweisung =F0=9F=92=B6\r\n"))
        #expect(body.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 76 })
    }

    @Test("a late reminder says so in the subject; the X-Dawnlet-Key header cannot carry a line break")
    func lateAndKey() {
        let h = headers(mail(message(key: "ics:work:abc\r\nBcc: x@y:2026-12-01:0m", late: true)).rendered)
        #expect(h.contains("Subject: (late) Call mum"))
        #expect(h.contains("X-Dawnlet-Key: ics:work:abc  Bcc: x@y:2026-12-01:0m"))
        #expect(!h.contains { $0.hasPrefix("Bcc:") })
    }

    @Test("quoted-printable: '=' and trailing spaces encoded, long lines soft-broken")
    func quotedPrintable() {
        let line = String(repeating: "é=", count: 40) + " "
        let encoded = MailMessage.quotedPrintable(line)
        #expect(encoded.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(encoded.hasSuffix("=20"))
        // Decoding gives the line back.
        var bytes: [UInt8] = []
        let flat = Array(encoded.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var i = 0
        while i < flat.count {
            if flat[i] == UInt8(ascii: "="), let v = UInt8(String(decoding: flat[i + 1...i + 2], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(flat[i])
                i += 1
            }
        }
        #expect(String(decoding: bytes, as: UTF8.self) == line)
    }

    @Test("durations print the way the config reads them")
    func durationText() {
        for seconds in [0, 1, 59, 60, 600, 3_600, 5_400, 86_400, 90_061] {
            #expect(DurationText.parse(DurationText.format(.seconds(seconds))) == .seconds(seconds))
        }
        #expect(DurationText.format(.seconds(90_061)) == "1d1h1m1s")
    }

    @Test("payments from a notification: a digest offers Log payment and Paid for what it lists; the keys say what to record")
    func paymentActions() {
        var digest = message(key: "digest:2026-12-02")
        #expect(digest.actions(snooze: [.after(.seconds(600))]).isEmpty)
        let stream = ReminderMessage.Payable(kind: .subscription, id: 3, date: date("2026-12-02"), title: "Stream")
        let rent = ReminderMessage.Payable(kind: .bill, id: 1, date: date("2026-12-02"), title: "Rent")
        digest.payables = [stream, rent]
        let actions = digest.actions(snooze: [.after(.seconds(600))])
        #expect(actions.map(\.key) == ["log:subscription:3:2026-12-02", "paid:bill:1:2026-12-02"])
        #expect(actions.map(\.label) == ["Log payment: Stream", "Paid: Rent"])
        // Each key the server gives back reads as the action it was made from, and prints as it came.
        #expect(InvokedAction(key: "log:subscription:3:2026-12-02") == .logPayment(kind: .subscription, id: 3, date: date("2026-12-02")))
        #expect(InvokedAction(key: "paid:bill:1:2026-12-02") == .paid(kind: .bill, id: 1, date: date("2026-12-02")))
        for action in actions + [.done, .skip, .snooze(.after(.seconds(600)), until: nil)] {
            #expect(InvokedAction(key: action.key).description == action.key)
            if case .unknown = InvokedAction(key: action.key) { Issue.record("\(action.key) read as unknown") }
        }
        for bad in ["log:subscription:0:2026-12-02", "log:nothing:3:2026-12-02", "log:debt:3:2026-13-02", "pay:debt:3:2026-12-02", "log:debt:3", "default", ""]
        {
            #expect(InvokedAction(key: bad) == .unknown(bad), "\(bad)")
        }
        #expect([1, 2, 3, 4, 99].map { CloseReason(code: $0).description } == ["expired", "dismissed", "closed", "closed", "closed"])
        // A bill's own reminder: Paid beside Skip and Snooze.
        var bill = message(key: "bill:1:2026-12-02:0m")
        bill.payables = [rent]
        #expect(bill.actions(snooze: [.after(.seconds(600))]).map(\.key) == ["paid:bill:1:2026-12-02", "skip", "snooze:10m"])
    }
}
