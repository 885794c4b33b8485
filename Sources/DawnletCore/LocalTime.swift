import FoundationEssentials

/// A wall-clock time of day, to the minute (`HH:MM`).
public struct WallTime: Hashable, Comparable, Sendable {
    /// Minutes since midnight, in two bytes: a plan holds one per definition and per occurrence.
    @usableFromInline let minutes: UInt16

    @inlinable public var hour: Int { Int(minutes) / 60 }
    @inlinable public var minute: Int { Int(minutes) % 60 }

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minutes = UInt16(hour * 60 + minute)
    }

    /// 00:00, the start of a day.
    public static let midnight = WallTime(checkedHour: 0, minute: 0)

    /// For constants in our own code: a bad value is a programmer error.
    init(checkedHour hour: Int, minute: Int) {
        precondition((0...23).contains(hour) && (0...59).contains(minute), "\(hour):\(minute)")
        minutes = UInt16(hour * 60 + minute)
    }

    @inlinable public var secondsOfDay: Int { Int(minutes) * 60 }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.minutes < rhs.minutes }
}

extension WallTime: CustomStringConvertible, LosslessStringConvertible {
    /// `HH:MM`, zero-padded.
    public var description: String { pad(hour, 2) + ":" + pad(minute, 2) }

    /// Accepts `H:MM` and `HH:MM` (24-hour clock).
    public init?(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        guard
            let parsed = text.utf8.withContiguousStorageIfAvailable({ bytes -> (Int, Int)? in
                let colon = bytes.count - 3
                guard (1...2).contains(colon), bytes[colon] == UInt8(ascii: ":"),
                    let h = digits(bytes, 0..<colon), let m = digits(bytes, (colon + 1)..<bytes.count)
                else { return nil }
                return (h, m)
            }) ?? nil
        else { return nil }
        self.init(hour: parsed.0, minute: parsed.1)
    }
}

/// A point in time: whole seconds since 1970-01-01T00:00:00Z. Reminders are planned to the second;
/// an integer keeps keys, comparisons and snapshots exact.
public struct Instant: Hashable, Comparable, Sendable {
    public let secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// Truncates toward the past to a whole second.
    public init(_ date: Date) {
        self.secondsSinceEpoch = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    public func adding(seconds: Int64) -> Instant { Instant(secondsSinceEpoch: secondsSinceEpoch + seconds) }
}

/// How a wall-clock time on a date became an instant in a zone.
public enum LocalTimeResolution: Hashable, Sendable {
    /// The time exists once on that date.
    case exact
    /// The time fell in a spring-forward gap and was moved forward by `seconds` (3600 for a one-hour
    /// gap, 1800 on Lord Howe Island).
    case skippedByGap(seconds: Int)
    /// The time happened twice (fall back); the first of the two was taken.
    case repeatedTakeFirst
}

public struct ZonedInstant: Hashable, Sendable {
    public let instant: Instant
    /// The zone's offset from UTC at `instant`, in seconds east of Greenwich.
    public let utcOffset: Int
    public let resolution: LocalTimeResolution
}

/// A zone as plans, formats and parses see it: its name and the rules read from the system's tzdata
/// (`ZoneRules`). Equal when both name and rules are: a zone file changed on disk is another zone.
public struct Zone: Hashable, Sendable, ZoneOffsets {
    /// The IANA name (`Europe/Berlin`), `UTC`, or, for a system zone nothing names, the file it came from.
    public let identifier: String
    public let rules: ZoneRules

    public init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        self.rules = rules
    }

    /// Coordinated Universal Time: needs no file.
    public static let utc = Zone(identifier: "UTC", rules: ZoneRules(fixedOffset: 0))

    public func utcOffset(at instant: Instant) -> Int { rules.utcOffset(at: instant) }
}

/// Remembers, per civil date, whether a zone keeps one offset all around that day, so that turning
/// many wall times into instants asks the zone rules once per day instead of several times per
/// time. Days near a transition fall back to `Zone.resolve`. One per thread: a plan's.
public final class ZoneDayCache {
    public let zone: Zone
    /// The last days asked about, each in the slot of its number modulo `slotCount` (a plan's
    /// dates are a run of days): a day, and its offset or `changes`. Not an array, whose every
    /// change a class would check for exclusive access at run time.
    private let slots: UnsafeMutablePointer<(day: Int, offset: Int)>
    private static let slotCount = 512
    private static let changes = Int.min

    public init(zone: Zone) {
        self.zone = zone
        slots = .allocate(capacity: ZoneDayCache.slotCount)
        slots.initialize(repeating: (Int.min, 0), count: ZoneDayCache.slotCount)
    }

    deinit { slots.deallocate() }

    /// The offset in force through UTC day `day` and a day either side of it, or nil if it changes.
    private func steadyOffset(_ day: Int) -> Int? {
        let slot = slots + (day & (ZoneDayCache.slotCount - 1))
        if slot.pointee.day == day { return slot.pointee.offset == ZoneDayCache.changes ? nil : slot.pointee.offset }
        // The same offset a day before the day starts, at its middle, and a day after it ends: zones
        // do not change and change back within three days.
        let start = Int64(day) * 86_400
        let before = zone.utcOffset(at: Instant(secondsSinceEpoch: start - 86_400))
        let after = zone.utcOffset(at: Instant(secondsSinceEpoch: start + 2 * 86_400))
        let middle = zone.utcOffset(at: Instant(secondsSinceEpoch: start + 43_200))
        let offset: Int? = before == after && middle == before ? before : nil
        slot.pointee = (day, offset ?? ZoneDayCache.changes)
        return offset
    }

