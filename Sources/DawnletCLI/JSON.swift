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
        return String(decoding: writer.out, as: UTF8.self)
    }
}

/// Writes compact JSON straight into bytes. `preview` streams tens of thousands of reminders
/// through it without building a document first.
struct JSONWriter {
    var out: [UInt8] = []
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

    /// A key of our own (a literal): its bytes as they are, with no escaping to look for.
    mutating func key(_ name: StaticString) {
        separate()
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string value of ASCII bytes that need no escaping (a key, a date), written by `body`.
    mutating func rawString(_ body: (inout [UInt8]) -> Void) {
        separate()
        out.append(UInt8(ascii: "\""))
        body(&out)
        out.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
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
        rawString { date.appendASCII(to: &$0) }
    }

    /// An ISO 8601 instant with its offset, written without building a string.
    mutating func field(_ name: StaticString, instant: Instant, utcOffset: Int) {
        key(name)
        rawString { ISO8601.appendASCII(instant, utcOffset: utcOffset, to: &$0) }
    }

    mutating func null() { separate(); out.append(contentsOf: "null".utf8); needsComma = true }
    mutating func bool(_ b: Bool) { separate(); out.append(contentsOf: (b ? "true" : "false").utf8); needsComma = true }
    mutating func int(_ n: Int) {
        separate()
        appendDigits(n, 1, to: &out)
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
        separate()
        needsComma = true
        out.append(UInt8(ascii: "\""))
        // Most text needs no escaping: copy it whole.
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true {
            for byte in s.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(JSONWriter.hex[Int(byte >> 4)])
                    out.append(JSONWriter.hex[Int(byte & 0xF)])
                default:
                    out.append(byte)  // UTF-8 passes through: JSON text is UTF-8
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
