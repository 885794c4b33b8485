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
    let out = ByteBuffer(capacity: 1 << 12)
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

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

    private static let hex = Array("0123456789abcdef".utf8)

    mutating func string(_ s: String) {
        let comma = needsComma
        needsComma = true
        var s = s
        // Most text needs no escaping: copied whole, with its quotes, in one piece.
        let plain = s.withUTF8 { bytes in
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.write(upTo: bytes.count + 3) { p in
                var n = 0
                if comma { p[0] = UInt8(ascii: ","); n = 1 }
                p[n] = UInt8(ascii: "\"")
                if let source = bytes.baseAddress { (p + n + 1).update(from: source, count: bytes.count) }
                n += 1 + bytes.count
                p[n] = UInt8(ascii: "\"")
                return n + 1
            }
            return true
        }
        if plain { return }
        if comma { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append("\\\"")
            case UInt8(ascii: "\\"): out.append("\\\\")
            case UInt8(ascii: "\n"): out.append("\\n")
            case UInt8(ascii: "\r"): out.append("\\r")
            case UInt8(ascii: "\t"): out.append("\\t")
            case 0..<0x20:
                out.append("\\u00")
                out.append(JSONWriter.hex[Int(byte >> 4)])
                out.append(JSONWriter.hex[Int(byte & 0xF)])
            default:
                out.append(byte)  // UTF-8 passes through: JSON text is UTF-8
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
