/// A day of the week, numbered as ISO 8601 does: Monday 1 … Sunday 7.
public enum Weekday: Int, CaseIterable, Hashable, Sendable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public init?(isoNumber: Int) { self.init(rawValue: isoNumber) }

    public var isoNumber: Int { rawValue }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `mon`, `tue`, …: the canonical spelling in schedule text.
    public var shortName: String { Weekday.shortNames[rawValue - 1] }

    /// `Monday`, `Tuesday`, …: for people.
    public var fullName: String { Weekday.fullNames[rawValue - 1] }

    /// The RFC 5545 two-letter code (`MO`, `TU`, …).
    public var icalCode: String { Weekday.icalCodes[rawValue - 1] }

    /// `MO`…`SU`, any case (RFC 5545's BYDAY and WKST).
    public init?(icalCode: String) {
        guard let index = Weekday.icalCodes.firstIndex(of: icalCode.uppercased()) else { return nil }
        self.init(rawValue: index + 1)
    }

    /// Accepts short and full names, any case (`tue`, `Tues`, `TUESDAY`).
    public init?(name: String) {
        guard let day = Weekday.byName[name] ?? Weekday.byName[name.lowercased()] else { return nil }
        self = day
    }

    /// Every accepted spelling, lowercased. Built once: schedule parsing looks names up per word.
    private static let byName: [String: Weekday] = {
        var names: [String: Weekday] = ["tues": .tuesday, "weds": .wednesday, "thur": .thursday, "thurs": .thursday]
        for day in Weekday.allCases {
            names[day.shortName] = day
            names[day.fullName.lowercased()] = day
        }
        return names
    }()

    private static let shortNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let fullNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let icalCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
}

/// A set of weekdays as a 7-bit mask (bit 0 = Monday).
public struct WeekdaySet: Hashable, Sendable, Sequence {
    public private(set) var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }
    public init<S: Sequence>(_ days: S) where S.Element == Weekday {
        rawValue = 0
        for day in days { insert(day) }
    }

    public static let all = WeekdaySet(rawValue: 0x7F)
    public static let workdays = WeekdaySet([.monday, .tuesday, .wednesday, .thursday, .friday])

    public var isEmpty: Bool { rawValue == 0 }
    public var count: Int { rawValue.nonzeroBitCount }

    public func contains(_ day: Weekday) -> Bool { rawValue & (1 << (day.rawValue - 1)) != 0 }
    public mutating func insert(_ day: Weekday) { rawValue |= 1 << (day.rawValue - 1) }

    /// Monday to Sunday, in that order.
    public func makeIterator() -> AnyIterator<Weekday> {
        var next = 1
        let mask = rawValue
        return AnyIterator {
            while next <= 7 {
                defer { next += 1 }
                if mask & (1 << (next - 1)) != 0 { return Weekday(rawValue: next) }
            }
            return nil
        }
    }
}
