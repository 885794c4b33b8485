/// A reminder's identity (DESIGN §5): deterministic, so every plan gives a reminder the same key
/// and the delivery log recognises it. Its text form is what the delivery log stores, commands
/// get as `{key}`, and `preview` shows; `ReminderKey(text)` reads it back.
public enum ReminderKey: Hashable, Sendable, CustomStringConvertible {
    /// `todo:3:2026-12-01:10m`: an occurrence of one of our items, reminded `offset` ahead.
    case item(ReminderKind, id: Int64, date: CivilDate, offset: ReminderOffset)
    /// `digest:2026-12-01`: a day's morning digest.
    case digest(CivilDate)
    /// `ics:NAME:UID:INSTANCE:OFFSET` or `ics:NAME:UID:INSTANCE:alarm:INSTANT`: an external
    /// calendar's item (DESIGN §8), whose parts (a UID) may hold any text; kept whole.
    case calendar(String)

    public init?(_ text: String) {
        if text.hasPrefix("ics:") {
            self = .calendar(text)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == "digest", let date = CivilDate(String(parts[1])) {
            self = .digest(date)
            return
        }
        guard parts.count == 4, let kind = ReminderKind(rawValue: String(parts[0])), kind != .calendar,
              let id = Int64(parts[1]), id > 0, let date = CivilDate(String(parts[2])),
              let offset = ReminderOffset(String(parts[3])), offset.description == parts[3] else { return nil }
        self = .item(kind, id: id, date: date, offset: offset)
    }

    /// The text form, written as bytes into one string (one per reminder planned).
    public var description: String {
        if case .calendar(let text) = self { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40)
        appendASCII(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the text form is ASCII with nothing JSON or a terminal would escape: true for our
    /// own items' and digests' keys, which `appendASCII` writes without building a string.
    public var isPlainASCII: Bool {
        if case .calendar = self { return false }
        return true
    }

    /// Appends the text form's bytes.
    public func appendASCII(to bytes: inout [UInt8]) {
        switch self {
        case .calendar(let text):
            bytes.append(contentsOf: text.utf8)
        case .digest(let date):
            bytes.append(contentsOf: "digest:".utf8)
            date.appendASCII(to: &bytes)
        case .item(let kind, let id, let date, let offset):
            bytes.append(contentsOf: kind.rawValue.utf8)
            bytes.append(UInt8(ascii: ":"))
            appendDigits(Int(id), 1, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            date.appendASCII(to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            let (count, unit): (Int, UInt8) = switch offset {
            case .minutes(let n): (n, UInt8(ascii: "m"))
            case .hours(let n): (n, UInt8(ascii: "h"))
            case .days(let n): (n, UInt8(ascii: "d"))
            case .weeks(let n): (n, UInt8(ascii: "w"))
            }
            appendDigits(count, 1, to: &bytes)
            bytes.append(unit)
        }
    }

    /// The item a key reminds of, for acting on it (Done, Skip): our own items only.
    public var item: (kind: ReminderKind, id: Int64, date: CivilDate)? {
        guard case .item(let kind, let id, let date, _) = self else { return nil }
        return (kind, id, date)
    }
}
