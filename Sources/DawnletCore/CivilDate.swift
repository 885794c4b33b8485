/// A day on the proleptic Gregorian calendar, held as the number of days since 1970-01-01.
///
/// Civil dates carry no zone: "2026-03-29" is the same day everywhere. All date arithmetic in the
/// schedule engine is integer arithmetic on `dayNumber`; `Calendar` is never used in the hot path
/// (it is slow and has traps: `date(from:)` for Feb 31 gives Mar 3, and `nextDate` with a weekday
/// ordinal of -1 gives nil).
public struct CivilDate: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it), in four bytes: the dates of 1...9999 need
    /// about 3.7 million either side, and a plan holds some per definition and per occurrence.
    @usableFromInline let number: Int32

    /// Days since 1970-01-01 (negative before it).
    @inlinable public var dayNumber: Int { Int(number) }

    /// The years a date may have. Text outside it is rejected when parsed.
    public static let supportedYears: ClosedRange<Int> = 1...9999

    /// A number far outside the supported years (an instant of `.min`) is held at the nearest
    /// one four bytes can say: such a date is never written, only compared.
    public init(dayNumber: Int) {
        number = Int32(clamping: dayNumber)
    }

    /// Returns nil when the day does not exist in that month (2026-02-30) or the year is unsupported.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.supportedYears.contains(year), (1...12).contains(month),
            day >= 1, day <= CivilDate.daysInMonth(year: year, month: month)
        else { return nil }
        number = Int32(CivilDate.days(year: year, month: month, day: day))
    }

    /// Day 1 of that month, or the last day when `day` exceeds it (day 31 in April is April 30).
    /// This is the clamping policy of monthly-by-date schedules and debt due days.
    public static func clamped(year: Int, month: Int, day: Int) -> CivilDate {
        precondition((1...12).contains(month) && day >= 1, "month \(month) day \(day)")
        let last = daysInMonth(year: year, month: month)
        return CivilDate(dayNumber: days(year: year, month: month, day: min(day, last)))
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public func adding(days n: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + n) }

    /// The ISO weekday (Monday first). 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        Weekday(rawValue: isoWeekday(dayNumber)) ?? .monday  // isoWeekday is always 1...7
    }

    @inlinable
    public var components: (year: Int, month: Int, day: Int) {
        CivilDate.civil(fromDays: dayNumber)
    }
    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// Months since year 0 (year * 12 + month - 1): the unit monthly intervals count in.
    public var monthIndex: Int {
        let c = components
        return c.year * 12 + c.month - 1
    }

    /// The Monday that starts this date's week (RFC 5545 WKST=MO).
    public var mondayOfWeek: CivilDate { adding(days: -(weekday.isoNumber - 1)) }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a valid civil date (Howard Hinnant's days_from_civil).
    @inline(__always)
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `days(year:month:day:)` (Howard Hinnant's civil_from_days).
    @inline(__always)
    @inlinable
    static func civil(fromDays n: Int) -> (year: Int, month: Int, day: Int) {
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The first day of the month with the given month index (see `monthIndex`).
    static func firstOfMonth(index: Int) -> (year: Int, month: Int) {
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        return (year, index - year * 12 + 1)
    }
}

extension CivilDate: CustomStringConvertible, LosslessStringConvertible {
    /// `YYYY-MM-DD`.
    public var description: String { String(ascii: CivilDate.maximumASCII) { writeASCII(to: $0) } }

    /// The longest text `writeASCII` writes: a date far outside `supportedYears` (a sign, 20 digits, `-MM-DD`).
    public static let maximumASCII = 27

    /// Writes `YYYY-MM-DD` at `p` and returns its length (10 for the supported years; at most
    /// `maximumASCII`): dates are written by the hundred thousand in JSON and keys.
    @inlinable
    public func writeASCII(to p: UnsafeMutablePointer<UInt8>) -> Int {
        let c = components
        guard (0...9999).contains(c.year) else {
            var n = writeDigits(c.year, 4, to: p)
            p[n] = UInt8(ascii: "-")
            n += 1 + writeDigits(c.month, 2, to: p + n + 1)
            p[n] = UInt8(ascii: "-")
            return n + 1 + writeDigits(c.day, 2, to: p + n + 1)
        }
        p[0] = 48 + UInt8(c.year / 1000)
        p[1] = 48 + UInt8(c.year / 100 % 10)
        p[2] = 48 + UInt8(c.year / 10 % 10)
        p[3] = 48 + UInt8(c.year % 10)
        p[4] = UInt8(ascii: "-")
        p[5] = 48 + UInt8(c.month / 10)
        p[6] = 48 + UInt8(c.month % 10)
        p[7] = UInt8(ascii: "-")
        p[8] = 48 + UInt8(c.day / 10)
        p[9] = 48 + UInt8(c.day % 10)
        return 10
    }

    /// The last date written and its text, for a writer of many dates that mostly repeat (a
    /// plan's reminders, in fire order, fall on a few days at a time): each is worked out once.
    public struct TextCache {
        @usableFromInline var dayNumber = Int.min
        @usableFromInline var text: (UInt64, UInt16) = (0, 0)

        public init() {}

        /// `date.writeASCII(to: p)`, from the last text when it is the same date.
        @inlinable
        public mutating func write(_ date: CivilDate, to p: UnsafeMutablePointer<UInt8>) -> Int {
            let raw = UnsafeMutableRawPointer(p)
            guard date.dayNumber == dayNumber else {
                let n = date.writeASCII(to: p)
                guard n == 10 else { return n }
                dayNumber = date.dayNumber
                text = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
                return 10
            }
            raw.storeBytes(of: text.0, as: UInt64.self)
            raw.storeBytes(of: text.1, toByteOffset: 8, as: UInt16.self)
            return 10
        }
    }

    /// Parses exactly `YYYY-MM-DD`; returns nil for any other text or a day that does not exist.
    public init?(_ text: String) {
        // Read straight from the UTF-8 bytes: stored rows are parsed by the thousand per command.
        var text = text
        text.makeContiguousUTF8()
        guard
            let parsed = text.utf8.withContiguousStorageIfAvailable({ bytes -> (Int, Int, Int)? in
                guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                    let y = digits(bytes, 0..<4), let m = digits(bytes, 5..<7), let d = digits(bytes, 8..<10)
                else { return nil }
                return (y, m, d)
            }) ?? nil
        else { return nil }
        self.init(year: parsed.0, month: parsed.1, day: parsed.2)
    }
}

/// The decimal value of the ASCII digits at `range`, or nil if any byte is not a digit.
@inline(__always)
func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var value = 0
    for i in range {
        let b = bytes[i]
        guard b >= 48 && b <= 57 else { return nil }
        value = value * 10 + Int(b - 48)
    }
    return value
}

/// Zero-padded decimal without Foundation formatting (which depends on the locale).
func pad(_ value: Int, _ width: Int) -> String {
    String(ascii: maximumDigits) { writeDigits(value, width, to: $0) }
}

/// A non-empty run of ASCII digits as an Int; nil for anything else (signs, spaces, overflow).
func parseDigits<S: StringProtocol>(_ text: S) -> Int? {
    guard !text.isEmpty, text.count <= 9 else { return nil }
    var value = 0
    for u in text.utf8 {
        guard u >= 48 && u <= 57 else { return nil }
        value = value * 10 + Int(u - 48)
    }
    return value
}
