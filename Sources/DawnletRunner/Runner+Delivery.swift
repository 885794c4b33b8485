import DawnletCore
import DawnletStore
import DawnletSystem
import Foundation

/// Delivery (DESIGN §6): claim, hand to a channel, record. The desktop channel talks to the
/// notification server on the loop's thread (the server answers, and later reports actions, to
/// the connection that asked); command and email run on worker threads, so a hanging program or
/// mail server delays nothing else.
extension Runner {
    /// How many reminders late at once go out one by one; more become one summary per channel.
    static let summaryThreshold = 3

    /// Claims every channel of the due reminders, then hands them over: one delivery each, or,
    /// when more than three are late at once on a channel, one summary for those.
    func deliver(_ due: [PlannedReminder], now: Instant) {
        var claimed: [String: [PlannedReminder]] = [:]
        for reminder in due {
            let late = now.secondsSinceEpoch - reminder.fireAt.secondsSinceEpoch > settings.lateAfter
            for channel in reminder.channels {
                let id = "\(reminder.key)@\(channel)"
                guard inFlight.insert(id) else { continue }
                do {
                    if try store.claim(key: reminder.key, channel: channel, kind: reminder.kind, title: reminder.title,
                                       fireAt: reminder.fireAt, late: late, now: now) {
                        claimed[channel, default: []].append(reminder)
                        continue
                    }
                } catch {
                    log(LogEntry("cannot claim \(id): \(error)", priority: 3))
                }
                inFlight.remove(id)
            }
        }
        let grace = Int64(settings.config.graceWindow)
        for (channel, reminders) in claimed.sorted(by: { $0.key < $1.key }) {
            let late = reminders.filter { now.secondsSinceEpoch - $0.fireAt.secondsSinceEpoch > settings.lateAfter }
            let summarised = late.count > Runner.summaryThreshold ? late : []
            if !summarised.isEmpty {
                let lines = summarised.map { "\(ISO8601.format($0.fireAt, utcOffset: $0.utcOffset).prefix(16)) \($0.title)" }
                let message = ReminderMessage(title: "\(summarised.count) reminders you missed", body: lines.joined(separator: "\n"),
                                              kind: "summary", key: "summary:" + summarised.map(\.key).joined(separator: ","),
                                              when: ISO8601.format(now, in: settings.zone), late: true)
                dispatch(summarised, message, channel: channel, until: (summarised.map(\.fireAt).min() ?? now).adding(seconds: grace))
            }
            for reminder in reminders where !summarised.contains(where: { $0.key == reminder.key }) {
                let message = ReminderMessage(reminder, late: late.contains { $0.key == reminder.key })
                dispatch([reminder], message, channel: channel, until: reminder.fireAt.adding(seconds: grace))
            }
        }
    }

    private func dispatch(_ reminders: [PlannedReminder], _ message: ReminderMessage, channel: String, until deadline: Instant) {
        if channel == "desktop" {
            showDesktop(reminders, message, until: deadline)
        } else {
            work(reminders, message, channel: channel, through: channel, note: nil, until: deadline)
        }
    }

    // MARK: - Workers: command and email

    /// Runs one delivery on a worker thread: sends, retries a temporary failure with backoff
    /// (1, 2, 4, 8 s) while still inside the grace window, then records every reminder it carried.
    /// `through` is the channel that sends (the fallback, for a desktop reminder without a server).
    private func work(_ reminders: [PlannedReminder], _ message: ReminderMessage, channel: String, through: String, note: String?,
                      until deadline: Instant) {
        let settings = self.settings
        let log = self.log
        let inFlight = self.inFlight
        deliveries.enter()
        DispatchQueue.global().async { [deliveries] in
            var outcome = Runner.send(message, through: through, settings: settings)
            var attempt = 0
            while outcome.state == .failed && outcome.retry && attempt < 4 && Instant(Date()).adding(seconds: 1 << attempt) < deadline {
                sleep(1 << attempt)
                attempt += 1
                outcome = Runner.send(message, through: through, settings: settings)
            }
            var detail = [note, outcome.detail].compactMap { $0 }.joined(separator: ": ")
            if attempt > 0 { detail += (detail.isEmpty ? "" : "; ") + "after \(attempt + 1) attempts" }
            Runner.record(reminders, message, channel: channel, state: outcome.state, detail: detail.isEmpty ? nil : detail,
                          store: try? Store(path: settings.databasePath), log: log, inFlight: inFlight)
            deliveries.leave()
        }
    }