    public func utcOffset(at instant: Instant) -> Int {
        let t = instant.secondsSinceEpoch
        let day = Int(t >= 0 ? t / 86_400 : (t - 86_399) / 86_400)
        return steadyOffset(day) ?? zone.utcOffset(at: instant)
    }

    public func resolve(_ time: WallTime, on date: CivilDate) -> ZonedInstant {
        // Local day N spans UTC instants within a day of UTC day N, which `steadyOffset` covers.
        guard let offset = steadyOffset(date.dayNumber) else { return zone.resolve(time, on: date) }
        let local = Int64(date.dayNumber) * 86_400 + Int64(time.secondsOfDay)
        return ZonedInstant(instant: Instant(secondsSinceEpoch: local - Int64(offset)), utcOffset: offset, resolution: .exact)
    }
}

/// ISO 8601 text with the zone's offset, built from integers (Foundation's formatters depend on the
/// locale, which is `en_001` here whatever LANG says).
public enum ISO8601 {
    /// `2026-03-29T03:30:00+02:00`.
    public static func format(_ instant: Instant, utcOffset: Int) -> String {
        String(ascii: maximumASCII) { writeASCII(instant, utcOffset: utcOffset, to: $0) }
    }

    /// The longest text `writeASCII` writes (25 for the supported years).
    public static let maximumASCII = CivilDate.maximumASCII + 15

    /// Writes the ISO 8601 text at `p` and returns its length: preview writes one per reminder.
    @inlinable
    public static func writeASCII(_ instant: Instant, utcOffset: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var dates = CivilDate.TextCache()
        return writeASCII(instant, utcOffset: utcOffset, to: p, dates: &dates)
    }

    /// The same, its date written through `dates`.
    @inlinable @inline(__always)
    public static func writeASCII(_ instant: Instant, utcOffset: Int, to p: UnsafeMutablePointer<UInt8>, dates: inout CivilDate.TextCache) -> Int {
        let (date, seconds) = split(local: instant.secondsSinceEpoch + Int64(utcOffset))
        let off = abs(utcOffset)
        let b = p + dates.write(date, to: p)
        @inline(__always) func two(_ value: Int, at i: Int) {
            b[i] = 48 + UInt8(value / 10 % 10)
            b[i + 1] = 48 + UInt8(value % 10)
        }
        b[0] = UInt8(ascii: "T")
        two(seconds / 3600, at: 1)
        b[3] = UInt8(ascii: ":")
        two(seconds / 60 % 60, at: 4)
        b[6] = UInt8(ascii: ":")
        two(seconds % 60, at: 7)
        b[9] = utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        two(off / 3600, at: 10)
        b[12] = UInt8(ascii: ":")
        two(off / 60 % 60, at: 13)
        return b + 15 - p
    }

    public static func format(_ instant: Instant, in zone: Zone) -> String {
        format(instant, utcOffset: zone.utcOffset(at: instant))
    }

    /// Parses `YYYY-MM-DD` (local midnight), `YYYY-MM-DDTHH:MM[:SS]` (local wall time, resolved as
    /// schedules are) and either with `Z` or `±HH:MM` (that exact offset). Nil for anything else.
    public static func parse(_ text: String, zone: Zone) -> Instant? {
        guard let date = CivilDate(String(text.prefix(10))) else { return nil }
        var rest = text.dropFirst(10)
        if rest.isEmpty { return zone.resolve(.midnight, on: date).instant }
        guard rest.first == "T" else { return nil }
        rest = rest.dropFirst()
        var offset: Int?
        if rest.hasSuffix("Z") {
            offset = 0
            rest = rest.dropLast()
        } else if rest.count > 6, let sign = rest.dropLast(5).last, sign == "+" || sign == "-" {
            let zoneText = rest.suffix(5)
            guard zoneText.dropFirst(2).first == ":", let h = parseDigits(zoneText.prefix(2)), let m = parseDigits(zoneText.suffix(2)),
                h <= 14, m < 60
            else { return nil }
            offset = (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
            rest = rest.dropLast(6)
        }
        var seconds = 0
        if rest.count == 8 {
            guard rest.dropFirst(5).first == ":", let s = parseDigits(rest.suffix(2)), s < 60 else { return nil }
            seconds = s
            rest = rest.prefix(5)
        }
        guard rest.count == 5, let wall = WallTime(String(rest)) else { return nil }
        guard let offset else {
            return zone.resolve(wall, on: date).instant.adding(seconds: Int64(seconds))
        }
        let local = Int64(date.dayNumber) * 86_400 + Int64(wall.secondsOfDay + seconds)
        return Instant(secondsSinceEpoch: local - Int64(offset))
    }

    /// The civil date and seconds into that day an instant shows in a zone.
    public static func localDate(of instant: Instant, in zone: Zone) -> (date: CivilDate, secondsOfDay: Int) {
        split(local: instant.secondsSinceEpoch + Int64(zone.utcOffset(at: instant)))
    }

    /// Local seconds since 1970-01-01T00:00 → (date, seconds into it), flooring for times before 1970.
    /// (An instant's seconds give its UTC date.)
    @inlinable
    public static func split(local: Int64) -> (date: CivilDate, secondsOfDay: Int) {
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (CivilDate(dayNumber: Int(days)), Int(local - days * 86_400))
    }
}
