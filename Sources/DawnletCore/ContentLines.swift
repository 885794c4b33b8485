/// iCalendar content lines (RFC 5545 §3.1) bounded before a parser sees them: a file of a few
/// megabytes can hold one property of a few megabytes (a 10 MB SUMMARY, a 5 MB UID, one RDATE
/// listing 100,000 dates), and libical's cost in time and memory grows with each such value —
/// for every instance it expands. Lines are measured unfolded; those within the bound are kept
/// byte for byte (their folding too).
public enum ContentLines {
    /// Unfolded lines longer than this are cut (SUMMARY) or left out (anything else).
    public static let longest = 16 << 10
    /// A SUMMARY that long is cut to this many bytes, and ends in "…".
    public static let summaryBytes = 1 << 10

    public struct Bounded: Sendable {
        public var bytes: [UInt8]
        /// The names of the properties left out or cut, with how many of each.
        public var cut: [String: Int] = [:]
    }

    public static func bounded(_ input: [UInt8], longest: Int = longest) -> Bounded {
        var result = Bounded(bytes: [])
        result.bytes.reserveCapacity(input.count)
        ICalendar.forEachLine(input) { range, _ in
            if range.count <= longest {
                result.bytes.append(contentsOf: input[range])
                return
            }
            let line = Array(ICalendar.unfolded(input[range]).filter { $0 != 0x0D })
            let nameEnd = line.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") } ?? min(line.count, 64)
            let name = String(decoding: line.prefix(min(nameEnd, 64)), as: UTF8.self).uppercased()
            result.cut[name, default: 0] += 1
            if name == "SUMMARY" {
                result.bytes += whole(Array(line.prefix(summaryBytes))) + Array("…\r\n".utf8)
            }
        }
        return result
    }

    /// `input` without what holds a NUL byte, which no iCalendar text may (and which would end the
    /// text for a C parser there, dropping every valid item after it): the innermost component
    /// holding it (a VEVENT, a VALARM…, never the VCALENDAR itself), else its content line.
    /// `dropped` says what went, one entry per component or line, as "a NUL byte at line 12:
    /// the VEVENT of lines 8–20 left out".
    public static func withoutNUL(_ input: [UInt8]) -> (bytes: [UInt8], dropped: [String]) {
        guard input.contains(0) else { return (input, []) }
        // Logical lines: their byte ranges, first physical line numbers, and whether they hold a NUL.
        var lines: [(range: Range<Int>, number: Int, nul: Bool)] = []
        var number = 1
        ICalendar.forEachLine(input) { range, physical in
            lines.append((range, number, input[range].contains(0)))
            number += physical
        }
        func word(_ line: Int, after prefix: String) -> String? {
            let text = String(decoding: input[lines[line].range].prefix(80), as: UTF8.self).uppercased()
            guard text.hasPrefix(prefix) else { return nil }
            return String(text.dropFirst(prefix.count).prefix { $0 != "\r" && $0 != "\n" && $0 != "\r\n" && $0 != ";" && $0 != " " })
        }
        // Components as spans of lines, and the innermost one (not a VCALENDAR) each line is in.
        var open: [(name: String, line: Int)] = []
        var spanEnd: [Int: Int] = [:]
        var holder = [Int?](repeating: nil, count: lines.count)
        for i in lines.indices {
            if let name = word(i, after: "BEGIN:") {
                open.append((name, i))
                if name != "VCALENDAR" { holder[i] = i }
                continue
            }
            holder[i] = open.last(where: { $0.name != "VCALENDAR" })?.line
            if let name = word(i, after: "END:"), let at = open.lastIndex(where: { $0.name == name }) {
                for closed in open[at...] { spanEnd[closed.line] = i }
                open.removeSubrange(at...)
            }
        }
        var drop = [Bool](repeating: false, count: lines.count)
        var dropped: [String] = []
        for i in lines.indices where lines[i].nul && !drop[i] {
            if let begin = holder[i] {
                let end = spanEnd[begin] ?? lines.count - 1
                for k in begin...end { drop[k] = true }
                let last = lines[end].number + input[lines[end].range].dropLast().filter { $0 == 0x0A }.count
                let name = word(begin, after: "BEGIN:").map { String($0.prefix(20)) } ?? "component"
                dropped.append("a NUL byte at line \(lines[i].number): the \(name) of lines \(lines[begin].number)–\(last) left out")
            } else {
                drop[i] = true
                dropped.append("a NUL byte at line \(lines[i].number): that line left out")
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        for i in lines.indices where !drop[i] { bytes += input[lines[i].range] }
        return (bytes, dropped)
    }

    /// `bytes` cut to end neither inside a UTF-8 sequence nor after a lone escape backslash.
    static func whole(_ bytes: [UInt8]) -> [UInt8] {
        var kept = bytes
        var lead = kept.count - 1
        while lead > 0 && kept.count - lead < 4 && kept[lead] & 0xC0 == 0x80 { lead -= 1 }
        if lead >= 0 && kept[lead] >= 0xC0 {
            let expected = kept[lead] >= 0xF0 ? 4 : kept[lead] >= 0xE0 ? 3 : 2
            if kept.count - lead < expected { kept.removeSubrange(lead...) }
        }
        let backslashes = kept.reversed().prefix { $0 == UInt8(ascii: "\\") }.count
        if backslashes % 2 == 1 { kept.removeLast() }
        return kept
    }
}
