import DawnletCore
import DawnletStore
import DawnletTestSupport
import Testing

/// The delivery log with desktop notifications: claims, the server's id, snoozes.
@Suite struct StoreDeliveryTests {
    let folder: TemporaryFolder
    let store: Store
    let key = "todo:1:2026-12-01:0m"
    let fireAt = Instant(secondsSinceEpoch: 1_796_112_000)

    init() throws {
        folder = try TemporaryFolder()
        store = try Store(path: folder.path("dawnlet.sqlite"))
    }

    var id: DeliveryID { DeliveryID(ReminderKey(key)!, .desktop) }

    func claim(at seconds: Int64 = 0) throws -> Bool {
        try store.log.claim(
            id, title: "Call", fireAt: fireAt, late: false,
            now: fireAt.adding(seconds: seconds))
    }

    @Test("a delivered reminder is settled; a snooze unsettles it until it is claimed again, once")
    func snoozeCycle() throws {
        #expect(try claim())
        try store.log.finish(id, state: .delivered, detail: nil, notificationID: 17, now: fireAt)
        #expect(try !claim())
        #expect(try store.log.deliveryLog(since: fireAt) == [id: Settlement(.delivered, at: fireAt, waiting: true, firstDelivered: fireAt)])
        #expect(try store.log.notificationID(id) == 17)
        #expect(try store.log.deliveries(notificationID: 17, channel: .desktop).map(\.key.description) == [key])
        #expect(try store.log.deliveries(notificationID: 18, channel: .desktop).isEmpty)

        let until = fireAt.adding(seconds: 600)
        #expect(try store.log.snooze(id, until: until, from: .button, words: "snoozed until 09:10"))
        #expect(try store.log.deliveryLog(since: fireAt).isEmpty)
        #expect(try store.log.snoozes() == [id: until])
        // The re-fire claims it.
        #expect(try claim(at: 600))
        #expect(try store.log.snoozes().isEmpty)
        // A repeat keeps the id it replaces until the new one is recorded.
        #expect(try store.log.notificationID(id) == 17)
        try store.log.finish(id, state: .delivered, detail: nil, notificationID: 21, now: until)
        #expect(try store.log.notificationID(id) == 21)
        #expect(try !claim(at: 700))
        let row = try #require(try store.log.deliveries(.delivered).first)
        // Back from its snooze, it waits for a new answer: the old one is gone, and a nag counts
        // from its return.
        #expect(row.attempts == 2 && row.response == nil)
        #expect(row.firstDeliveredAt == until && row.repeats == 0)
        #expect(try store.log.waiting(since: fireAt).map(\.id) == [id])
    }

    @Test("a nag's return claims a delivered reminder only while it waits; an answer on any channel ends the wait on all")
    func repeatClaims() throws {
        func again(at seconds: Int64) throws -> Bool {
            try store.log.claim(
                [Store.Log.Claim(id, title: "Call", fireAt: fireAt, late: false, isRepeat: true)], now: fireAt.adding(seconds: seconds))
                == [true]
        }
        #expect(try claim())
        try store.log.finish(id, state: .delivered, detail: nil, notificationID: 5, now: fireAt.adding(seconds: 2))
        #expect(try again(at: 300))
        try store.log.finish(id, state: .delivered, detail: nil, notificationID: 5, now: fireAt.adding(seconds: 301))
        var row = try #require(try store.log.deliveries(of: ReminderKey(key)!).first)
        // The first delivery stays what the nag counts from; the latest is the finish.
        #expect(row.firstDeliveredAt == fireAt.adding(seconds: 2) && row.finishedAt == fireAt.adding(seconds: 301) && row.repeats == 1)
        // The server let it expire: still waiting, so it comes back.
        try store.log.respond(id, .expired, from: .server, words: "expired")
        #expect(try again(at: 600))
        try store.log.finish(id, state: .delivered, detail: nil, notificationID: 5, now: fireAt.adding(seconds: 601))
        #expect(try store.log.deliveryLog(since: fireAt)[id]?.waiting == true)
        // Answered on email: the desktop row waits no more, and no return claims it.
        let mail = DeliveryID(ReminderKey(key)!, .email)
        #expect(try store.log.claim(mail, title: "Call", fireAt: fireAt, late: false, now: fireAt))
        try store.log.finish(mail, state: .delivered, detail: nil, now: fireAt.adding(seconds: 2))
        try store.log.respond(mail, .done, from: .terminal, words: "done")
        let log = try store.log.deliveryLog(since: fireAt)
        #expect(log[id]?.waiting == false && log[mail]?.waiting == false && log[id]?.firstDelivered == fireAt.adding(seconds: 2))
        // A return planned before the answer came finds it, and is not claimed.
        #expect(try !again(at: 900))
        row = try #require(try store.log.deliveries(of: ReminderKey(key)!).first { $0.channel == .desktop })
        #expect(row.repeats == 2 && row.state == .delivered)
    }

    @Test("only a delivered reminder can be snoozed; a response is recorded on its row")
    func snoozeNeedsDelivery() throws {
        #expect(try claim())
        #expect(try !store.log.snooze(id, until: fireAt.adding(seconds: 600), from: .button, words: "snoozed"))
        try store.log.finish(id, state: .failed, detail: "no server", now: fireAt)
        #expect(try !store.log.snooze(id, until: fireAt.adding(seconds: 600), from: .button, words: "snoozed"))
        try store.log.respond(id, .dismissed, from: .button, words: "dismissed")
        #expect(try store.log.deliveries(.failed).first?.response == "dismissed")
    }
}
