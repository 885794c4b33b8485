import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

/// How one delivery ended.
public struct DeliveryOutcome: Sendable {
    public let state: Delivery.State
    public let detail: String?
    /// A temporary failure: worth another try inside the grace window.
    public var retry = false
    /// The desktop notification server's id for it.
    public var notificationID: UInt32?
    /// Not shown: the notification server is paused. The reminder is held, not settled, until
    /// it resumes.
    public var serverPaused = false
    /// Not shown: the server's Do Not Disturb is on (`serverPaused` too: held the same way).
    public var doNotDisturb = false

    public init(state: Delivery.State, detail: String?, retry: Bool = false, notificationID: UInt32? = nil) {
        self.state = state
        self.detail = detail
        self.retry = retry
        self.notificationID = notificationID
    }

    /// Held: the notification server is paused.
    public static var paused: DeliveryOutcome {
        var outcome = DeliveryOutcome(state: .failed, detail: "the notification server is paused", retry: true)
        outcome.serverPaused = true
        return outcome
    }
}

/// Where the runner's messages go: the real channels on the event loop, or a test's fakes.
public protocol DeliveryChannels: AnyObject {
    /// Starts one delivery, on the loop's thread; calls `done` exactly once, on the loop's thread.
    /// `replacing` is the desktop notification it was last shown with (a repeat replaces it).
    func deliver(_ message: ReminderMessage, through channel: Channel, replacing: UInt32?, done: @escaping (DeliveryOutcome) -> Void)
}

/// The real channels, every one on the runner's event loop: no thread, and nothing
/// left armed once a delivery has ended. Desktop notifications go over sd-bus (the server answers,
/// and later reports actions, to the connection that asked); a command is a child watched through
/// its pidfd, and so is each mail: a sendmail child, or the program's own `mail-send` child for
/// SMTP (libcurl and TLS never enter the runner). A hanging program or server delays nothing
/// else; each has its timeout.
public final class LoopChannels: DeliveryChannels {
    let loop: EventLoop
    /// The runner's clock (a mail's Date header).
    let clock: () -> Instant
    let settings: () -> Runner.Settings
    let log: (LogEntry) -> Void
    /// What the person did with a notification: an action, or how it closed.
    var onResponse: (UInt32, NotificationResponse) -> Void = { _, _ in }
    /// The notification server paused or resumed (learned from its signals).
    var onPaused: (Bool) -> Void = { _ in }
    /// Whether the server is paused, once asked (per connection), then kept by its signals.
    private var paused: Bool?
    /// How many action buttons the server shows: dunst lists them all in its menu; others
    /// (GNOME's, KDE's) show three or so, and cut the rest off.
    private var mostActions: Int?
    /// The session bus connection, opened at the first desktop reminder.
    var notifications: NotificationBus?
    /// What the notification server said it can do, asked once per connection (many reminders
    /// at once would otherwise ask it as many times, and a slow server answers late).
    private var capabilities: Set<String>?
    /// The server's Do Not Disturb (`LoopChannels+DoNotDisturb.swift`): the runner is told of each
    /// change; how the server keeps it (learned per connection and server), whether it is on, and
    /// the signals already matched on this connection.
    var onDoNotDisturb: (Bool) -> Void = { _ in }
    var doNotDisturbSource: DoNotDisturb.Source?
    var doNotDisturbOn = false
    var doNotDisturbMatched: Set<DoNotDisturb.Source> = []

    public init(loop: EventLoop, clock: @escaping () -> Instant, settings: @escaping () -> Runner.Settings, log: @escaping (LogEntry) -> Void) {
        self.loop = loop
        self.clock = clock
        self.settings = settings
        self.log = log
    }

    /// One delivery on a loop of its own, waited for (`notify-test`): the runner's code path.
    public static func deliverOnce(_ message: ReminderMessage, through channel: Channel, settings: Runner.Settings) throws -> DeliveryOutcome {
        let loop = try EventLoop()
        var outcome: DeliveryOutcome?
        let channels = LoopChannels(loop: loop, clock: { Instant(Date()) }, settings: { settings }, log: { _ in })
        channels.deliver(message, through: channel, replacing: nil) {
            outcome = $0
            loop.exit(0)
        }
        // The channels must outlive the loop's run.
        if outcome == nil { _ = try withExtendedLifetime(channels) { try loop.run() } }
        return outcome ?? DeliveryOutcome(state: .failed, detail: "the delivery did not end")
    }

