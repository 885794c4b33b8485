import DawnletCore
import DawnletSystem

/// The desktop server's Do Not Disturb on the runner's loop: learned once per server the way it
/// keeps it (`DoNotDisturb.Source`), then followed by its signal; mako's asked when a reminder is
/// due, as it has no signal. While it is on, a reminder is held (or goes by the fallback, as for a
/// paused server) unless the config lets a critical one through.
extension LoopChannels {
    /// How the server named `serverName` (GetServerInformation's first field; nil: it did not
    /// say) keeps Do Not Disturb, followed from now on, and whether it is on now; then `then`.
    func learnDoNotDisturb(_ bus: NotificationBus, serverName: String?, then: @escaping () -> Void) {
        guard doNotDisturbSource == nil else { return then() }
        let source = serverName.map(DoNotDisturb.Source.of(serverName:)) ?? .inhibited
        doNotDisturbSource = source
        if !doNotDisturbMatched.contains(source) {
            do {
                try bus.onDoNotDisturbChanges(source) { [unowned self] on in
                    guard doNotDisturbSource == source else { return }
                    setDoNotDisturb(on)
                }
                doNotDisturbMatched.insert(source)
            } catch {
                log(LogEntry("cannot follow the notification server's Do Not Disturb: \(error)", priority: 4))
            }
        }
        // mako's is asked as each reminder goes out.
        guard !source.askedWhenDue else { return then() }
        bus.doNotDisturb(source) { [self] on in
            setDoNotDisturb(on)
            then()
        }
    }

    /// Shows the reminder (`show`) unless Do Not Disturb holds it: then it is held, or goes by the
    /// fallback if the config says so. mako's is asked first.
    func unlessDoNotDisturb(_ message: ReminderMessage, _ bus: NotificationBus, done: @escaping (DeliveryOutcome) -> Void, show: @escaping () -> Void) {
        func decide() {
            let desktop = settings().config.desktop
            guard doNotDisturbOn, !DoNotDisturb.passes(message.urgency, criticalPasses: desktop.criticalPassesDoNotDisturb) else { return show() }
            guard desktop.whilePaused == .fallback else { return done(.heldForDoNotDisturb) }
            desktopFailed(message, DoNotDisturbOn(), done: done)
        }
        guard doNotDisturbSource?.askedWhenDue == true else { return decide() }
        bus.doNotDisturb(.makoModes) { [self] on in
            setDoNotDisturb(on)
            decide()
        }
    }

    /// A reminder is due (the runner's wake timer), or the database was written (a command such as
    /// `todo add`): where Do Not Disturb can only be asked (mako), and it was on, it is asked again;
    /// its end lets what it held go out. Never on a timer of its own.
    public func askDoNotDisturbAgain() {
        guard doNotDisturbOn, doNotDisturbSource?.askedWhenDue == true, let bus = notifications, bus.isOpen else { return }
        bus.doNotDisturb(.makoModes) { [self] on in setDoNotDisturb(on) }
    }

    /// Do Not Disturb as the server said it: the runner is told of each change.
    func setDoNotDisturb(_ on: Bool) {
        guard doNotDisturbOn != on else { return }
        doNotDisturbOn = on
        onDoNotDisturb(on)
    }

    /// A new connection or a new server: its Do Not Disturb is learned afresh, and what the old
    /// one held goes out. A new connection has no signal matched yet.
    func forgetDoNotDisturb(connection: Bool) {
        setDoNotDisturb(false)
        doNotDisturbSource = nil
        if connection { doNotDisturbMatched = [] }
    }

    struct DoNotDisturbOn: Error, CustomStringConvertible {
        var description: String { "the notification server's Do Not Disturb is on" }
    }
}

extension DeliveryOutcome {
    /// Held: the server's Do Not Disturb is on.
    public static var heldForDoNotDisturb: DeliveryOutcome {
        var outcome = DeliveryOutcome(state: .failed, detail: "Do Not Disturb is on", retry: true)
        outcome.serverPaused = true
        outcome.doNotDisturb = true
        return outcome
    }
}
