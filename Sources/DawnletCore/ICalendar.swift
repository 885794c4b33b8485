/// iCalendar text (RFC 5545) as one value model, for every part of dawnlet that reads or writes
/// a calendar file's text: a document is a list of components (VCALENDAR, and in it VEVENTs,
/// VTODOs, VTIMEZONEs, and in those VALARMs…), each a list of properties and child components in
/// the file's order. A property keeps its name, its parameters as written, its value unfolded,
/// and the bytes of its physical lines as the file has them (folding and line ends): whatever is
/// not changed is written back byte for byte, whatever is new or changed is rendered, folded at
/// 75 octets with the file's own line end. Parsed once per text (`ICalendar.Document(parsing:)`),
/// in time and memory linear in its length.
public enum ICalendar {
    /// One parameter (`TZID=Europe/Berlin`, `MEMBER="a","b"`): its name in capitals and its
    /// values as written, quotes kept.
    public struct Parameter: Hashable, Sendable {
        public var name: String
        public var values: [String]

        public init(name: String, values: [String]) { (self.name, self.values) = (name.uppercased(), values) }

        /// Its first value without its quotes.
        public var value: String {
            guard var value = values.first?[...] else { return "" }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            return String(value)
        }
    }

    /// One content line: `head` is its name and parameters as written (`DTSTART;TZID=Europe/Berlin`),
    /// `value` what follows the colon, unfolded. `original` is its physical lines as the file has
    /// them, kept while the property is not changed; nil for a new or changed one, which is rendered.
    public struct Property: Hashable, Sendable {
        public private(set) var name: String
        public private(set) var head: String
        public private(set) var parameters: [Parameter]
        public var value: String {
            didSet { original = nil }
        }
        public internal(set) var original: ArraySlice<UInt8>?

        /// A property from its unfolded text (`ACKNOWLEDGED:20261201T080000Z`), new: rendered when written.
        public init(_ line: String) { self.init(unfolded: Array(line.utf8)[...], original: nil) }

        init(unfolded line: ArraySlice<UInt8>, original: ArraySlice<UInt8>?) {
            var text = line
            // A byte order mark is no part of the first line's name (it stays in its bytes).
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
            // The head ends at the first colon outside a quoted parameter value; a line whose
            // quotes never close ends it at its first colon.
            var colon: Int?
            var quoted = false
            for i in text.indices {
                if text[i] == UInt8(ascii: "\"") { quoted.toggle() }
                if text[i] == UInt8(ascii: ":") && !quoted { colon = i; break }
            }
            colon = colon ?? text.firstIndex(of: UInt8(ascii: ":"))
            let head = text[..<(colon ?? text.endIndex)]
            self.head = String(decoding: head, as: UTF8.self)
            self.value = colon.map { String(decoding: text[($0 + 1)...], as: UTF8.self) } ?? ""
            self.original = original
            // The name: up to the first semicolon, in upper case (already so in most files: kept).
            let nameBytes = head.prefix { $0 != UInt8(ascii: ";") }.prefix(ContentLines.longest)
            let upper = nameBytes.allSatisfy { !($0 >= 0x61 && $0 <= 0x7A) && $0 < 0x80 }
            self.name = upper ? String(decoding: nameBytes, as: UTF8.self) : String(decoding: nameBytes, as: UTF8.self).uppercased()
            // Parameters too long for any real ones are not taken apart (their bytes stay as they are).
            let parts = nameBytes.count == head.count || self.head.utf8.count > ContentLines.longest ? [] : Self.split(self.head, on: ";")
            self.parameters = parts.dropFirst().map { part in
                guard let equals = part.firstIndex(of: "=") else { return Parameter(name: part.uppercased(), values: []) }
                return Parameter(name: part[..<equals].uppercased(), values: Self.split(String(part[part.index(after: equals)...]), on: ","))
            }
        }

        /// `text` split at `separator` outside double quotes.
        static func split(_ text: String, on separator: Character) -> [String] {
            let bytes = Array(text.utf8)
            let cut = separator.asciiValue ?? 0
            var parts: [String] = []
            var start = 0
            var quoted = false
            for (i, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: "\"") { quoted.toggle() }
                if byte == cut && !quoted {
                    parts.append(String(decoding: bytes[start..<i], as: UTF8.self))
                    start = i + 1
                }
            }
            parts.append(String(decoding: bytes[start...], as: UTF8.self))
            return parts
        }

        /// Its parameters and value as written, unfolded (`;TZID=Europe/Berlin:20261201T090000`):
        /// what two properties of the same name are compared by.
        public var content: String { String(head[(head.firstIndex(of: ";") ?? head.endIndex)...]) + ":" + value }

        /// A parameter's value (`TZID`), quotes taken off.
        public func parameter(_ wanted: String) -> String? { parameters.first { $0.name == wanted }?.value }

        /// The same property with another value (one of a list's values, to be read alone).
        public func with(value: String) -> Property {
            var copy = self
            copy.value = value
            return copy
        }

        /// Its value as an instant, when it is a UTC DATE-TIME (`20261201T080000Z`).
        public var utc: Instant? {
            if case .utc(let at)? = RecurrenceRule.until(value) { return at }
            return nil
        }

