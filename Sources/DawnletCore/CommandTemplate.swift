/// The argv template of the command channel: each argument may hold `{title}`, `{body}`,
/// `{kind}`, `{key}`, `{when}`, `{due}`, `{offset}`, `{late}`, `{repeat}` and `{urgency}`, replaced as plain text inside that one
/// argument. Nothing is ever split or interpreted: the command runs without a shell.
public enum CommandTemplate {
    public static let placeholders: Set<Substring> = ["title", "body", "kind", "key", "when", "due", "offset", "late", "repeat", "urgency"]

    /// One pass over each argument, so a value that itself contains `{body}` stays as it is.
    public static func expand(_ argv: [String], _ values: [String: String]) -> [String] {
        argv.map { argument in
            var result = ""
            var rest = argument[...]
            while let open = rest.firstIndex(of: "{") {
                result += rest[..<open]
                let afterOpen = rest.index(after: open)
                if let close = rest[afterOpen...].firstIndex(of: "}"), placeholders.contains(rest[afterOpen..<close]) {
                    result += values[String(rest[afterOpen..<close])] ?? ""
                    rest = rest[rest.index(after: close)...]
                } else {
                    result += "{"
                    rest = rest[afterOpen...]
                }
            }
            return result + rest
        }
    }
}
