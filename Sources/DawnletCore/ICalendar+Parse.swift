/// Reading a text into the model: logical lines (a physical line and those that continue it),
/// then components by their BEGIN and END lines.
extension ICalendar {
    /// Components nested deeper than this are not taken apart: a BEGIN there is kept as a line
    /// of the component it is in (no file nests more than four: VCALENDAR, VEVENT, VALARM, and
    /// an X- component at most).
    public static let deepest = 32

    /// Each logical line of `bytes`: its byte range (to and with its last line end) and how many
    /// physical lines it has. A physical line ends at LF (a CR before it is part of its end; a
    /// lone CR is not a line end); one that begins with a space or tab continues the line before.
    public static func forEachLine(_ bytes: [UInt8], _ body: (Range<Int>, Int) -> Void) {
        var start = 0
        while start < bytes.count {
            var end = start
            var physical = 0
            repeat {
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if end < bytes.count { end += 1 }
                physical += 1
            } while end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09)
            body(start..<end, physical)
            start = end
        }
    }

    /// A logical line's bytes without its line ends and the space or tab that begins each
    /// continuation (RFC 5545 §3.1); a lone CR stays.
    static func unfolded(_ bytes: ArraySlice<UInt8>, physical: Int = 2) -> ArraySlice<UInt8> {
        // One physical line (most are): its line end cut off, nothing copied.
        if physical == 1 {
            var end = bytes.endIndex
            if end > bytes.startIndex, bytes[end - 1] == 0x0A {
                end -= 1
                if end > bytes.startIndex, bytes[end - 1] == 0x0D { end -= 1 }
            }
            return bytes[bytes.startIndex..<end]
        }
        guard bytes.contains(0x0A) else { return bytes }
        var line: [UInt8] = []
        line.reserveCapacity(bytes.count)
        let physical = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (k, part) in physical.enumerated() {
            var part = k == 0 ? part : part.dropFirst()
            if k < physical.count - 1, part.last == 0x0D { part = part.dropLast() }
            line += part
        }
        return line[...]
    }
}

extension ICalendar.Document {
    public init(parsing text: String) { self.init(parsing: Array(text.utf8)) }

    /// `bytes` as a document. Whatever they hold, it is one: a line that is no content line is
    /// kept as a property of no name, an END that ends nothing open as a property, a component
    /// the file never ends as one without END (ended where its parent ends).
    public init(parsing bytes: [UInt8]) {
        // The file's line end: CRLF when any line ends so.
        var crlf = false
        var search = bytes.startIndex
        while let lf = bytes[search...].firstIndex(of: 0x0A) {
            if lf > bytes.startIndex && bytes[lf - 1] == 0x0D {
                crlf = true
                break
            }
            search = lf + 1
        }
        var open: [(name: String, begin: ICalendar.Property, items: [ICalendar.Item])] = []
        var top: [ICalendar.Item] = []
        func append(_ item: ICalendar.Item) {
            if open.isEmpty { top.append(item) } else { open[open.count - 1].items.append(item) }
        }
        func close(_ end: ICalendar.Property?) {
            let component = open.removeLast()
            append(.component(ICalendar.Component(begin: component.begin, end: end, items: component.items)))
        }
        ICalendar.forEachLine(bytes) { range, physical in
            let line = bytes[range]
            let property = ICalendar.Property(unfolded: ICalendar.unfolded(line, physical: physical), original: line)
            if property.name == "BEGIN" && open.count < ICalendar.deepest {
                open.append((property.value.uppercased(), property, []))
                return
            }
            if property.name == "END" {
                let name = property.value.uppercased()
                if let at = open.lastIndex(where: { $0.name == name }) {
                    while open.count > at + 1 { close(nil) }
                    close(property)
                    return
                }
            }
            append(.property(property))
        }
        while !open.isEmpty { close(nil) }
        self.init(top, lineEnd: crlf ? "\r\n" : "\n")
    }
}
