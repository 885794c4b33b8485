/// A JSON5 reader for the config (https://spec.json5.org): comments, unquoted keys, single-quoted
/// strings, trailing commas, hex numbers, `Infinity`/`NaN`. Unlike a general decoder it says where
/// a problem is (line and column), refuses a key given twice in one object instead of keeping one
/// of them, bounds nesting, and remembers where each key path's value starts, so that a value found
/// wrong later (`horizon: must be between 1h and 366d`) is named with its line too.
public enum JSON5 {
    public struct Position: Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public var description: String { "line \(line), column \(column)" }
    }

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let position: Position
        public let message: String
        public var description: String { "\(position): \(message)" }
    }

    public struct Document: Sendable {
        public let value: ConfigValue
        /// Where each value is written, by key path as `Config` names them: a member at its key
        /// (`channels.desktop.snooze`, `calendars[0].path`), a list's item at itself, "" the document.
        public let positions: [String: Position]

        /// Where `keyPath`'s value is, or the nearest enclosing one that was written.
        public func position(of keyPath: String) -> Position? {
            var path = keyPath
            while true {
                if let position = positions[path] { return position }
                guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return positions[""] }
                path = String(path[..<cut])
            }
        }
    }

    public static func parse(_ bytes: [UInt8], deepest: Int = ConfigValue.deepest) throws(ParseError) -> Document {
        var reader = Reader(bytes: bytes, deepest: deepest)
        // A byte-order mark may open the file.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        try reader.skipSpace()
        guard reader.index < bytes.count else { throw reader.error("the file holds no value (give at least {})") }
        let value = try reader.value(path: "", depth: 0)
        try reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("\(reader.describe()) after the end of the document") }
        return Document(value: value, positions: reader.positions)
    }

    struct Reader {
        let bytes: [UInt8]
        let deepest: Int
        var index = 0
        var line = 1
        var lineStart = 0
        var positions: [String: Position] = [:]

        init(bytes: [UInt8], deepest: Int) {
            self.bytes = bytes
            self.deepest = deepest
        }

        var position: Position {
            // Columns count characters: UTF-8 continuation bytes are not counted.
            var column = 1
            var i = lineStart
            while i < index && i < bytes.count {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            return Position(line: line, column: column)
        }

        func error(_ message: String) -> ParseError { ParseError(position: position, message: message) }
        func error(_ message: String, at position: Position) -> ParseError { ParseError(position: position, message: message) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// What stands at the current place, for a message: `"x"`, `a line break`, `the end`.
        func describe() -> String {
            guard let byte = current else { return "the end of the file" }
            if byte == 0x0A || byte == 0x0D { return "a line break" }
            var end = index + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            return byte < 0x20 ? "a control character" : "'\(text)'"
        }

        mutating func advance() {
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            index += 1
        }

        /// The bytes of the non-ASCII whitespace JSON5 allows (U+00A0, U+2028, U+2029, U+FEFF)
        /// that begins here, or 0.
        var wideSpace: Int {
            let rest = bytes[index...]
            if rest.starts(with: [0xC2, 0xA0]) { return 2 }
            if rest.starts(with: [0xE2, 0x80, 0xA8]) || rest.starts(with: [0xE2, 0x80, 0xA9]) || rest.starts(with: [0xEF, 0xBB, 0xBF]) { return 3 }
            return 0
        }

        /// Whitespace (JSON5's, with U+00A0, U+2028, U+2029 and U+FEFF) and comments.
        mutating func skipSpace() throws(ParseError) {
            while let byte = current {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                    advance()
                case 0x80... where wideSpace > 0:
                    index += wideSpace
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                    while let c = current, c != 0x0A { advance() }
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                    let start = position
                    index += 2
                    while true {
                        guard let c = current else { throw error("a comment opened here is never closed with */", at: start) }
                        if c == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { index += 2; break }
                        advance()
                    }
                default:
                    return
                }
            }
        }

        mutating func value(path: String, depth: Int) throws(ParseError) -> ConfigValue {
            // A member's place is its key's (set by `object`); an item's or the document's, its own.
            if positions[path] == nil { positions[path] = position }
            guard let byte = current else { throw error("a value is missing at the end of the file") }
            switch byte {
            case UInt8(ascii: "{"):
                guard depth < deepest else { throw error("nested deeper than \(deepest) levels (dawnlet's settings are at most 4 deep)") }
                return try object(path: path, depth: depth + 1)
            case UInt8(ascii: "["):
                guard depth < deepest else { throw error("nested deeper than \(deepest) levels (dawnlet's settings are at most 4 deep)") }
                return try array(path: path, depth: depth + 1)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "I"), UInt8(ascii: "N"):
                return .number(try number())
            default:
                let start = position
                let word = identifier()
                switch word {
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "null": return .null
                case "": throw error("\(describe()) where a value should be (a string in quotes, a number, true, false, null, [ or {)")
                default: throw error("\(word) is not a value: put text in quotes (\"\(word)\")", at: start)
                }
            }
        }

        mutating func object(path: String, depth: Int) throws(ParseError) -> ConfigValue {
            let open = position
            index += 1
            var members: [String: ConfigValue] = [:]
            var seen: [String: Position] = [:]
            while true {
                try skipSpace()
                guard let byte = current else { throw error("the { opened at \(open) is never closed with }") }
                if byte == UInt8(ascii: "}") { index += 1; return .object(members) }
                let keyAt = position
                let key: String
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    key = try string()
                } else {
                    key = identifier()
                    guard !key.isEmpty else { throw error("\(describe()) where a key should be (a name, or } to close the object opened at \(open))") }
                }
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if let first = seen[key] {
                    throw error("\(childPath) is given twice (first at \(first)); keep one", at: keyAt)
                }
                seen[key] = keyAt
                positions[childPath] = keyAt
                try skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("\(describe()) after the key \(key): a : should follow it") }
                index += 1
                try skipSpace()
                members[key] = try value(path: childPath, depth: depth)
                try skipSpace()
                switch current {
                case UInt8(ascii: ",")?: index += 1
                case UInt8(ascii: "}")?: index += 1; return .object(members)
                case nil: throw error("the { opened at \(open) is never closed with }")
                default: throw error("\(describe()) after the value of \(childPath): a comma or } should come first")
                }
            }
        }

        mutating func array(path: String, depth: Int) throws(ParseError) -> ConfigValue {
            let open = position
            index += 1
            var items: [ConfigValue] = []
            while true {
                try skipSpace()
                guard let byte = current else { throw error("the [ opened at \(open) is never closed with ]") }
                if byte == UInt8(ascii: "]") { index += 1; return .array(items) }
                items.append(try value(path: "\(path)[\(items.count)]", depth: depth))
                try skipSpace()
                switch current {
                case UInt8(ascii: ",")?: index += 1
                case UInt8(ascii: "]")?: index += 1; return .array(items)
                case nil: throw error("the [ opened at \(open) is never closed with ]")
                default: throw error("\(describe()) after item \(items.count) of \(path.isEmpty ? "the list" : path): a comma or ] should come first")
                }
            }
        }

        /// An unquoted key or word: letters, digits, `_` and `$` (and any non-ASCII letter).
        mutating func identifier() -> String {
            let start = index
            while let byte = current {
                let letter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                let digit = byte >= 0x30 && byte <= 0x39 && index > start
                guard letter || digit || byte >= 0x80 else { break }
                // Non-ASCII whitespace ends a word too.
                if byte >= 0x80 && wideSpace > 0 { break }
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(ParseError) -> String {
            let start = position
            let quote = bytes[index]
            index += 1
            var out: [UInt8] = []
            while true {
                guard let byte = current else { throw error("the string opened at \(start) is never closed", at: start) }
                if byte == quote { index += 1; break }
                if byte == 0x0A || byte == 0x0D {
                    throw error("a line break inside the string opened at \(start): close it, or end the line with \\", at: start)
                }
                if byte != UInt8(ascii: "\\") { out.append(byte); index += 1; continue }
                let escapeAt = position
                index += 1
                guard let escaped = current else { continue }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "0") where !(current.map { $0 >= 0x30 && $0 <= 0x39 } ?? false): out.append(0)
                case 0x0A: line += 1; lineStart = index  // a line continuation
                case 0x0D: if current == 0x0A { index += 1 }; line += 1; lineStart = index
                case UInt8(ascii: "x"):
                    guard let code = hex(2) else { throw error("\\x needs two hex digits", at: escapeAt) }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(UInt8(code)))).utf8))
                case UInt8(ascii: "u"):
                    guard var code = hex(4) else { throw error("\\u needs four hex digits", at: escapeAt) }
                    // A surrogate pair spells one character.
                    if (0xD800...0xDBFF).contains(code), bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                        index += 2
                        guard let low = hex(4), (0xDC00...0xDFFF).contains(low) else { throw error("\\u\(code) is half a character", at: escapeAt) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("\\u escape is not a character", at: escapeAt) }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    // Octal escapes are not JSON5's; \0 only when no digit follows.
                    throw error(
                        "\\\(Character(Unicode.Scalar(escaped)))\(escaped == UInt8(ascii: "0") ? " followed by a digit" : "") is not an escape JSON5 has",
                        at: escapeAt)
                default:
                    // \' \" \\ \/ and any other character stand for themselves.
                    out.append(escaped)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func hex(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + digits)] {
                guard let digit = Self.hexDigit(byte) else { return nil }
                value = value * 16 + digit
            }
            index += digits
            return value
        }

        static func hexDigit(_ byte: UInt8) -> Int? {
            switch byte {
            case 0x30...0x39: Int(byte - 0x30)
            case 0x41...0x46: Int(byte - 0x41 + 10)
            case 0x61...0x66: Int(byte - 0x61 + 10)
            default: nil
            }
        }

        mutating func number() throws(ParseError) -> Double {
            let start = position
            var sign = 1.0
            if current == UInt8(ascii: "-") || current == UInt8(ascii: "+") {
                if current == UInt8(ascii: "-") { sign = -1 }
                index += 1
            }
            let word = identifierOrDigits()
            switch word {
            case "Infinity": return sign * .infinity
            case "NaN": return .nan
            default: break
            }
            if word.hasPrefix("0x") || word.hasPrefix("0X") {
                var value = 0.0
                let digits = word.dropFirst(2).utf8
                guard !digits.isEmpty else { throw error("\(word) is not a number", at: start) }
                for byte in digits {
                    guard let digit = Self.hexDigit(byte) else { throw error("\(word) is not a number", at: start) }
                    value = value * 16 + Double(digit)
                }
                return sign * value
            }
            // Decimal: digits, an optional fraction (either side of the point may be empty, not
            // both), an optional exponent.
            let scalars = Array(word.utf8)
            var i = 0
            func digits() -> Int { let from = i; while i < scalars.count && scalars[i] >= 0x30 && scalars[i] <= 0x39 { i += 1 }; return i - from }
            let whole = digits()
            var fraction = 0
            if i < scalars.count && scalars[i] == UInt8(ascii: ".") { i += 1; fraction = digits() }
            var valid = whole + fraction > 0 && !(whole > 1 && scalars[0] == 0x30)
            if i < scalars.count && (scalars[i] == UInt8(ascii: "e") || scalars[i] == UInt8(ascii: "E")) {
                i += 1
                if i < scalars.count && (scalars[i] == UInt8(ascii: "+") || scalars[i] == UInt8(ascii: "-")) { i += 1 }
                valid = valid && digits() > 0
            }
            guard valid, i == scalars.count, let value = Double(word.hasPrefix(".") ? "0" + word : word.hasSuffix(".") ? word + "0" : word) else {
                throw error("\(word.isEmpty ? describe() : word) is not a number", at: start)
            }
            return sign * value
        }

        /// A number's text: digits, letters, `.`, and a sign after an exponent's `e`.
        mutating func identifierOrDigits() -> String {
            let start = index
            while let byte = current {
                let part = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: ".")
                let exponentSign =
                    (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && index > start
                    && (bytes[index - 1] == UInt8(ascii: "e") || bytes[index - 1] == UInt8(ascii: "E"))
                    && !(bytes[start...].starts(with: [0x30, UInt8(ascii: "x")]) || bytes[start...].starts(with: [0x30, UInt8(ascii: "X")]))
                guard part || exponentSign else { break }
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