    public func deliver(_ message: ReminderMessage, through channel: Channel, replacing: UInt32?, done: @escaping (DeliveryOutcome) -> Void) {
        switch channel {
        case .desktop: showDesktop(message, replacing: replacing ?? 0, done: done)
        case .command: runCommand(message, done: done)
        case .email: sendMail(message, done: done)
        }
    }

    /// Our environment, read once (the runner never changes its own): not rebuilt on the fire path.
    /// Failures a test asked of this process are its own, not its children's.
    private let baseEnvironment = ProcessInfo.processInfo.environment.filter { $0.key != "DAWNLET_FAIL" }

    /// The environment a command or sendmail child gets: ours, and which reminder it carries.
    private func environment(_ message: ReminderMessage, _ channel: Channel) -> [String: String] {
        var environment = baseEnvironment
        environment["DAWNLET_REMINDER_KEY"] = message.key.description
        environment["DAWNLET_CHANNEL"] = channel.rawValue
        return environment
    }

    private func runCommand(_ message: ReminderMessage, done: @escaping (DeliveryOutcome) -> Void) {
        let command = settings().config.command
        do {
            try CommandRunner.start(
                CommandTemplate.expand(command.argv, message.templateValues), environment: environment(message, .command),
                timeout: command.timeout, on: loop
            ) { result in
                if result.succeeded { return done(DeliveryOutcome(state: .delivered, detail: nil)) }
                let why = result.timedOut ? "timed out after \(DurationText.format(command.timeout))" : "exited \(result.status)"
                let stderr = result.firstStderrLine.map { ": \($0)" } ?? ""
                done(DeliveryOutcome(state: .failed, detail: "\(why)\(stderr)", retry: true))
            }
        } catch {
            done(DeliveryOutcome(state: .failed, detail: "\(error)", retry: true))
        }
    }

    private func sendMail(_ message: ReminderMessage, done: @escaping (DeliveryOutcome) -> Void) {
        let settings = settings()
        func failed(_ error: MailError) { done(DeliveryOutcome(state: .failed, detail: error.message, retry: !error.permanent)) }
        guard let email = settings.config.email, let from = email.from else {
            return done(DeliveryOutcome(state: .failed, detail: "channels.email is not set up"))
        }
        let now = clock()
        let utcOffset = settings.zone.utcOffset(at: now)
        let answers = message.answerText(program: settings.commandLine, snooze: settings.config.desktop.snooze, zone: settings.zone)
        let text = Array(MailMessage(message, from: from, to: email.to, date: now, utcOffset: utcOffset, answers: answers).rendered.utf8)
        Mailer.send(text, settings: email, environment: environment(message, .email), on: loop) { error in
            if let error { return failed(error) }
            done(DeliveryOutcome(state: .delivered, detail: nil))
        }
    }

    // MARK: - Desktop

    /// Shows a notification: asks the server what it can do, then sends it, replacing `replacing`.
    /// Any failure takes the fallback channel, and the reason goes with the outcome.
    private func showDesktop(_ message: ReminderMessage, replacing: UInt32, done: @escaping (DeliveryOutcome) -> Void) {
        let bus: NotificationBus
        do {
            bus = try desktopBus()
        } catch {
            return desktopFailed(message, error, done: done)
        }
        withCapabilities(of: bus) { [self] result in
            let capabilities: Set<String>
            switch result {
            case .failure(let error): return desktopFailed(message, error, done: done)
            case .success(let answer): capabilities = answer
            }
            let desktop = settings().config.desktop
            if paused == true {
                // Paused: held until it resumes, or through the fallback if the config says so.
                guard desktop.whilePaused == .fallback else { return done(.paused) }
                return desktopFailed(message, ServerPaused(), done: done)
            }
            let notification = DesktopNotification(
                message, capabilities: capabilities, expire: desktop.expire, snooze: desktop.snooze, mostActions: mostActions)
            unlessDoNotDisturb(message, bus, done: done) { [self] in
                bus.notify(notification, replacing: replacing) { [self] result in
                    switch result {
                    case .failure(let error):
                        // Ask again next time: the server may have been replaced.
                        self.capabilities = nil
                        desktopFailed(message, error, done: done)
                    case .success(let id):
                        done(
                            DeliveryOutcome(
                                state: .delivered, detail: "notification \(id)" + (replacing != 0 ? ", replacing \(replacing)" : ""),
                                notificationID: id))
                    }
                }
            }
        }
    }

