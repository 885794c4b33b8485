import DawnletCore
import DawnletStore
import DawnletTestSupport
import Testing

@testable import DawnletRunner

extension RunnerLoopTests {
    @Test(
        "Log payment pressed on a digest for a period logged a moment before, by another writer, before serve saw it: nothing logged twice, and the person is told on a notification of its own"
    )
    func paymentNotRecorded() throws {
        let stream = try store.sources.addSubscription(
            name: "Stream", amount: Amount(minorUnits: -1_299), schedule: try Schedule(parsing: "monthly from 2026-12-01"), today: date("2026-11-20"))
        try store.money.addRecurringTransaction(
            name: "Rent", amount: Amount(minorUnits: -95_000), schedule: try Schedule(parsing: "monthly from 2026-12-01"), today: date("2026-11-20"))
        scheduler.setWallClock(to: at("2026-12-01T08:00"))
        runner.start()
        let digest = try #require(channels.handed.firstIndex { $0.message.key.description == "digest:2026-12-01" }, "\(channels.keys)")
        channels.end(digest, DeliveryOutcome(state: .delivered, detail: nil, notificationID: 7))
        #expect(channels.handed[digest].message.payables.count == 2)

        // Logged elsewhere; the database's settle timer has not fired yet, so the digest still offers it.
        _ = try store.sources.logPayment(for: .subscription, id: stream, on: date("2026-12-01"), amount: nil)
        runner.send(.notificationResponse(7, .invoked(.logPayment(kind: .subscription, id: stream, date: date("2026-12-01")))))
        let notice = try #require(channels.handed.last?.message)
        #expect(notice.title == "Not recorded")
        #expect(notice.body.contains("already logged for the period 2026-12-01"), "\(notice.body)")
        #expect(try store.sources.payments().count == 1, "nothing logged twice")
        // The digest still waits for its bill.
        #expect(try store.log.deliveries(of: .digest(date("2026-12-01"))).allSatisfy { $0.answer == nil })
    }
}
