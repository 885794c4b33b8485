import DawnletCore
import DawnletStore
import DawnletSystem
import Testing

@testable import DawnletRunner

/// The runner's inputs beyond its plan and deliveries, as tables: a watch's write, each timer's
/// firing, SIGHUP, a notification's response, the state for `next` and the month closed before
/// it. What the core says to do is compared; the driver answers its requests.
@Suite struct RunnerCoreInputsTests {
    let t0 = Instant(secondsSinceEpoch: 1_796_115_600)  // 2026-12-01T09:00:00+00:00

    /// A runner that has made its first plan (one todo an hour on), its effects cleared.
    func started(now offset: Int64 = 0) -> CoreDriver {
        let d = RunnerCoreTests().driver([3_600], now: offset)
        d.send(.start)
        d.clear()
        return d
    }

    /// What an effect is, in words a table compares.
    static func words(_ effect: RunnerEffect) -> String {
        switch effect {
        case .armAfter(let timer, let span): "arm \(timer) after \(span)"
        case .arm(let timer, let at): "arm \(timer) at \(at.secondsSinceEpoch)"
        case .cancel(let timer): "cancel \(timer)"
        case .withdraw: "withdraw"
        case .plan(let request): "plan (\(request.reason))"
        case .checkDatabase: "check database"
        case .readCalendarAnswers: "read calendar answers"
        case .closeAnsweredElsewhere: "close answered elsewhere"
        case .syncExport: "sync export"
        case .readZone: "read zone"
        case .rearmClockWatch: "rearm clock watch"
        case .log(let entry): "log \(entry.message)"
        case .reloadConfig: "reload config"
        case .notify(let line): line
        case .respond(let id, let response): "respond \(id) \(response)"
        case .readChanges: "read changes"
        case .publish(_, let recount): recount ? "publish, recounted" : "publish"
        case .closeMonth(let today, _): "close the month before \(today)"
        case .exportChanges: "export changes"
        default: "…"
        }
    }

    static let writes: [(Watched, [String])] = [
        (.database, ["arm database settle after 0.1 seconds", "arm database settle ceiling after 1.0 seconds"]),
        (.calendars, ["withdraw", "cancel state expiry", "arm calendar settle after 0.2 seconds", "arm calendar settle ceiling after 2.0 seconds"]),
        (.zone, ["withdraw", "cancel state expiry", "arm zone settle after 0.2 seconds", "arm zone settle ceiling after 2.0 seconds"]),
        (.export, ["arm export settle after 0.1 seconds", "arm export settle ceiling after 1.0 seconds"]),
    ]

    @Test(
        "a watch's write (re-)arms its settle timer, the first of a burst its ceiling too; a calendar's or the zone's withdraws the state for next at once; none once stopping",
        arguments: writes)
    func written(_ watched: Watched, _ expected: [String]) {
        let d = started()
        d.send(.written(watched))
        #expect(d.effects.map(Self.words) == expected)
        // The burst goes on: the settle timer again, the ceiling left where it was.
        d.clear()
        d.send(.written(watched))
        #expect(d.effects.map(Self.words) == expected.filter { !$0.contains("ceiling") })
        d.send(.stop(reason: "SIGTERM received", exitCode: 0))
        d.clear()
        d.send(.written(watched))
        #expect(d.effects.isEmpty)
    }

    @Test("writes that never go quiet: acted on when the ceiling armed by the first runs out, the settle timer disarmed; the next write opens a new burst")
    func ceiling() {
        let d = started()
        for _ in 0..<50 { d.send(.written(.database)) }
        let armed = d.effects.map(Self.words)
        #expect(armed.filter { $0 == "arm database settle ceiling after 1.0 seconds" }.count == 1, "\(armed)")
        #expect(armed.filter { $0 == "arm database settle after 0.1 seconds" }.count == 50, "\(armed)")
        #expect(d.core.bursts == [.database])
        d.clear()
        d.dataVersion = 2
        d.send(.timerFired(.databaseCeiling))
        let acted = d.effects.map(Self.words)
        #expect(Array(acted.prefix(4)) == ["cancel database settle", "close answered elsewhere", "check database", "read changes"], "\(acted)")
        #expect(d.core.bursts.isEmpty)
        d.clear()
        d.send(.written(.database))
        #expect(d.effects.map(Self.words) == ["arm database settle after 0.1 seconds", "arm database settle ceiling after 1.0 seconds"])
        // Quiet this time: the settle timer ends the burst, and the ceiling is disarmed.
        d.clear()
        d.send(.timerFired(.databaseSettle))
        #expect(d.effects.map(Self.words).first == "cancel database settle ceiling")
        #expect(d.core.bursts.isEmpty)
    }