        /// Its unfolded text, as it would be rendered.
        public var text: String { head + ":" + value }
    }

    /// A component: its BEGIN and END lines (END nil: the file never ends it) and what is between,
    /// in order.
    public struct Component: Hashable, Sendable {
        public var name: String
        public var begin: Property
        public var end: Property?
        public var items: [Item]

        public init(_ name: String, _ items: [Item] = []) {
            self.name = name.uppercased()
            begin = Property("BEGIN:\(name)")
            end = Property("END:\(name)")
            self.items = items
        }

        init(begin: Property, end: Property?, items: [Item]) {
            (self.name, self.begin, self.end, self.items) = (begin.value.uppercased(), begin, end, items)
        }

        /// Its own properties (none of a child's).
        public var properties: [Property] { items.compactMap { if case .property(let p) = $0 { p } else { nil } } }
        /// Its child components (VALARMs, a VTIMEZONE's STANDARD and DAYLIGHT…).
        public var children: [Component] { items.compactMap { if case .component(let c) = $0 { c } else { nil } } }
        public var alarms: [Component] { children.filter { $0.name == "VALARM" } }
        /// Its first own property of that name.
        public func first(_ name: String) -> Property? { properties.first { $0.name == name } }
        /// Every property of it and in it, in the file's order, BEGIN and END lines included.
        public var lines: [Property] {
            [begin]
                + items.flatMap { item -> [Property] in
                    switch item {
                    case .property(let property): [property]
                    case .component(let child): child.lines
                    }
                } + (end.map { [$0] } ?? [])
        }
        /// The same component as new: each line rendered (with the line end of the file it goes in),
        /// none kept as the bytes of the text it came from.
        public var detached: Component {
            var copy = self
            copy.begin.original = nil
            copy.end?.original = nil
            copy.items = items.map { item in
                switch item {
                case .property(var p):
                    p.original = nil
                    return .property(p)
                case .component(let c): return .component(c.detached)
                }
            }
            return copy
        }

        /// Whether it is an event or a todo: a calendar item.
        public var isItem: Bool { name == "VEVENT" || name == "VTODO" }
    }

    public enum Item: Hashable, Sendable {
        case property(Property)
        case component(Component)
    }

    /// A file: its components, and any line outside them, in order; and its line end (CRLF, or LF
    /// when the file has no CRLF), which new lines take.
    public struct Document: Hashable, Sendable {
        public var items: [Item]
        public var lineEnd: String

        public init(_ items: [Item], lineEnd: String = "\r\n") { (self.items, self.lineEnd) = (items, lineEnd) }

        public var components: [Component] { items.compactMap { if case .component(let c) = $0 { c } else { nil } } }

        /// Every VEVENT and VTODO, wherever it is (in a VCALENDAR, or several), none inside another;
        /// one the file never ends (cut short) only when `unended`.
        public func calendarItems(unended: Bool = false) -> [Component] {
            var found: [Component] = []
            func walk(_ items: [Item]) {
                for case .component(let c) in items {
                    if c.isItem { if unended || c.end != nil { found.append(c) } } else { walk(c.items) }
                }
            }
            walk(items)
            return found
        }

        /// The document with `transform` applied to each component `calendarItems(unended: true)` lists: each
        /// replaced by the items it returns (itself changed, and any new one after it).
        public func replacingItems(_ transform: (Component) -> [Item]) -> Document {
            func walk(_ items: [Item]) -> [Item] {
                items.flatMap { item -> [Item] in
                    guard case .component(var c) = item else { return [item] }
                    if c.isItem { return transform(c) }
                    c.items = walk(c.items)
                    return [.component(c)]
                }
            }
            return Document(walk(items), lineEnd: lineEnd)
        }

        /// Its text: what was not changed as the file had it, byte for byte; the rest rendered.
        public var rendered: String { String(decoding: bytes, as: UTF8.self) }

        public var bytes: [UInt8] {
            var out: [UInt8] = []
            let end = Array(lineEnd.utf8)
            func write(_ property: Property) {
                // A last line without its line end, when something now follows it, gets one.
                if let last = out.last, last != 0x0A { out += end }
                if let original = property.original {
                    out += original
                } else {
                    let text = property.text
                    // Most lines need no folding: their bytes as they are.
                    if text.utf8.count <= 75 {
                        out += text.utf8
                        out += end
                    } else {
                        for part in ICalendar.fold(text) { out += part.utf8 + end }
                    }
                }
            }
            func write(_ items: [Item]) {
                for item in items {
                    switch item {
                    case .property(let property): write(property)
                    case .component(let c):
                        write(c.begin)
                        write(c.items)
                        if let end = c.end { write(end) }
                    }
                }
            }
            write(items)
            return out
        }
    }

    /// A line longer than 75 octets folded (RFC 5545 §3.1), never inside a UTF-8 sequence.
    public static func fold(_ line: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > 75 {
                parts.append(current)
                current = " "
                octets = 1
            }
            current.append(character)
            octets += size
        }
        parts.append(current)
        return parts
    }
}
