extension Config {
    public struct Email: Hashable, Sendable {
        public enum TLS: String, Hashable, Sendable { case starttls, none }
        public var url: String?
        public var tls: TLS = .starttls
        public var from: String?
        public var to: [String] = []
        public var user: String?
        public var passwordFile: String?
        public var sendmail: [String]?
        /// Seconds an SMTP exchange may take before it counts as a temporary failure.
        public var timeout: Duration = .seconds(30)
        /// A PEM file of certificate authorities to trust instead of the system's (a private server).
        public var caFile: String?

        /// The host of `url` (`mail.example.org` in `smtp://mail.example.org:587`), brackets removed.
        public var host: String? { url.flatMap(Email.host(of:)) }

        /// The host of a URL the config accepts (no `@`, `?` or `#`, which the config refuses):
        /// what lies between `://` and the port or path. The sender checks the host again as
        /// curl itself reads it.
        static func host(of url: String) -> String? {
            let rest = url.hasPrefix("smtps://") ? url.dropFirst(8) : url.hasPrefix("smtp://") ? url.dropFirst(7) : nil
            guard let authority = rest?.prefix(while: { $0 != "/" }) else { return nil }
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                return String(authority[authority.index(after: authority.startIndex)..<close])
            }
            return String(authority.prefix { $0 != ":" })
        }

        /// The host is this machine: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8 written
        /// as four numbers. A name that merely starts with `127.` (`127.0.0.1.example.com`) is not.
        public var hostIsLoopback: Bool { host.map(Email.isLoopback) ?? false }

        /// The same for a host name or address (an IPv6 address with or without its brackets).
        public static func isLoopback(_ host: String) -> Bool {
            let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            if host.lowercased() == "localhost" || host == "::1" { return true }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "127" else { return false }
            return parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && (Int(part) ?? 256) <= 255
            }
        }
    }

}

extension Config.Email {
    /// These settings as a config document (`{"channels":{"email":{…}}}`), which `init(document:)`
    /// reads back through the config's own checks: how `serve` hands the settings it runs with
    /// to the short-lived process that sends one message (`mail-send`).
    public var document: String {
        var members: [String] = []
        func add(_ key: String, _ value: String?) { if let value { members.append("\(quoted(key)):\(quoted(value))") } }
        add("url", url)
        if url != nil { add("tls", tls.rawValue) }
        add("from", from)
        members.append("\(quoted("to")):[\(to.map(quoted).joined(separator: ","))]")
        add("user", user)
        add("passwordFile", passwordFile)
        if let sendmail { members.append("\(quoted("sendmail")):[\(sendmail.map(quoted).joined(separator: ","))]") }
        add("timeout", DurationText.format(timeout))
        add("caFile", caFile)
        return "{\"channels\":{\"email\":{\(members.joined(separator: ","))}}}"
    }

    /// Settings written by `document`, checked as the config file's `channels.email` is.
    public init(document: String) throws(ConfigError) {
        let parsed: JSON5.Document
        do {
            parsed = try JSON5.parse(Array(document.utf8))
        } catch {
            throw ConfigError("channels.email", "\(error)")
        }
        guard let email = try Config(parsed.value).email else { throw ConfigError("channels.email", "is not set up") }
        self = email
    }
}

/// `text` as a JSON string: quotes, backslashes and control characters escaped.
private func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
