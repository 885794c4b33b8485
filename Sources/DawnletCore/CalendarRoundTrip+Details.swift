/// What an item holds beside its title, as a file says it: read back from other devices.
extension CalendarRoundTrip {
    /// The note, location, link, priority and tags a component holds (DESCRIPTION, LOCATION,
    /// URL, PRIORITY, CATEGORIES), as dawnlet keeps them: a priority outside 1 to 9 (0 is
    /// "undefined") is none; a category is kept as a tag, its spaces as `-`, when it makes one.
    public static func details(_ component: ICalendar.Component) -> ItemDetails {
        var details = ItemDetails()
        details.note = component.first("DESCRIPTION").map(\.textValue).flatMap { $0.isEmpty ? nil : String($0.prefix(ItemDetails.noteLimit)) }
        details.location = component.first("LOCATION").map(\.textValue).flatMap { $0.isEmpty ? nil : $0 }
        details.url = component.first("URL").map(\.value).flatMap { ItemDetails.isLink($0) ? $0 : nil }
        details.priority = component.first("PRIORITY").flatMap { Int($0.value) }.flatMap { (1...9).contains($0) ? $0 : nil }
        for line in component.properties where line.name == "CATEGORIES" {
            for category in ICalendar.Property.texts(line.value) {
                let tag = ItemDetails.tag(category.split(separator: " ").joined(separator: "-"))
                if let tag, !details.tags.contains(tag) { details.tags.append(tag) }
            }
        }
        return details
    }
}

extension ICalendar.Property {
    /// Its value as TEXT (RFC 5545 §3.3.11): `\n` a line break, `\,` `\;` `\\` the character.
    public var textValue: String { Self.unescaped(Substring(value)) }

    /// A list of TEXT values (CATEGORIES), split on the commas that are not escaped.
    static func texts(_ value: String) -> [String] {
        var parts: [String] = []
        var start = value.startIndex
        var i = value.startIndex
        while i < value.endIndex {
            if value[i] == "\\" {
                i = value.index(after: i)
                if i < value.endIndex { i = value.index(after: i) }
                continue
            }
            if value[i] == "," {
                parts.append(unescaped(value[start..<i]))
                start = value.index(after: i)
            }
            i = value.index(after: i)
        }
        parts.append(unescaped(value[start...]))
        return parts.filter { !$0.isEmpty }
    }

    static func unescaped(_ value: Substring) -> String {
        guard value.contains("\\") else { return String(value) }
        var out = ""
        var escaped = false
        for c in value {
            if escaped {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
