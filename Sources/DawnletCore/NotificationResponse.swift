/// What the person did with a desktop notification, as its server reported it: parsed once, where
/// the report arrives, and matched as a value from there on.
public enum NotificationResponse: Hashable, Sendable {
    /// An action button (ActionInvoked).
    case invoked(InvokedAction)
    /// Closed without one (NotificationClosed).
    case closed(CloseReason)
}

/// An action key a notification came back with: one of `ReminderAction`'s.
public enum InvokedAction: Hashable, Sendable, CustomStringConvertible {
    case done, skip
    /// A snooze preset, worked out at the press (nil: the config's first, from a notification
    /// of an older version's).
    case snooze(SnoozePreset?)
    /// A snooze to an instant worked out when the notification went out.
    case snoozeUntil(Instant)
    /// Log payment of a subscription's renewal or a debt's month.
    case logPayment(kind: ReminderKind, id: Int64, date: CivilDate)
    /// A bill paid.
    case paid(kind: ReminderKind, id: Int64, date: CivilDate)
    /// One member of a summary answered: `done`, `paid` or `log`, and its reminder.
    case member(String, ReminderKey)
    /// A key this program never offers (a server's "default", another program's).
    case unknown(String)

    /// `ReminderAction.key` read back: `done`, `skip`, `snooze:10m`, `snooze-until:1796115600`,
    /// `log:subscription:3:2026-12-02`, `paid:bill:1:2026-12-01`, `member:done:todo:3:2026-12-01:0m`;
    /// anything else is `unknown`.
    public init(key: String) {
        switch key {
        case "done": self = .done
        case "skip": self = .skip
        case "snooze": self = .snooze(nil)
        case _ where key.hasPrefix("snooze:"):
            guard let preset = SnoozePreset(String(key.dropFirst("snooze:".count))) else { self = .unknown(key); return }
            self = .snooze(preset)
        case _ where key.hasPrefix("member:"):
            let rest = key.dropFirst("member:".count)
            guard let colon = rest.firstIndex(of: ":"), ["done", "paid", "log"].contains(rest[..<colon]),
                let member = ReminderKey(String(rest[rest.index(after: colon)...]))
            else { self = .unknown(key); return }
            self = .member(String(rest[..<colon]), member)
        case _ where key.hasPrefix("snooze-until:"):
            guard let seconds = Int64(key.dropFirst("snooze-until:".count)), seconds > 0 else { self = .unknown(key); return }
            self = .snoozeUntil(Instant(secondsSinceEpoch: seconds))
        default:
            let parts = key.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "log" || parts[0] == "paid", let kind = ReminderKind(rawValue: String(parts[1])),
                let id = Int64(parts[2]), id > 0, let date = CivilDate(String(parts[3]))
            else {
                self = .unknown(key)
                return
            }
            self = parts[0] == "paid" ? .paid(kind: kind, id: id, date: date) : .logPayment(kind: kind, id: id, date: date)
        }
    }

    /// The key, as the server sent it.
    public var description: String {
        switch self {
        case .done: "done"
        case .skip: "skip"
        case .snooze(let preset): preset.map { "snooze:\($0)" } ?? "snooze"
        case .snoozeUntil(let until): "snooze-until:\(until.secondsSinceEpoch)"
        case .logPayment(let kind, let id, let date): "log:\(kind.rawValue):\(id):\(date)"
        case .paid(let kind, let id, let date): "paid:\(kind.rawValue):\(id):\(date)"
        case .member(let verb, let key): "member:\(verb):\(key)"
        case .unknown(let key): key
        }
    }
}

/// Why a notification closed (Desktop Notifications Specification 1.2, NotificationClosed).
public enum CloseReason: UInt32, Hashable, Sendable, CustomStringConvertible {
    case expired = 1, dismissed = 2, closed = 3, undefined = 4

    /// A code the specification does not name reads as `undefined`.
    public init(code: UInt32) { self = CloseReason(rawValue: code) ?? .undefined }

    /// The word recorded as the delivery's response.
    public var description: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closed, .undefined: "closed"
        }
    }
}
