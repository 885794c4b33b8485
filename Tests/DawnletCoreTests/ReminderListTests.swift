import DawnletTestSupport
import Testing

@testable import DawnletCore

/// Lists that remind their own way (`lists`), and reminders that go on to other channels while
/// unanswered (`escalate`): the config's checks and the planner's decisions, as tables.
@Suite struct ReminderListTests {
    static let berlin = Zone.named("Europe/Berlin")
    // A Saturday.
    let saturday = date("2026-12-05")

    func at(_ time: String, on day: String = "2026-12-05") -> Instant { ISO8601.parse("\(day)T\(time)", zone: Self.berlin)! }

    func config(_ text: String) throws -> Config { try Config(try JSON5.parse(Array(text.utf8)).value) }

    func configError(_ text: String) -> String? {
        do {
            _ = try config(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A 09:00 todo of `tags` on `day`, its own channels and style, as the plan reader makes it.
    func todo(tags: [String], on day: CivilDate? = nil, channels: [Channel]? = nil, style: ReminderStyle? = nil, config: Config) -> PlanItem {
        var d = ItemDefinition(kind: .todo, id: 7, title: "Report", time: WallTime("09:00"), date: day ?? saturday, reminders: [.minutes(0)])
        d.details.tags = tags
        d.channels = channels
        d.style = style
        let (channels, box) = config.lists.reminding(d)
        return PlanItem(
            kind: .todo, definitionID: 7, date: d.date!, time: d.time, title: d.title, source: .virtual, offsets: .init([.minutes(0)]),
            suppression: nil, detail: nil, note: nil, channels: channels, style: box)
    }

    func plan(
        _ item: PlanItem, config: Config, log: [DeliveryID: Settlement] = [:], now: Instant, all: Bool = false
    ) -> [PlannedReminder] {
        Planner.plan(
            items: [item], overdue: [], rules: PlanRules(config: config), log: log, now: now,
            window: now.adding(seconds: -43_200)...now.adding(seconds: 86_400), zone: Self.berlin, includeSuppressed: all
        ).reminders
    }

    @Test(
        "the config's lists and ladders are checked, each mistake named with its key path",
        arguments: [
            ("{ lists: { Work: {} } }", "lists.Work: not a tag: lowercase letters, digits, - and _, at most 40"),
            ("{ lists: { work: { colour: 'red' } } }", "lists.work.colour: unknown key"),
            ("{ lists: { work: { route: ['pager'] } } }", "lists.work.route: unknown channel \"pager\""),
            ("{ lists: { work: { route: ['email'] } } }", "lists.work.route: sends to email, but channels.email is not set up"),
            ("{ lists: { work: { urgency: 'loud' } } }", "lists.work.urgency: low, normal or critical"),
            ("{ lists: { work: { nag: '2s' } } }", "lists.work.nag: \"off\", or a duration"),
            ("{ lists: { work: { mute: { days: ['caturday'] } } } }", "lists.work.mute.days: \"caturday\" is not a weekday"),
            ("{ lists: { work: { mute: { kinds: ['todo'] } } } }", "lists.work.mute.kinds: unknown key"),
            ("{ lists: { work: { quietHours: { from: '22:00' } } } }", "lists.work.quietHours: needs from and to"),
            ("{ escalate: [{ after: '15m' }] }", "escalate[0]: needs after and to"),
            ("{ escalate: [{ after: '2s', to: ['command'] }] }", "escalate[0].after: must be between 5s and 12h"),
            ("{ escalate: [{ after: '15m', to: ['email'] }] }", "escalate: sends to email, but channels.email is not set up"),
            ("{ escalate: { todo: [{ after: '1h', to: ['command'] }, { after: '15m', to: ['command'] }] } }", "escalate.todo[1].after: must be later"),
            ("{ escalate: { chore: [] } }", "escalate.chore: unknown kind"),
        ])
    func refused(_ text: String, _ expected: String) {
        let error = configError(text)
        #expect(error?.hasPrefix(expected) == true, "\(text): \(error ?? "accepted")")
    }

    @Test("a list's channels, nag, urgency and sound apply to its items; an item's own setting goes over its list's; untagged items keep their kind's")
    func settings() throws {
        let config = try config(
            """
            { lists: { work: { route: ['command'], nag: '10m', urgency: 'low', sound: 'bell' }, home: { route: ['desktop', 'command'] } } }
            """)
        let work = todo(tags: ["errand", "work", "home"], config: config)
        #expect(work.channels == [.command] && work.listTag == "work")
        #expect(work.style == ReminderStyle(nag: .seconds(600), urgency: .low, sound: "bell"))
        let own = todo(tags: ["work"], channels: [.desktop], style: ReminderStyle(urgency: .critical), config: config)
        #expect(own.channels == [.desktop] && own.style == ReminderStyle(nag: .seconds(600), urgency: .critical, sound: "bell"))
        let plain = todo(tags: ["errand"], config: config)
        #expect(plain.channels == nil && plain.style == nil && plain.listTag == nil)
        let reminders = plan(work, config: config, now: at("08:00:00"))
        #expect(reminders.map(\.channels) == [[.command]])
        #expect(reminders[0].why.contains("list work"), "\(reminders[0].why)")
        #expect(config.style(of: work).urgency == .low && config.style(of: work).sound == "bell")
    }

    @Test("a list muted on Saturdays sends nothing then, shown muted by preview --all; on Friday it goes out")
    func mute() throws {
        let config = try config("{ lists: { work: { mute: { days: ['sat'] } }, evenings: { mute: { from: '18:00', to: '23:00' } } } }")
        #expect(plan(todo(tags: ["work"], config: config), config: config, now: at("08:00:00")).isEmpty)
        let shown = plan(todo(tags: ["work"], config: config), config: config, now: at("08:00:00"), all: true)
        #expect(shown.map(\.status) == [.suppressed(.muted)] && shown[0].why.contains("muted by list work"))
        let friday = todo(tags: ["work"], on: date("2026-12-04"), config: config)
        #expect(plan(friday, config: config, now: at("08:00:00", on: "2026-12-04")).map(\.status) == [.pending])
        // A stretch of hours: 09:00 is outside it.
        #expect(plan(todo(tags: ["evenings"], config: config), config: config, now: at("08:00:00")).map(\.status) == [.pending])
    }

    @Test("a list's quiet hours hold its items, not the others'; over the config's own")
    func quietHours() throws {
        let config = try config("{ quietHours: { from: '22:00', to: '07:00' }, lists: { work: { quietHours: { from: '08:00', to: '10:30' } } } }")
        let held = plan(todo(tags: ["work"], config: config), config: config, now: at("07:30:00"))
        #expect(held.map { ISO8601.format($0.fireAt, in: Self.berlin) } == ["2026-12-05T10:30:00+01:00"])
        let other = plan(todo(tags: ["home"], config: config), config: config, now: at("07:30:00"))
        #expect(other.map { ISO8601.format($0.fireAt, in: Self.berlin) } == ["2026-12-05T09:00:00+01:00"])
    }

    /// The plan at `now` of a work todo whose 09:00 reminder went out on the desktop at 09:00:02,
    /// with what the log says of it: the escalations planned, as "HH:MM:SS channel status".
    func escalations(_ config: Config, answered: Bool = false, emailed: Bool = false, now: String) -> [String] {
        let item = todo(tags: ["work"], config: config)
        let key = ReminderKey.item(.todo, id: 7, date: saturday, offset: .minutes(0))
        var log = [DeliveryID(key, .desktop): Settlement(.delivered, at: at("09:00:02"), waiting: !answered, firstDelivered: at("09:00:02"))]
        if emailed { log[DeliveryID(key, .email)] = Settlement(.delivered, at: at("09:15:03"), waiting: true, firstDelivered: at("09:15:03")) }
        return plan(item, config: config, log: log, now: at(now)).filter { $0.status != .settled }.map {
            "\(ISO8601.format($0.fireAt, in: Self.berlin).dropFirst(11).prefix(8)) \($0.channels.map(\.rawValue).joined()) \($0.status)"
        }
    }

    static let mail = "channels: { email: { url: 'smtp://127.0.0.1:2525', tls: 'none', from: 'a@example.org', to: ['a@example.org'] } }"

    @Test("unanswered, a reminder goes on rung by rung from when it first went out; an answer anywhere stops it; a rung that went out is not planned again")
    func ladder() throws {
        let config = try config(
            "{ \(Self.mail), lists: { work: { escalate: [{ after: '15m', to: ['email'] }, { after: '1h', to: ['command'] }] } } }")
        #expect(escalations(config, now: "09:01:00") == ["09:15:02 email pending", "10:00:02 command pending"])
        // The machine slept through the first rung: it goes out at once, marked late.
        #expect(escalations(config, now: "09:20:00") == ["09:15:02 email late", "10:00:02 command pending"])
        #expect(escalations(config, answered: true, now: "09:01:00").isEmpty)
        #expect(escalations(config, emailed: true, now: "09:16:00") == ["10:00:02 command pending"])
        // The kind's ladder where the item's list has none; the list's over the kind's.
        let kinds = try self.config("{ \(Self.mail), escalate: { todo: [{ after: '30m', to: ['email'] }] }, lists: { work: {} } }")
        #expect(escalations(kinds, now: "09:01:00") == ["09:30:02 email pending"])
        // Before it goes out, preview says what its ladder is.
        let ahead = plan(todo(tags: ["work"], config: config), config: config, now: at("08:00:00"))
        #expect(ahead.count == 1 && ahead[0].why.contains("if unanswered, on to email after 15m, command after 1h"), "\(ahead.map(\.why))")
    }
}