    static let timers: [(TimerName, [String])] = [
        (.databaseSettle, ["cancel database settle ceiling", "close answered elsewhere", "check database"]),
        (.calendarSettle, ["cancel calendar settle ceiling", "read calendar answers", "close answered elsewhere", "plan (calendar files changed)"]),
        (.exportSettle, ["cancel export settle ceiling", "sync export"]),
        (.zoneSettle, ["cancel zone settle ceiling", "read zone"]),
        (.databaseCeiling, ["cancel database settle", "close answered elsewhere", "check database"]),
        (.exportCeiling, ["cancel export settle", "sync export"]),
        (.stateExpiry, ["publish, recounted", "cancel state expiry", "export changes"]),
    ]

    @Test("each settle timer does its one thing when its burst is over; the state's expiry publishes afresh; none once stopping", arguments: timers)
    func timerFired(_ timer: TimerName, _ expected: [String]) {
        let d = started()
        d.send(.timerFired(timer))
        // Up to the plan's own round (a request answered at once), in order.
        let said = d.effects.map(Self.words)
        #expect(Array(said.prefix(expected.count)) == expected, "\(said)")
        d.send(.stop(reason: "SIGTERM received", exitCode: 0))
        d.clear()
        d.send(.timerFired(timer))
        #expect(d.effects.isEmpty)
    }

    @Test("the database settled: unchanged, nothing; written by another process, its changes read; lost, the runner stops with 1")
    func databaseSettled() {
        let d = started()
        d.send(.timerFired(.databaseSettle))
        #expect(!d.effects.map(Self.words).contains("read changes"), "the same data version")
        d.dataVersion = 2
        d.clear()
        d.send(.timerFired(.databaseSettle))
        #expect(d.effects.map(Self.words).contains("read changes"))
        d.clear()
        d.send(.databaseSettled(lost: "was deleted or moved away", dataVersion: nil))
        #expect(d.exits == [1])
    }

    @Test("SIGHUP: RELOADING, the config read, then a plan, then READY, in that order; ignored once stopping")
    func reload() {
        let d = started()
        d.send(.reload)
        let said = d.effects.map(Self.words).filter { $0 != "…" && !$0.hasPrefix("STATUS=") && !$0.hasPrefix("arm wake") }
        #expect(Array(said.prefix(3)) == ["RELOADING=1", "reload config", "plan (SIGHUP)"], "\(said)")
        #expect(said.last == "READY=1", "\(said)")
        d.send(.stop(reason: "SIGTERM received", exitCode: 0))
        d.clear()
        d.send(.reload)
        #expect(d.effects.isEmpty)
    }

