import DawnletStore
import Testing

@testable import DawnletCore
@testable import DawnletRunner

extension RunnerCoreTests {
    @Test(
        "why a reminder is missed goes with it to the log: past the grace window at the start; given up after its last retry, with what the channel said"
    )
    func missedWithWhy() {
        let d = driver([0, -13 * 3_600], now: 0)
        d.answerAtOnce = DeliveryOutcome(state: .failed, detail: "exited 75", retry: true)
        d.send(.start)
        let recorded = d.effects.compactMap { if case .recordMissed(let missed, _) = $0 { missed.map { "\($0.reminder.key) \($0.reason)" } } else { nil } }
        #expect(recorded == [["todo:2:2026-12-01:0m graceWindow"]])
        #expect(d.logs.contains("missed todo:2:2026-12-01:0m@desktop [todo \"T2\" at 2026-11-30T20:00:00+00:00]: outside the grace window"), "\(d.logs)")
        for _ in 0..<10 where d.written.isEmpty {
            d.now = d.core.nextWake ?? d.now
            d.send(.wake(dataVersion: 1))
        }
        let finishes = d.effects.compactMap { effect -> String? in
            guard case .finish(let id, let state, let detail, let missed, _, _) = effect else { return nil }
            return "\(id) \(state) \(missed.map { "\($0)" } ?? "-") \(detail ?? "")"
        }
        #expect(finishes == ["todo:1:2026-12-01:0m@desktop missed gaveUp exited 75; gave up after 5 attempts"])
        #expect(d.now == t0.adding(seconds: 1 + 2 + 4 + 8), "four retries, then given up")
    }
}
