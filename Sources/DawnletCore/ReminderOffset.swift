/// How long before an occurrence a reminder fires (`--remind 10m`, `2h`, `1d`, `1w`; DESIGN §5).
///
/// As in RFC 5545, minutes and hours are exact durations before the occurrence's instant; days and
/// weeks are nominal: `1d` before a 09:00 event is 09:00 the day before, whatever DST does between.
public enum ReminderOffset: Hashable, Sendable {
    case minutes(Int)
    case hours(Int)
    case days(Int)
    case weeks(Int)

    /// The largest count of any unit: a year ahead is the furthest a reminder may lead.
    static let limits: [Character: Int] = ["m": 525_600, "h": 8_760, "d": 366, "w": 52]

    public init?(_ text: String) {
        guard let unit = text.last, let limit = ReminderOffset.limits[unit],
              let n = parseDigits(text.dropLast()), n <= limit
        else { return nil }
        switch unit {
        case "m": self = .minutes(n)
        case "h": self = .hours(n)
        case "d": self = .days(n)
        default: self = .weeks(n)
        }
    }

    /// Parses a comma-separated list (the stored form); nil if any part is not an offset.
    public static func list(_ text: String) -> [ReminderOffset]? {
        if text.isEmpty { return [] }
        var result: [ReminderOffset] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let offset = ReminderOffset(String(part)) else { return nil }
            result.append(offset)
        }
        return result
    }

    public static func text(_ offsets: [ReminderOffset]) -> String {
        offsets.map(\.description).joined(separator: ",")
    }
}

extension ReminderOffset: CustomStringConvertible {
    /// `10m`, `2h`, `1d`, `1w`.
    public var description: String { String(ascii: ReminderOffset.maximumASCII) { writeASCII(to: $0) } }

    /// The longest text `writeASCII` writes.
    public static let maximumASCII = maximumDigits + 1

    /// Writes the text form at `p` and returns its length: one per reminder in keys and JSON.
    public func writeASCII(to p: UnsafeMutablePointer<UInt8>) -> Int {
        let (count, unit): (Int, UInt8) = switch self {
        case .minutes(let n): (n, UInt8(ascii: "m"))
        case .hours(let n): (n, UInt8(ascii: "h"))
        case .days(let n): (n, UInt8(ascii: "d"))
        case .weeks(let n): (n, UInt8(ascii: "w"))
        }
        let n = writeDigits(count, 1, to: p)
        p[n] = unit
        return n + 1
    }
}
