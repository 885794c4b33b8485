/// Durations in the config: `30s`, `10m`, `12h`, `14d`, `1h30m`. Whole seconds.
public enum DurationText {
    /// The duration `text` says, or nil for text that is not one.
    public static func parse(_ text: String) -> Duration? {
        var total: Int64 = 0
        var digits: Int64 = 0
        var count = 0
        var sawUnit = false
        for byte in text.utf8 {
            if byte >= 48 && byte <= 57 {
                guard count < 7 else { return nil }
                digits = digits * 10 + Int64(byte - 48)
                count += 1
                continue
            }
            guard count > 0 else { return nil }
            switch byte {
            case UInt8(ascii: "d"): total += digits * 86_400
            case UInt8(ascii: "h"): total += digits * 3_600
            case UInt8(ascii: "m"): total += digits * 60
            case UInt8(ascii: "s"): total += digits
            default: return nil
            }
            digits = 0
            count = 0
            sawUnit = true
        }
        guard sawUnit, count == 0 else { return nil }
        return .seconds(total)
    }

    /// The shortest text `parse(_:)` reads back: 10 minutes → `10m`, 90 minutes → `1h30m`, `0s`.
    public static func format(_ duration: Duration) -> String {
        var rest = duration.wholeSeconds
        guard rest > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }
}

extension Duration {
    /// The whole seconds of it (a fraction dropped): what an `Instant` moves by.
    public var wholeSeconds: Int64 { components.seconds }

    /// Microseconds, for the C calls that take them; never negative.
    public var microseconds: UInt64 { UInt64(max(0, components.seconds)) * 1_000_000 + UInt64(max(0, components.attoseconds) / 1_000_000_000_000) }
}

extension Instant {
    /// `duration` later (earlier, for a negative one), to the whole second.
    public func adding(_ duration: Duration) -> Instant { adding(seconds: duration.wholeSeconds) }
}
