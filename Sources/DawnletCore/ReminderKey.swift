/// A reminder's identity: deterministic, so every plan gives a reminder the same key
/// and the delivery log recognises it. Its text form is what the delivery log stores, commands
/// get as `{key}`, and `preview` shows; `ReminderKey(text)` reads it back.
public enum ReminderKey: Hashable, Sendable, CustomStringConvertible {
    /// `todo:3:2026-12-01:10m`: an occurrence of one of our items, reminded `offset` ahead.
    case item(ReminderKind, id: Int64, date: CivilDate, offset: ReminderOffset)
    /// `digest:2026-12-01`: a day's morning digest.
    case digest(CivilDate)
    /// `ics:NAME:UID:INSTANCE:OFFSET` or `ics:NAME:UID:INSTANCE:alarm:INSTANT`: an external
    /// calendar's item, in parts (`CalendarReference`, whose UID may hold any text).
    case calendar(CalendarReference)

    /// A digest's: it lists, it is not answered item by item, and it never comes back.
    public var isDigest: Bool {
        if case .digest = self { return true }
        return false
    }

    public init?(_ text: String) {
        if text.hasPrefix("ics:") {
            guard let reference = CalendarReference(text) else { return nil }
            self = .calendar(reference)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == "digest", let date = CivilDate(String(parts[1])) {
            self = .digest(date)
            return
        }
        guard parts.count == 4, let kind = ReminderKind(rawValue: String(parts[0])), kind != .calendar,
            let id = Int64(parts[1]), id > 0, let date = CivilDate(String(parts[2])),
            let offset = ReminderOffset(String(parts[3])), offset.description == parts[3]
        else { return nil }
        self = .item(kind, id: id, date: date, offset: offset)
    }

    /// The text form, written as bytes into one string (one per reminder planned).
    public var description: String {
        if case .calendar(let reference) = self { return reference.description }
        return String(ascii: ReminderKey.maximumPlainASCII) { writePlainASCII(to: $0) }
    }

    /// Whether the text form is ASCII with nothing JSON or a terminal would escape: true for our
    /// own items' and digests' keys, which `writePlainASCII` writes without building a string.
    public var isPlainASCII: Bool {
        if case .calendar = self { return false }
        return true
    }

    /// The longest text `writePlainASCII` writes: the longest kind, two numbers and a date.
    public static let maximumPlainASCII = 12 + 3 + maximumDigits + CivilDate.maximumASCII + ReminderOffset.maximumASCII

    /// Writes an item's or a digest's key at `p` and returns its length (0 for a calendar's,
    /// whose text is its own).
    public func writePlainASCII(to p: UnsafeMutablePointer<UInt8>) -> Int {
        var dates = CivilDate.TextCache()
        return writePlainASCII(to: p, dates: &dates)
    }

    /// The same, its date written through `dates`.
    public func writePlainASCII(to p: UnsafeMutablePointer<UInt8>, dates: inout CivilDate.TextCache) -> Int {
        switch self {
        case .calendar:
            return 0
        case .digest(let date):
            let prefix: StaticString = "digest:"
            p.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            return prefix.utf8CodeUnitCount + dates.write(date, to: p + prefix.utf8CodeUnitCount)
        case .item(let kind, let id, let date, let offset):
            let name = kind.literal
            p.update(from: name.utf8Start, count: name.utf8CodeUnitCount)
            var n = name.utf8CodeUnitCount
            p[n] = UInt8(ascii: ":")
            n += 1
            n += writeDigits(Int(id), 1, to: p + n)
            p[n] = UInt8(ascii: ":")
            n += 1
            n += dates.write(date, to: p + n)
            p[n] = UInt8(ascii: ":")
            return n + 1 + offset.writeASCII(to: p + n + 1)
        }
    }

    /// Whether this key's text orders before `other`'s, as the plan orders reminders of one
    /// instant: our own keys by their ASCII bytes, written on the stack; a calendar's as Strings.
    /// Two of our own items' keys are compared by their parts, as their texts would compare.
    public func precedes(_ other: ReminderKey) -> Bool {
        if case .item(let kind, let id, let date, let offset) = self, case .item(let otherKind, let otherID, let otherDate, let otherOffset) = other {
            if kind != otherKind { return ReminderKey.precedes(kind.literal, otherKind.literal) }
            if id != otherID, id >= 0, otherID >= 0 { return ReminderKey.digitsPrecede(id, otherID) }
            // Dates of four-digit years are ten characters each: their text is in date order.
            if date != otherDate, CivilDate.supportedYears.contains(date.year), CivilDate.supportedYears.contains(otherDate.year) {
                return date < otherDate
            }
            if id == otherID && date == otherDate && offset == otherOffset { return false }
        }
        guard isPlainASCII && other.isPlainASCII else { return description < other.description }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * ReminderKey.maximumPlainASCII) { buffer in
            let a = buffer.baseAddress!, b = a + ReminderKey.maximumPlainASCII
            let (m, n) = (writePlainASCII(to: a), other.writePlainASCII(to: b))
            return UnsafeBufferPointer(start: a, count: m).lexicographicallyPrecedes(UnsafeBufferPointer(start: b, count: n))
        }
    }

