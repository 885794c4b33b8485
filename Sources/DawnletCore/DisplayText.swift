/// Text from outside (a title typed or synced, a file's name, a config value) made safe to show:
/// on one line, with no terminal control sequence, and of bounded length.
///
/// Each line is escaped once. `shown` leaves text that has nothing to escape as it is, and what
/// it writes has nothing left to escape, so a line made of pieces a library already escaped
/// (its error text) goes through it unchanged: never `\\u{1B}` for `\u{1B}`.
public enum DisplayText {
    /// `text` on one line with nothing a terminal would act on: backslash, line breaks, tabs and
    /// every other control or format character written as an escape (`\n`, `\t`, `\u{1B}`), so
    /// a piece of an error quoted where the error is made can neither break the line in two nor
    /// recolour a terminal, and reads back unambiguously. Not for a whole line that may already
    /// hold such a piece (its backslashes would double): that is `shown`.
    public static func escaped(_ text: String) -> String { escape(text, backslash: true) }

    /// A title or name as a list shows it, and a whole line as it goes to stderr or a log: every
    /// control, format (bidi override) or line-separating character written as `\u{1B}`, `\n`…,
    /// so what a calendar, a config or another program put in it can neither drive the terminal
    /// nor reorder the line; all else, backslashes too, as it is. Text with nothing to escape
    /// (nearly all, and all that `escaped` or `shown` wrote) is returned as it is, without copying.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) }) else { return text }
        return escape(text, backslash: false)
    }

    /// Whether a title a person types may hold `scalar`: not a control character (a line break,
    /// ESC), a line or paragraph separator, or a bidi embedding, override or isolate (U+202A–U+202E,
    /// U+2066–U+2069), which would show the text in another order than it is stored.
    public static func isTypable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return false
        default: return scalar.properties.generalCategory != .control
        }
    }

    /// Whether `scalar` is one a terminal could act on or that could reorder or break a line: a
    /// control, format (bidi embedding, override, isolate, mark), line or paragraph separator,
    /// or unassigned character; never the joiners emoji and scripts are made with. What `shown`
    /// escapes, and JSON output writes as `\uXXXX`.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        switch scalar {
        case "\u{200C}", "\u{200D}": return false  // joiners: part of emoji and scripts
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return true
            default: return false
            }
        }
    }

    private static func escape(_ text: String, backslash: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where backslash: result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// At most `limit` characters (grapheme clusters): longer text is cut and ends in "…".
    /// Reads no further than it keeps, so a 10 MB value costs what its first `limit` do.
    public static func bounded(_ text: String, to limit: Int) -> String {
        guard limit > 0 else { return "" }
        var end = text.startIndex
        var count = 0
        while end < text.endIndex {
            if count == limit { return String(text[..<text.index(before: end)]) + "…" }
            text.formIndex(after: &end)
            count += 1
        }
        return text
    }
}