    public struct Outcome: Sendable {
        public let state: Delivery.State
        public let detail: String?
        /// A temporary failure: worth another attempt inside the grace window.
        public var retry = false
    }

    /// Hands one message to the command or email channel; says how it ended. One attempt.
    public static func send(_ message: ReminderMessage, through channel: String, settings: Settings) -> Outcome {
        let config = settings.config
        var environment = ProcessInfo.processInfo.environment
        environment["DAWNLET_REMINDER_KEY"] = message.key
        environment["DAWNLET_CHANNEL"] = channel
        switch channel {
        case "command":
            do {
                let result = try CommandRunner.run(CommandTemplate.expand(config.command.argv, message.templateValues),
                                                   environment: environment, timeout: config.command.timeout)
                if result.succeeded { return Outcome(state: .delivered, detail: nil) }
                let why = result.timedOut ? "timed out after \(config.command.timeout) s" : "exited \(result.status)"
                let stderr = result.stderr.split(separator: "\n").first.map { ": \($0)" } ?? ""
                return Outcome(state: .failed, detail: "\(why)\(stderr)", retry: true)
            } catch {
                return Outcome(state: .failed, detail: "\(error)", retry: true)
            }
        case "email":
            guard let email = config.email, let from = email.from else {
                return Outcome(state: .failed, detail: "channels.email is not set up")
            }
            let now = Instant(Date())
            let utcOffset = settings.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(now.secondsSinceEpoch)))
            do {
                try Mailer.send(MailMessage(message, from: from, to: email.to, date: now, utcOffset: utcOffset),
                                settings: email, environment: environment)
                return Outcome(state: .delivered, detail: nil)
            } catch {
                return Outcome(state: .failed, detail: error.message, retry: !error.permanent)
            }
        default:
            return Outcome(state: .failed, detail: "no channel \(channel)")
        }
    }

    /// Records how a delivery ended for every reminder it carried, frees them, and logs each.
    static func record(_ reminders: [PlannedReminder], _ message: ReminderMessage, channel: String, state: Delivery.State,
                       detail: String?, notificationID: UInt32? = nil, store: Store?, log: @Sendable (LogEntry) -> Void, inFlight: InFlight) {
        var detail = detail
        if reminders.count > 1 { detail = [detail, "in one summary of \(reminders.count)"].compactMap { $0 }.joined(separator: "; ") }
        do {
            guard let store else { throw StoreError(.cannotOpen, "cannot open the database") }
            for reminder in reminders {
                try store.finish(key: reminder.key, channel: channel, state: state, detail: detail, notificationID: notificationID,
                                 now: Instant(Date()))
            }
        } catch {
            log(LogEntry("cannot record \(message.key)@\(channel): \(error)", priority: 3))
        }
        for reminder in reminders {
            inFlight.remove("\(reminder.key)@\(channel)")
            log(LogEntry("\(state.rawValue) \(reminder.key)@\(channel)\(message.late ? " (late)" : "")\(detail.map { ": \($0)" } ?? "")",
                         priority: state == .delivered ? 6 : 4,
                         fields: Runner.fields(reminder.key, reminder.kind, channel, state.rawValue) + [("DAWNLET_LATE", message.late ? "1" : "0")]))
        }
    }

    // MARK: - Desktop

    /// Shows a notification: asks the server what it can do, then sends it, replacing the one
    /// this reminder was last shown with (a snooze's or a retry's repeat does not stack). Any
    /// failure takes the fallback channel.
    private func showDesktop(_ reminders: [PlannedReminder], _ message: ReminderMessage, until deadline: Instant) {
        let bus: NotificationBus
        do {
            bus = try desktopBus()
        } catch {
            return desktopFailed(reminders, message, until: deadline, error)
        }
        let replacing = reminders.count == 1 ? ((try? store.notificationID(key: message.key, channel: "desktop")) ?? nil) ?? 0 : 0
        bus.capabilities { [unowned self] result in
            let capabilities: Set<String>
            switch result {
            case .failure(let error): return self.desktopFailed(reminders, message, until: deadline, error)
            case .success(let answer): capabilities = answer
            }
            let desktop = self.settings.config.desktop
            let notification = DesktopNotification(message, capabilities: capabilities, expireSeconds: desktop.expire, snoozeSeconds: desktop.snooze)
            bus.notify(notification, replacing: replacing) { result in
                switch result {
                case .failure(let error):
                    self.desktopFailed(reminders, message, until: deadline, error)
                case .success(let id):
                    Runner.record(reminders, message, channel: "desktop", state: .delivered,
                                  detail: "notification \(id)" + (replacing != 0 ? ", replacing \(replacing)" : ""), notificationID: id,
                                  store: self.store, log: self.log, inFlight: self.inFlight)
                }
            }
        }
    }

    /// The session bus connection, opened (or re-opened after it broke) on first use, attached to
    /// the loop, listening for what the person does with our notifications.
    private func desktopBus() throws -> NotificationBus {
        if let bus = notifications, bus.isOpen { return bus }
        notifications = nil
        let bus = try NotificationBus()
        try bus.attach(to: loop)
        try bus.onSignals(action: { [unowned self] id, action in self.act(on: id, action) },
                          closed: { [unowned self] id, reason in self.closed(id, reason: reason) })
        notifications = bus
        return bus
    }

    /// No bus, no server, or an error reply: the fallback channel carries the reminder, and the
    /// reason is recorded with it. Without a fallback the reminder is recorded failed.
    private func desktopFailed(_ reminders: [PlannedReminder], _ message: ReminderMessage, until deadline: Instant, _ error: Error) {
        let reason = "desktop: \(error)"
        guard let fallback = settings.config.desktop.fallback else {
            Runner.record(reminders, message, channel: "desktop", state: .failed, detail: reason + "; no fallback configured",
                          store: store, log: log, inFlight: inFlight)
            return
        }
        log(LogEntry("\(reason); \(message.key) goes through the \(fallback) fallback", priority: 4,
                     fields: Runner.fields(message.key, message.kind, "desktop", "fallback")))
        work(reminders, message, channel: "desktop", through: fallback, note: "\(reason); sent through the \(fallback) fallback", until: deadline)
    }

    /// ActionInvoked: the same store write as the CLI's `done` / `skip` (`money skip` for a bill),
    /// or a snooze recorded on the delivery; then a new plan.
    private func act(on id: UInt32, _ action: String) {
        do {
            guard let row = try store.delivery(notificationID: id, channel: "desktop"), let target = ReminderTarget(key: row.key) else { return }
            let kind = ItemKind(rawValue: target.kind.rawValue)
            let response: String
            switch (action, target.kind) {
            case ("done", .todo), ("done", .habit):
                try store.setOccurrence(kind!, definitionID: target.definitionID, date: target.date, status: .done)
                response = "done"
            case ("skip", .bill):
                try store.skipTransaction(definitionID: target.definitionID, date: target.date)
                response = "skipped"
            case ("skip", .todo), ("skip", .habit), ("skip", .event):
                try store.setOccurrence(kind!, definitionID: target.definitionID, date: target.date, status: .skipped)
                response = "skipped"
            case ("snooze", _):
                let until = Instant(Date()).adding(seconds: Int64(settings.config.desktop.snooze))
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.snooze(key: row.key, channel: "desktop", until: until, response: response)
            default:
                return
            }
            try store.respond(key: row.key, channel: "desktop", response: response)
            notifications?.close(id)
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, "desktop", action)))
            replan(reason: "notification action")
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// NotificationClosed: how it ended, unless an action already said.
    private func closed(_ id: UInt32, reason: UInt32) {
        guard let row = try? store.delivery(notificationID: id, channel: "desktop"), row.response == nil else { return }
        let words = [1: "expired", 2: "dismissed", 3: "closed"][reason] ?? "closed"
        try? store.respond(key: row.key, channel: "desktop", response: words)
        log(LogEntry("\(words): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, "desktop", words)))
    }
}
