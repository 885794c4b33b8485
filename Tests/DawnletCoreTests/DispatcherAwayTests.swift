import Testing

@testable import DawnletCore

/// What waited while the screen was locked goes out, once it unlocks, as one summary per channel;
/// one alone as itself; what did not wait as it was decided.
extension DispatcherTests {
    @Test("unlocked: two that waited on the desktop go out as one summary marked away; one alone as itself; others untouched")
    func gatheringAway() {
        let reminders = [reminder(1, at: -600), reminder(2, at: -300), reminder(3, at: -60, channels: [.command])]
        let decision = decide(reminders, now: 0)
        #expect(sends(decision) == ["command 3 on time", "desktop 1 late", "desktop 2 late"])
        let away: Set<DeliveryID> = [DeliveryID(reminders[0].key, .desktop), DeliveryID(reminders[1].key, .desktop)]
        let gathered = decision.gatheringAway(away)
        #expect(sends(gathered) == ["command 3 on time", "desktop 1,2 late"])
        #expect(gathered.sends.map(\.away) == [false, true])
        let alone = decision.gatheringAway([DeliveryID(reminders[1].key, .desktop)])
        #expect(sends(alone) == sends(decision) && alone.sends.allSatisfy { !$0.away })
        let summary = ReminderMessage.awaySummary(of: [reminders[0], reminders[1]], when: "", zone: .utc)
        #expect(summary.title == "2 reminders while you were away" && !summary.late)
    }
}