    /// The server's capabilities, and whether it is paused: remembered, or asked (once, however
    /// many wait for the answer).
    private var waitingForCapabilities: [(Result<Set<String>, SystemError>) -> Void] = []
    private func withCapabilities(of bus: NotificationBus, _ then: @escaping (Result<Set<String>, SystemError>) -> Void) {
        if let capabilities, paused != nil { return then(.success(capabilities)) }
        waitingForCapabilities.append(then)
        guard waitingForCapabilities.count == 1 else { return }
        bus.capabilities { [self] result in
            func answer() {
                let waiting = waitingForCapabilities
                waitingForCapabilities = []
                for next in waiting { next(result) }
            }
            guard case .success(let answered) = result else { return answer() }
            capabilities = answered
            guard paused == nil else { return answer() }
            // Who it is says how many actions it shows (a server that does not say: few) and how
            // its Do Not Disturb is learned.
            bus.serverInformation { [self] information in
                let name = (try? information.get())?.first
                let profile = (try? information.get()).map(ServerProfile.init(information:)) ?? .unknown
                bus.paused { [self] now, _ in
                    mostActions = profile.shownActions
                    setPaused(now)
                    learnDoNotDisturb(bus, serverName: name, then: answer)
                }
            }
        }
    }

    /// The server's pause, as it asked or signalled: the runner is told of each change.
    private func setPaused(_ now: Bool) {
        guard paused != now else { return }
        let was = paused
        paused = now
        if now || was == true { onPaused(now) }
    }

    /// The session bus connection, opened (or re-opened after it broke) on first use, attached to
    /// the loop, listening for what the person does with our notifications.
    private func desktopBus() throws -> NotificationBus {
        if let bus = notifications, bus.isOpen { return bus }
        notifications = nil
        capabilities = nil
        paused = nil
        forgetDoNotDisturb(connection: true)
        let bus = try NotificationBus()
        try bus.attach(to: loop)
        try bus.onResponses { [unowned self] id, response in self.onResponse(id, response) }
        try bus.onPausedChanges { [unowned self] now in self.setPaused(now) }
        try bus.onServerChanged { [unowned self] in
            // A new server (a restart): asked afresh; what the old one held goes out.
            capabilities = nil
            setPaused(false)
            paused = nil
            forgetDoNotDisturb(connection: false)
        }
        notifications = bus
        return bus
    }

    private struct ServerPaused: Error, CustomStringConvertible {
        var description: String { "the notification server is paused" }
    }

    /// No bus, no server, or an error reply: the fallback channel carries the reminder, and the
    /// reason is recorded with it. Without a fallback the reminder is failed.
    func desktopFailed(_ message: ReminderMessage, _ error: Error, done: @escaping (DeliveryOutcome) -> Void) {
        let reason = "desktop: \(error)"
        guard let fallback = settings().config.desktop.fallback else {
            // A connection that broke or a server that did not answer in time may well take the
            // next try; no bus or no server at all will not.
            return done(DeliveryOutcome(state: .failed, detail: reason + "; no fallback configured", retry: (error as? SystemError)?.isTransient == true))
        }
        log(
            LogEntry(
                "\(reason); \(message.key) goes through the \(fallback) fallback", priority: 4,
                fields: RunnerCore.fields(message.key, message.kind, .desktop, "fallback")))
        deliver(message, through: fallback, replacing: nil) { outcome in
            let detail = ["\(reason); sent through the \(fallback) fallback", outcome.detail].compactMap { $0 }.joined(separator: ": ")
            done(DeliveryOutcome(state: outcome.state, detail: detail, retry: outcome.retry))
        }
    }
}