    /// Whether `a:` orders before `b:` (two kinds' names, each followed by the colon of a key).
    static func precedes(_ a: StaticString, _ b: StaticString) -> Bool {
        let (p, q, m, n) = (a.utf8Start, b.utf8Start, a.utf8CodeUnitCount, b.utf8CodeUnitCount)
        for i in 0..<min(m, n) where p[i] != q[i] { return p[i] < q[i] }
        // One is the other's start: the shorter goes on with its colon.
        return m < n ? UInt8(ascii: ":") < q[m] : m > n && p[n] < UInt8(ascii: ":")
    }

    /// Whether the decimal digits of `a`, then a colon, order before those of `b` (two keys'
    /// ids, not negative): by the digits both have; where one's are the other's start, the longer
    /// first (a digit orders before the colon).
    static func digitsPrecede(_ a: Int64, _ b: Int64) -> Bool {
        func digits(_ n: Int64) -> Int {
            var (count, rest) = (1, n / 10)
            while rest > 0 { (count, rest) = (count + 1, rest / 10) }
            return count
        }
        let (m, n) = (digits(a), digits(b))
        func leading(_ value: Int64, _ count: Int, of all: Int) -> Int64 {
            var value = value
            for _ in count..<all { value /= 10 }
            return value
        }
        let common = min(m, n)
        let (x, y) = (leading(a, common, of: m), leading(b, common, of: n))
        return x != y ? x < y : m > n
    }

    /// Appends the text form's bytes.
    public func write(to buffer: ByteBuffer) {
        if case .calendar(let reference) = self { return buffer.append(reference.description) }
        buffer.write(upTo: ReminderKey.maximumPlainASCII) { writePlainASCII(to: $0) }
    }

    /// `.calendar` for an external calendar's key (its kind, for the late policy); nil otherwise.
    public var calendarKind: ReminderKind? {
        if case .calendar = self { return .calendar }
        return nil
    }

    /// The item a key reminds of, for acting on it (Done, Skip): our own items only.
    public var item: (kind: ReminderKind, id: Int64, date: CivilDate)? {
        guard case .item(let kind, let id, let date, _) = self else { return nil }
        return (kind, id, date)
    }
}

/// What a delivery reminds of, as the delivery log's `kind` column keeps it and a command's
/// `{kind}` says: one of the reminder kinds (an external calendar's item is `calendar`), or a day's
/// digest. Told by its key, so it is never passed beside one.
public enum DeliveryKind: Hashable, Sendable, CustomStringConvertible {
    case reminder(ReminderKind)
    case digest

    public init?(rawValue: String) {
        if rawValue == "digest" {
            self = .digest
        } else if let kind = ReminderKind(rawValue: rawValue) {
            self = .reminder(kind)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .reminder(let kind): kind.rawValue
        case .digest: "digest"
        }
    }

    public var description: String { rawValue }

    /// The reminder kind (nil for a digest): what a late policy or a default offset is set for.
    public var reminderKind: ReminderKind? {
        if case .reminder(let kind) = self { return kind }
        return nil
    }
}

extension ReminderKey {
    /// What it reminds of, as the delivery log keeps it.
    public var deliveryKind: DeliveryKind {
        switch self {
        case .item(let kind, _, _, _): .reminder(kind)
        case .digest: .digest
        case .calendar: .reminder(.calendar)
        }
    }
}
