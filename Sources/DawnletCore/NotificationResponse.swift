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
    case done, skip, snooze
    /// Log payment of a subscription's renewal or a debt's month.
    case logPayment(kind: ReminderKind, id: Int64, date: CivilDate)
    /// A bill paid.
    case paid(kind: ReminderKind, id: Int64, date: CivilDate)
    /// A key this program never offers (a server's "default", another program's).
    case unknown(String)

    /// `ReminderAction.key` read back: `done`, `skip`, `snooze`, `log:subscription:3:2026-12-02`,
    /// `paid:bill:1:2026-12-01`; anything else is `unknown`.
    public init(key: String) {
        switch key {
        case "done": self = .done
        case "skip": self = .skip
        case "snooze": self = .snooze
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
        case .snooze: "snooze"
        case .logPayment(let kind, let id, let date): "log:\(kind.rawValue):\(id):\(date)"
        case .paid(let kind, let id, let date): "paid:\(kind.rawValue):\(id):\(date)"
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
