/// How long before an occurrence a reminder fires (`--remind 10m`, `2h`, `1d`, `1w`).
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
        // Read from the bytes: every definition a plan reads has a list, most of one offset.
        var text = text
        return text.withUTF8 { bytes -> [ReminderOffset]? in
            var result: [ReminderOffset] = []
            var n = 0, digits = 0
            for (i, b) in bytes.enumerated() {
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard digits < 9 else { return nil }
                    n = n * 10 + Int(b - UInt8(ascii: "0"))
                    digits += 1
                case UInt8(ascii: "m"), UInt8(ascii: "h"), UInt8(ascii: "d"), UInt8(ascii: "w"):
                    let unit = Character(UnicodeScalar(b))
                    guard digits > 0, n <= limits[unit]!, i + 1 == bytes.count || bytes[i + 1] == UInt8(ascii: ",") else { return nil }
                    result.append(b == UInt8(ascii: "m") ? .minutes(n) : b == UInt8(ascii: "h") ? .hours(n) : b == UInt8(ascii: "d") ? .days(n) : .weeks(n))
                    (n, digits) = (0, 0)
                case UInt8(ascii: ","):
                    guard digits == 0, i > 0, bytes[i - 1] != UInt8(ascii: ",") else { return nil }
                default:
                    return nil
                }
            }
            // Digits with no unit after them, or a trailing comma: not a list.
            return digits == 0 && bytes.last != UInt8(ascii: ",") ? result : nil
        }
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
        let (count, unit): (Int, UInt8) =
            switch self {
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

extension ReminderOffset {
    /// Days for `Nd` and `Nw` (nominal), and 0 for `0m`/`0h`; nil for a non-zero exact duration.
    public var wholeDays: Int? {
        switch self {
        case .days(let n): return n
        case .weeks(let n): return 7 * n
        case .minutes(0), .hours(0): return 0
        default: return nil
        }
    }

    /// Seconds for `Nm` and `Nh`.
    public var exactSeconds: Int {
        switch self {
        case .minutes(let n): return 60 * n
        case .hours(let n): return 3_600 * n
        case .days(let n): return 86_400 * n
        case .weeks(let n): return 604_800 * n
        }
    }

    public var isZero: Bool { exactSeconds == 0 }
}
