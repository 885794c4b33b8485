/// A money amount in minor units (cents): exact integer arithmetic, typed and printed as a
/// decimal with two places (`-12.50`). Negative amounts are money going out.
public struct Amount: Hashable, Comparable, Sendable {
    public let minorUnits: Int64

    public init(minorUnits: Int64) { self.minorUnits = minorUnits }

    /// The largest amount a person may type: ten trillion, far inside Int64 even when summed.
    public static let limit: Int64 = 10_000_000_000_000 * 100

    /// Parses `12`, `-12.5`, `+12.50`, `0.05`; nil for anything else (letters, `1e3`, three decimal
    /// places, `,` as a separator, an empty string, an amount beyond `limit`).
    public init?(_ text: String) {
        var rest = Substring(text)
        var negative = false
        if let sign = rest.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 14,
            let whole = parseDigits(parts[0].count > 9 ? parts[0].suffix(9) : parts[0])
        else { return nil }
        // parseDigits takes at most nine digits; longer whole parts are read in two pieces.
        var units = Int64(whole)
        if parts[0].count > 9 {
            guard let high = parseDigits(parts[0].dropLast(9)) else { return nil }
            units += Int64(high) * 1_000_000_000
        }
        var cents: Int64 = 0
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), let fraction = parseDigits(parts[1]) else { return nil }
            cents = Int64(fraction) * (parts[1].count == 1 ? 10 : 1)
        }
        let total = units * 100 + cents
        guard total <= Amount.limit else { return nil }
        minorUnits = negative ? -total : total
    }

    public static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.minorUnits < rhs.minorUnits }
    public static let zero = Amount(minorUnits: 0)

    /// The amount without its sign: a size (a balance, a target, how much was paid).
    public var magnitude: Amount { Amount(minorUnits: minorUnits < 0 ? -minorUnits : minorUnits) }

    /// The amount as money you pay, which every view shows negative.
    public var paidOut: Amount { Amount(minorUnits: -magnitude.minorUnits) }
}

extension Amount: CustomStringConvertible {
    /// `-12.50`, `0.05`, `1200.00`.
    public var description: String { Amount.text(Int128(minorUnits)) }

    /// Minor units as a decimal with two places.
    static func text(_ minorUnits: Int128) -> String {
        let magnitude = minorUnits.magnitude
        return (minorUnits < 0 ? "-" : "") + String(magnitude / 100) + "." + pad(Int(magnitude % 100), 2)
    }
}

/// A sum of amounts (a month's total): exact however many rows, printed like an amount.
public struct Total: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int128

    public init(minorUnits: Int128) { self.minorUnits = minorUnits }

    public var description: String { Amount.text(minorUnits) }
}