    @Test("the clock set: a plan; a watch that cannot be armed again is said and tried again each second until it is")
    func clockSet() {
        let d = started()
        d.send(.clockSet(rearmFailure: nil))
        #expect(d.effects.map(Self.words).first == "plan (the clock was set)")
        d.clear()
        d.clockWatchFailure = "Too many open files"
        d.send(.clockSet(rearmFailure: "Too many open files"))
        #expect(
            Array(d.effects.map(Self.words).prefix(3)) == [
                "log cannot watch the clock again: Too many open files; trying again in 1 s", "arm clock watch retry after 1.0 seconds",
                "plan (the clock was set)",
            ])
        d.clear()
        d.send(.timerFired(.clockWatchRetry))
        #expect(
            Array(d.effects.map(Self.words).prefix(3)) == [
                "rearm clock watch", "log cannot watch the clock again: Too many open files; trying again in 1 s", "arm clock watch retry after 1.0 seconds",
            ])
        d.clockWatchFailure = nil
        d.clear()
        d.send(.timerFired(.clockWatchRetry))
        #expect(d.effects.map(Self.words) == ["rearm clock watch"])
    }

    @Test("an export sync that changed the store closes what was answered there and plans; one that did not, nothing")
    func exportSynced() {
        let d = started()
        d.send(.timerFired(.exportSettle))
        #expect(d.effects.map(Self.words) == ["cancel export settle ceiling", "sync export"])
        d.exportChangesStore = true
        d.clear()
        d.send(.timerFired(.exportSettle))
        #expect(
            Array(d.effects.map(Self.words).prefix(4)) == [
                "cancel export settle ceiling", "sync export", "close answered elsewhere", "plan (calendar files changed)",
            ])
    }

    @Test(
        "a file of the export that failed is tried again without a change: after 1 s, then twice as long while it fails, at most 5 min; from 1 s again once none fails"
    )
    func exportRetried() {
        let d = started()
        d.exportFails = true
        var delays: [String] = []
        d.send(.timerFired(.exportSettle))
        for _ in 0..<10 {
            let armed = d.effects.map(Self.words).filter { $0.hasPrefix("arm export retry") }
            #expect(armed.count == 1, "\(d.effects.map(Self.words))")
            delays += armed
            d.clear()
            d.send(.timerFired(.exportRetry))
        }
        #expect(
            delays.map { $0.replacingOccurrences(of: "arm export retry after ", with: "") } == [
                "1.0 seconds", "2.0 seconds", "4.0 seconds", "8.0 seconds", "16.0 seconds", "32.0 seconds", "64.0 seconds", "128.0 seconds",
                "256.0 seconds", "300.0 seconds",
            ])
        // A pass with nothing failing arms nothing, and the next failure waits 1 s again.
        d.exportFails = false
        d.clear()
        d.send(.timerFired(.exportRetry))
        #expect(d.effects.map(Self.words) == ["sync export"])
        d.exportFails = true
        d.clear()
        d.send(.timerFired(.exportSettle))
        #expect(d.effects.map(Self.words) == ["cancel export settle ceiling", "sync export", "arm export retry after 1.0 seconds"])
    }

    @Test("a notification's response is carried out as the reminder's life says, stopping or not")
    func notificationResponse() {
        let d = started()
        d.send(.notificationResponse(7, .invoked(.done)))
        #expect(d.effects.map(Self.words) == ["respond 7 invoked(done)"])
        d.send(.stop(reason: "SIGTERM received", exitCode: 0))
        d.clear()
        d.send(.notificationResponse(7, .closed(.dismissed)))
        #expect(d.effects.map(Self.words) == ["respond 7 closed(dismissed)"], "a press before the exit is still an answer")
    }

    @Test("the state for next: armed to run out where it runs out before the next wake; cancelled where the wake comes first or nothing is published")
    func stateExpiry() {
        let d = started()
        // The wake is the todo, an hour on.
        d.publishedUntil = t0.adding(seconds: 600)
        d.send(.timerFired(.stateExpiry))
        #expect(d.effects.map(Self.words).contains("arm state expiry at \(t0.adding(seconds: 600).secondsSinceEpoch)"))
        d.publishedUntil = t0.adding(seconds: 7_200)
        d.clear()
        d.send(.timerFired(.stateExpiry))
        #expect(d.effects.map(Self.words).contains("cancel state expiry"), "the wake at the todo publishes again first")
        d.publishedUntil = nil
        d.clear()
        d.send(.timerFired(.stateExpiry))
        #expect(d.effects.map(Self.words).contains("cancel state expiry"))
    }

    @Test("a month's first decision closes the month before, once; a close that fails is said and asked again at the next decision")
    func monthClose() {
        let d = RunnerCoreTests().driver([3_600], now: 0)
        d.failMonthCloses = 1
        d.send(.start)
        let closes = { d.effects.map(Self.words).filter { $0.hasPrefix("close the month") } }
        #expect(closes() == ["close the month before 2026-12-01"])
        #expect(d.logs.contains("cannot keep the figures of the month before 2026-12: database is locked"), "\(d.logs)")
        d.clear()
        d.send(.timerFired(.stateExpiry))
        #expect(closes() == ["close the month before 2026-12-01"], "asked again")
        d.clear()
        d.send(.timerFired(.stateExpiry))
        #expect(closes().isEmpty, "kept: not again this month")
        // 2027-01-01T00:00Z: the next month's first decision.
        d.now = Instant(secondsSinceEpoch: 1_798_761_600)
        d.clear()
        d.send(.timerFired(.stateExpiry))
        #expect(closes() == ["close the month before 2027-01-01"])
    }
}
