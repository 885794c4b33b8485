/// Text from outside (a title typed or synced, a file's name, a config value) made safe to show:
/// on one line, with no terminal control sequence, and of bounded length.
public enum DisplayText {
    /// `text` on one line with nothing a terminal would act on: backslash, line breaks, tabs and
    /// every other control or format character written as an escape (`\n`, `\t`, `\u{1B}`), so
    /// an error or a log line can neither break in two nor recolour a terminal.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{200C}", "\u{200D}": result.unicodeScalars.append(scalar)  // joiners: part of emoji and scripts
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    result.unicodeScalars.append(scalar)
                }
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
