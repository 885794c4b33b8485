/// One reminder as an Internet message (RFC 5322): Date, From, To, a Message-ID derived from the
/// reminder key (a repeat carries the same one, so a mail client can recognise it), an RFC 2047
/// Subject when it is not plain ASCII, a UTF-8 text body, CRLF line ends throughout. User text
/// never creates a header: line breaks in the title become spaces, and the body stays the body.
public struct MailMessage: Hashable, Sendable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var body: String
    public var key: String
    /// The Date header's instant and the UTC offset it is written in.
    public var date: Instant
    public var utcOffset: Int

    public init(from: String, to: [String], subject: String, body: String, key: String, date: Instant, utcOffset: Int) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
        self.key = key
        self.date = date
        self.utcOffset = utcOffset
    }

    /// The email of one reminder message; `answers` says how to answer it from a terminal
    /// (`ReminderMessage.answerText`).
    public init(_ message: ReminderMessage, from: String, to: [String], date: Instant, utcOffset: Int, answers: String = "") {
        var body = message.body
        // When it was due (a summary: when it went out), as its first lines say it.
        let sent: String
        switch message.key {
        case .summary: sent = "Sent \(message.when)."
        case _ where message.late: sent = "Due \(message.when); sent late."
        case _ where message.held: sent = "Due \(message.when); held for quiet hours."
        default: sent = "Due \(message.when)."
        }
        body += "\n\n" + sent
        if !answers.isEmpty { body += "\n\n" + answers }
        body += "\n-- \nDawnlet reminder \(message.key)\n"
        self.init(
            from: from, to: to, subject: (message.late ? "(late) " : "") + (message.repetition > 0 ? "(again) " : "") + message.title, body: body,
            key: message.key.description, date: date, utcOffset: utcOffset)
    }

    /// `<dawnlet.todo.3.2026-12-01.10m.5f1c…@example.org>`: readable, and a hash of the whole key
    /// so that any key (a summary's, an external calendar's UID) gives a valid, unique identifier.
    public var messageID: String {
        var readable = ""
        for scalar in key.unicodeScalars.prefix(64) {
            let c = Character(scalar)
            readable.append(scalar.isASCII && (c.isLetter || c.isNumber || c == "-") ? c : ".")
        }
        let domain = from.split(separator: "@").last.map(String.init).flatMap { MailMessage.isSafeDomain($0) ? $0 : nil } ?? "dawnlet.invalid"
        return "<dawnlet.\(readable).\(MailMessage.hash(key))@\(domain)>"
    }

    /// The whole message with CRLF line ends, ready for SMTP DATA or `sendmail -t`.
    public var rendered: String {
        let asciiBody = body.utf8.allSatisfy { $0 < 0x80 }
        var lines = [
            "Date: \(MailMessage.dateHeader(date, utcOffset: utcOffset))",
            "From: Dawnlet <\(from)>",
            "To: \(to.map { "<\($0)>" }.joined(separator: ", "))",
            "Message-ID: \(messageID)",
            MailMessage.subjectHeader(subject),
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(asciiBody ? "7bit" : "quoted-printable")",
            "Auto-Submitted: auto-generated",
            "X-Dawnlet-Key: \(MailMessage.singleLine(key).filter { $0.isASCII })",
            "",
        ]
        let normalized = MailMessage.lines(of: body)
        lines += asciiBody ? normalized.flatMap(MailMessage.wrapLong) : normalized.map(MailMessage.quotedPrintable)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: - Pieces

    /// Control characters (CR, LF, tab, …) become spaces: a header value stays one line.
    static func singleLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// `Subject: text`, or RFC 2047 B-encoded words (≤ 39 bytes of text, 64 characters, split between
    /// characters, folded onto continuation lines) when it is not printable ASCII.
    static func subjectHeader(_ subject: String) -> String {
        let text = singleLine(subject)
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) && text.utf8.count <= 900 && !text.contains("=?") {
            return "Subject: \(text)"
        }
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(character.utf8)
            if chunk.count + bytes.count > 39 && !chunk.isEmpty {
                words.append("=?UTF-8?B?\(base64(chunk))?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?\(base64(chunk))?=") }
        return "Subject: " + words.joined(separator: "\r\n ")
    }

    /// Any of CRLF, CR or LF ends a line.
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var lastWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && lastWasCR { lastWasCR = false; continue }
            lastWasCR = scalar == "\r"
            if scalar == "\r" || scalar == "\n" {
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// ASCII lines longer than 998 octets (RFC 5322 §2.1.1) are broken.
    static func wrapLong(_ line: String) -> [String] {
        guard line.utf8.count > 998 else { return [line] }
        var parts: [String] = []
        var rest = Substring(line)
        while !rest.isEmpty {
            parts.append(String(rest.prefix(998)))
            rest = rest.dropFirst(998)
        }
        return parts
    }

    /// One body line as quoted-printable (RFC 2045 §6.7), soft-broken to ≤ 76 characters.
    static func quotedPrintable(_ line: String) -> String {
        let bytes = Array(line.utf8)
        var out = ""
        var width = 0
        for (i, byte) in bytes.enumerated() {
            let last = i == bytes.count - 1
            let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !last)
            let piece = literal ? String(UnicodeScalar(byte)) : "=" + hex2(byte)
            if width + piece.count > 75 {
                out += "=\r\n"
                width = 0
            }
            out += piece
            width += piece.count
        }
        return out
    }

    static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i]), b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0, b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(table[b0 >> 2])
            out.append(table[((b0 & 3) << 4) | (b1 >> 4)])
            out.append(i + 1 < bytes.count ? table[((b1 & 15) << 2) | (b2 >> 6)] : "=")
            out.append(i + 2 < bytes.count ? table[b2 & 63] : "=")
            i += 3
        }
        return out
    }

    /// `Tue, 01 Dec 2026 09:00:00 +0100` (RFC 5322 §3.3).
    static func dateHeader(_ instant: Instant, utcOffset: Int) -> String {
        let (date, seconds) = ISO8601.split(local: instant.secondsSinceEpoch + Int64(utcOffset))
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = date.weekday.shortName.prefix(1).uppercased() + date.weekday.shortName.dropFirst()
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(weekday), \(two(date.day)) \(months[date.month - 1]) \(date.year) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) \(sign)\(two(offset / 60))\(two(offset % 60))"
    }

    static func isSafeDomain(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && (Character($0).isLetter || Character($0).isNumber || $0 == "." || $0 == "-") }
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across runs and machines (Swift's Hasher is not).
    public static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return (0..<8).map { hex2(UInt8(truncatingIfNeeded: h >> (56 - 8 * $0))) }.joined().lowercased()
    }
}
