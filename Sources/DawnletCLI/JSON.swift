import DawnletCore

/// A JSON document with ordered object keys, so output reads in the order the docs give and
/// snapshots are stable.
indirect enum JSON: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    /// Compact, one line.
    var text: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.out.string
    }
}

/// Writes compact JSON straight into bytes. `preview` streams hundreds of thousands of reminders
/// through it without building a document first: a member is one piece of room asked for and
/// written through a pointer (a `ByteBuffer`), not a dozen appends.
struct JSONWriter {
    let out: ByteBuffer
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 1 << 12) { out = ByteBuffer(capacity: capacity) }

    /// Ends one top-level document: the next value starts afresh, with no comma.
    mutating func endDocument() { needsComma = false }

    mutating func beginObject() { separate(); out.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { out.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); out.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { out.append(UInt8(ascii: "]")); needsComma = true }

    /// An object member's key; the value follows.
    mutating func key(_ name: String) {
        string(name)
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key of our own (a literal): its bytes as they are, with no escaping to look for, and the
    /// comma, quotes and colon around them, in one piece.
    mutating func key(_ name: StaticString) {
        let comma = needsComma
        out.write(upTo: name.utf8CodeUnitCount + 4) { p in
            var n = 0
            if comma { p[0] = UInt8(ascii: ","); n = 1 }
            p[n] = UInt8(ascii: "\"")
            p.advanced(by: n + 1).update(from: name.utf8Start, count: name.utf8CodeUnitCount)
            n += 1 + name.utf8CodeUnitCount
            p[n] = UInt8(ascii: "\"")
            p[n + 1] = UInt8(ascii: ":")
            return n + 2
        }
        needsComma = false
    }

    /// A string value of at most `n` ASCII bytes that need no escaping (a key, a date), which
    /// `body` writes at the pointer, returning how many.
    mutating func rawString(upTo n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma
        out.write(upTo: n + 3) { p in
            var start = 0
            if comma { p[0] = UInt8(ascii: ","); start = 1 }
            p[start] = UInt8(ascii: "\"")
            let end = start + 1 + body(p + start + 1)
            p[end] = UInt8(ascii: "\"")
            return end + 1
        }
        needsComma = true
    }

    /// Up to `n` bytes written through one cursor, with no further room to ask for: the members
    /// of an object that are always there, in one piece (`preview` writes hundreds of thousands).
    /// After it, the writer goes on as after a member.
    mutating func members(upTo n: Int, _ body: (inout JSONCursor) -> Void) {
        let comma = needsComma
        out.write(upTo: n + 1) { p in
            var cursor = JSONCursor(base: p, count: 0)
            if comma { cursor.byte(UInt8(ascii: ",")) }
            body(&cursor)
            return cursor.count
        }
        needsComma = true
    }

    mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    /// A value of our own words (a kind, a channel): a literal with nothing to escape.
    mutating func field(_ name: StaticString, literal value: StaticString) { key(name); literal(value) }

    /// A string of our own words, written as it is, in one piece with its quotes.
    mutating func literal(_ value: StaticString) {
        rawString(upTo: value.utf8CodeUnitCount) { p in
            p.update(from: value.utf8Start, count: value.utf8CodeUnitCount)
            return value.utf8CodeUnitCount
        }
    }
    mutating func field(_ name: StaticString, _ value: String?) { key(name); if let value { string(value) } else { null() } }
    mutating func field(_ name: StaticString, _ value: Int?) { key(name); if let value { int(value) } else { null() } }
    mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    mutating func field(_ name: StaticString, strings: [String]) {
        key(name)
        beginArray()
        for s in strings { string(s) }
        endArray()
    }

    /// A `YYYY-MM-DD` string, written without building one.
    mutating func field(_ name: StaticString, date: CivilDate) {
        key(name)
        rawString(upTo: CivilDate.maximumASCII) { date.writeASCII(to: $0) }
    }

    /// An ISO 8601 instant with its offset, written without building a string.
    mutating func field(_ name: StaticString, instant: Instant, utcOffset: Int) {
        key(name)
        rawString(upTo: ISO8601.maximumASCII) { ISO8601.writeASCII(instant, utcOffset: utcOffset, to: $0) }
    }

    /// A value already written as JSON (by this writer), as it is.
    mutating func raw(_ json: String) { separate(); out.append(json); needsComma = true }

    mutating func null() { separate(); out.append("null"); needsComma = true }
    mutating func bool(_ b: Bool) { separate(); out.append(b ? "true" : "false"); needsComma = true }
    mutating func int(_ n: Int) {
        separate()
        out.write(upTo: maximumDigits) { writeDigits(n, 1, to: $0) }
        needsComma = true
    }

    mutating func value(_ json: JSON) {
        switch json {
        case .string(let s): string(s)
        case .int(let n): int(n)
        case .bool(let b): bool(b)
        case .null: null()
        case .array(let items):
            beginArray()
            for item in items { value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(name)
                value(member)
            }
            endObject()
        }
    }

    private mutating func separate() {
        if needsComma { out.append(UInt8(ascii: ",")) }
    }

    /// A string's room in the worst case: each byte escaped as `\u00XX`, and its quotes.
    static func room(_ s: String) -> Int { 6 * s.utf8.count + 2 }

    mutating func string(_ s: String) {
        let comma = needsComma
        needsComma = true
        out.write(upTo: JSONWriter.room(s) + 1) { p in
            var cursor = JSONCursor(base: p, count: 0)
            if comma { cursor.byte(UInt8(ascii: ",")) }
            cursor.string(s)
            return cursor.count
        }
    }
}

/// Writes JSON at a pointer into room already made (`JSONWriter.members(upTo:)`), with no checks
/// of its own: whoever makes the room counts what goes in.
struct JSONCursor {
    let base: UnsafeMutablePointer<UInt8>
    var count: Int

    mutating func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// Our own text (keys, punctuation, words), as it is.
    mutating func raw(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    /// ASCII that needs no escaping, written by `body` at the pointer (returning how many), in quotes.
    mutating func quoted(_ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        base[count] = UInt8(ascii: "\"")
        count += 1 + body(base + count + 1)
        base[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Text as it is, unquoted and unescaped (a title in `preview`'s lines).
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { bytes in
            guard let source = bytes.baseAddress else { return }
            (base + count).update(from: source, count: bytes.count)
            count += bytes.count
        }
    }

    /// Digits, unquoted.
    mutating func int(_ n: Int) { count += writeDigits(n, 1, to: base + count) }

    /// A string of any text, in quotes, escaped as JSON asks and a little more: besides quotes,
    /// backslashes and control characters, every character a terminal or an editor would act on
    /// or that reorders a line (`DisplayText.needsEscape`: DEL, C1 controls, bidi overrides and
    /// isolates, U+2028 and U+2029, other format characters) as `\uXXXX`, a surrogate pair beyond
    /// U+FFFF. JSON read in a terminal is as inert as text, and parses back to the same string.
    /// At most `JSONWriter.room(s)` bytes: an escape takes at most six bytes for each it stands for.
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { bytes in
            byte(UInt8(ascii: "\""))
            if JSONCursor.isPlain(bytes), let source = bytes.baseAddress {
                (base + count).update(from: source, count: bytes.count)
                count += bytes.count
            } else {
                var i = 0
                while i < bytes.count {
                    let b = bytes[i]
                    guard b >= 0x80 else {
                        escape(b)
                        i += 1
                        continue
                    }
                    let (scalar, length) = JSONCursor.scalar(in: bytes, at: i)
                    if DisplayText.needsEscape(scalar) {
                        for unit in scalar.utf16 { escape(utf16: unit) }
                    } else {
                        for k in i..<(i + length) { byte(bytes[k]) }
                    }
                    i += length
                }
            }
            byte(UInt8(ascii: "\""))
        }
    }

    /// Whether UTF-8 `bytes` go into a JSON string as they are: no quote, backslash or ASCII
    /// control, and (past ASCII, seldom) no character `DisplayText.needsEscape` names.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
                i += 1
                continue
            }
            let (scalar, length) = scalar(in: bytes, at: i)
            if DisplayText.needsEscape(scalar) { return false }
            i += length
        }
        return true
    }

    /// The scalar whose UTF-8 starts at `bytes[i]` (a lead byte of valid UTF-8, as a String's is)
    /// and how many bytes it takes.
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = bytes[i]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `\uXXXX` for one UTF-16 unit.
    private mutating func escape(utf16 unit: UInt16) {
        raw("\\u")
        byte(JSONCursor.hex[Int(unit >> 12)])
        byte(JSONCursor.hex[Int(unit >> 8 & 0xF)])
        byte(JSONCursor.hex[Int(unit >> 4 & 0xF)])
        byte(JSONCursor.hex[Int(unit & 0xF)])
    }

    private mutating func escape(_ b: UInt8) {
        switch b {
        case UInt8(ascii: "\""): byte(UInt8(ascii: "\\")); byte(b)
        case UInt8(ascii: "\\"): byte(b); byte(b)
        case UInt8(ascii: "\n"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "t"))
        case 0..<0x20, 0x7F: escape(utf16: UInt16(b))
        default:
            byte(b)  // UTF-8 passes through: JSON text is UTF-8
        }
    }
}

extension JSONWriter {
    /// `calendar_cuts`: what the plan's calendar budget left out, one object per calendar cut
    /// (`[]` when nothing was): its name, its files and how many were not read, the UID whose rule
    /// stopped part way, what ran out, and the sentence the text output says.
    mutating func calendarCuts(_ problems: [CalendarProblem]) {
        key("calendar_cuts")
        beginArray()
        for cut in CalendarCut.each(problems) {
            beginObject()
            field("calendar", cut.calendar)
            field("files", cut.files)
            field("files_not_read", cut.filesNotRead)
            field("rule_cut", cut.ruleCut)
            field("limit", cut.limit)
            field("message", cut.description)
            endObject()
        }
        endArray()
    }
}

extension CalendarCut {
    /// The cuts among `problems`, one per calendar (the last said of it).
    static func each(_ problems: [CalendarProblem]) -> [CalendarCut] {
        var byCalendar: [String: Int] = [:]
        var cuts: [CalendarCut] = []
        for cut in problems.compactMap(\.cut) {
            if let index = byCalendar[cut.calendar] { cuts[index] = cut } else { (byCalendar[cut.calendar], cuts) = (cuts.count, cuts + [cut]) }
        }
        return cuts
    }
}
