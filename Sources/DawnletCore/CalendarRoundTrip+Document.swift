/// A file's parts: its components and the lines outside them, as written.
extension CalendarRoundTrip {
    /// One content line (`CalendarWriteBack.Line`), with its parameters.
    typealias Line = CalendarWriteBack.Line

    /// A component: its BEGIN and END, and what is between in order (properties, and
    /// sub-components such as VALARMs, whole).
    struct Component {
        let name: String
        let begin: Line
        let end: Line
        let parts: [Part]

        var properties: [Line] { parts.compactMap { if case .line(let l) = $0 { l } else { nil } } }
        var children: [Component] { parts.compactMap { if case .component(let c) = $0 { c } else { nil } } }
        var alarms: [[Line]] { children.filter { $0.name == "VALARM" }.map(\.lines) }
        var lines: [Line] {
            [begin]
                + parts.flatMap { part -> [Line] in
                    switch part {
                    case .line(let line): [line]
                    case .component(let child): child.lines
                    }
                } + [end]
        }
        func first(_ name: String) -> Line? { properties.first { $0.name == name } }
        /// Which instance it is: its RECURRENCE-ID as written ("" for the series), or a zone's TZID.
        var key: String { name + ":" + (first("RECURRENCE-ID")?.content ?? first("TZID")?.value ?? "") }
        var isSnooze: Bool { properties.contains { $0.name == "RELATED-TO" && $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" } }
    }

    enum Part {
        case line(Line)
        case component(Component)
    }

    /// A file as lines outside components and the VCALENDAR's components.
    struct Document {
        let parts: [Part]
        let end: String

        var components: [Component] { parts.compactMap { if case .component(let c) = $0 { c } else { nil } } }

        init(_ text: String) {
            let (lines, end) = CalendarWriteBack.lines(text)
            self.end = end
            var index = 0
            var parts: [Part] = []
            var depth = 0
            while index < lines.count {
                let line = lines[index]
                if line.name == "BEGIN" && depth == 1 {
                    let (component, next) = Self.component(lines, from: index)
                    parts.append(component.map(Part.component) ?? .line(line))
                    index = component == nil ? index + 1 : next
                    continue
                }
                if line.name == "BEGIN" { depth += 1 }
                if line.name == "END" { depth -= 1 }
                parts.append(.line(line))
                index += 1
            }
            self.parts = parts
        }

        /// The component that begins at `start`, and the index after its END; nil when it never ends.
        static func component(_ lines: [Line], from start: Int) -> (Component?, Int) {
            let name = lines[start].value.uppercased()
            var parts: [Part] = []
            var index = start + 1
            while index < lines.count {
                let line = lines[index]
                if line.name == "END" && line.value.uppercased() == name {
                    return (Component(name: name, begin: lines[start], end: line, parts: parts), index + 1)
                }
                if line.name == "BEGIN" {
                    let (child, next) = component(lines, from: index)
                    guard let child else { return (nil, index) }
                    parts.append(.component(child))
                    index = next
                    continue
                }
                parts.append(.line(line))
                index += 1
            }
            return (nil, index)
        }
    }
}

extension CalendarWriteBack.Line {
    /// Its parameters and value as written, unfolded (`;TZID=Europe/Berlin:20261201T090000`):
    /// what two lines of the same name are compared by.
    var content: String { String(head.dropFirst(name.count)) + ":" + value }

    /// A parameter's value (`TZID`), quotes taken off.
    func parameter(_ wanted: String) -> String? {
        for part in head.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            if part[..<equals].uppercased() == wanted {
                var value = part[part.index(after: equals)...]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                return String(value)
            }
        }
        return nil
    }

    /// The same line with another value (one of a list's values, to be read alone).
    func with(value: String) -> CalendarWriteBack.Line {
        CalendarWriteBack.Line(physical: physical, name: name, head: head, value: value)
    }
}
