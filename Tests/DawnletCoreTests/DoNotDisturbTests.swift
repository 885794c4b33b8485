import Testing

@testable import DawnletCore

/// Which server says Do Not Disturb how, and what goes out through it.
@Suite struct DoNotDisturbTests {
    @Test(
        "each server's name (GetServerInformation) gives how its Do Not Disturb is learned",
        arguments: [
            ("dunst", DoNotDisturb.Source.dunstPaused), ("SwayNotificationCenter", .swaync), ("Xfce Notify Daemon", .xfconf), ("mako", .makoModes),
            ("gnome-shell", .gnomeShowBanners), ("Notification Daemon", .inhibited), ("", .inhibited),
        ])
    func sources(name: String, source: DoNotDisturb.Source) {
        #expect(DoNotDisturb.Source.of(serverName: name) == source)
    }

    @Test("only mako's is asked when a reminder is due; every source says itself in words")
    func askedWhenDue() {
        #expect(DoNotDisturb.Source.allCases.filter(\.askedWhenDue) == [.makoModes])
        #expect(Set(DoNotDisturb.Source.allCases.map(\.words)).count == DoNotDisturb.Source.allCases.count)
    }

    @Test("mako's modes hold Do Not Disturb when do-not-disturb is among them")
    func makoModes() {
        #expect(DoNotDisturb.on(makoModes: ["default", "do-not-disturb"]))
        #expect(!DoNotDisturb.on(makoModes: ["default"]))
        #expect(!DoNotDisturb.on(makoModes: []))
        #expect(!DoNotDisturb.on(makoModes: ["do-not-disturb-later"]))
    }

    @Test("a critical reminder passes when the setting lets it; nothing else does")
    func passes() {
        #expect(DoNotDisturb.passes(.critical, criticalPasses: true))
        #expect(!DoNotDisturb.passes(.critical, criticalPasses: false))
        #expect(!DoNotDisturb.passes(.normal, criticalPasses: true))
        #expect(!DoNotDisturb.passes(.low, criticalPasses: true))
    }

    @Test("the decision holds what is due on a Do Not Disturb channel for Do Not Disturb, except what passes; a paused channel says paused")
    func decided() {
        let t0 = Instant(secondsSinceEpoch: 1_796_112_000)
        let date = CivilDate(year: 2026, month: 12, day: 1)!
        func reminder(_ id: Int) -> PlannedReminder {
            let item = PlanItem(kind: .todo, definitionID: Int64(id), date: date, time: WallTime("09:00"), title: "T\(id)", source: .virtual)
            return PlannedReminder(
                key: .item(.todo, id: Int64(id), date: date, offset: .minutes(0)), fireAt: t0.adding(seconds: -30), utcOffset: 3_600,
                channels: [.desktop, .email], status: .pending, settled: [:], snoozed: false, item: item, offset: .minutes(0), notes: [], items: [],
                overdueCount: 0, occurrenceDate: date)
        }
        let plan = [reminder(1), reminder(2)]
        let policy = DeliveryPolicy(graceWindow: .seconds(12 * 3_600))
        let d = Dispatcher.decide(
            plan, retries: [:], now: t0, policy: policy, planEnds: t0.adding(seconds: 86_400), doNotDisturb: [.desktop],
            passes: { r, _ in r.key == plan[1].key })
        #expect(d.held.map { "\($0.id) \($0.reason.rawValue)" } == ["todo:1:2026-12-01:0m@desktop do-not-disturb"])
        #expect(Set(d.sends.map { "\($0.channel)" }) == ["desktop", "email"])
        let paused = Dispatcher.decide(
            plan, retries: [:], now: t0, policy: policy, planEnds: t0.adding(seconds: 86_400), paused: [.desktop], doNotDisturb: [.desktop],
            passes: { _, _ in true })
        #expect(paused.held.map(\.reason) == [.serverPaused, .serverPaused])
        #expect(Hold.Reason.doNotDisturb.words == "Do Not Disturb")
    }

    @Test("channels.desktop.criticalPassesDoNotDisturb: true by default, false when set, a one-line error when not a boolean")
    func config() throws {
        #expect(Config().desktop.criticalPassesDoNotDisturb)
        let off = try ConfigTests.parse(#"{ channels: { desktop: { criticalPassesDoNotDisturb: false } } }"#)
        #expect(!off.desktop.criticalPassesDoNotDisturb)
        #expect(throws: ConfigError.self) { try ConfigTests.parse(#"{ channels: { desktop: { criticalPassesDoNotDisturb: "yes" } } }"#) }
        do {
            _ = try ConfigTests.parse(#"{ channels: { desktop: { criticalPassesDoNotDisturb: "yes" } } }"#)
        } catch {
            #expect("\(error)".hasPrefix("channels.desktop.criticalPassesDoNotDisturb"), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }
}
