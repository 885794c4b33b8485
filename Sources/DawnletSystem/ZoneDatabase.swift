import DawnletCore
import Glibc

/// The system's time zones, as glibc, Python's zoneinfo and systemd find them (issue 14): TZif
/// files under `$TZDIR`, else /usr/share/zoneinfo, by IANA name, each read once and kept; and the
/// system zone from `TZ`, else /etc/localtime. When `apt upgrade` brings new tzdata, the next
/// read of a zone has it, with no rebuild.
public final class ZoneDatabase {
    public let directory: String
    private var known: [String: ZoneRules] = [:]

    /// A zone file is a few kilobytes; larger is not one.
    static let largestFile = 1 << 20

    public init(environment: [String: String]) {
        let tzdir = environment["TZDIR"] ?? ""
        directory = tzdir.isEmpty ? "/usr/share/zoneinfo" : tzdir
    }

    /// The rules of an IANA zone name (`Europe/Berlin`), or an error that says where names come from.
    public func rules(named name: String) throws(ZoneError) -> ZoneRules {
        if let cached = known[name] { return cached }
        // A name, never a path out of the zone folder.
        let allowed = name.utf8.allSatisfy { $0.isLetterOrDigit || "/_+-".utf8.contains($0) }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw ZoneError("\"\(DisplayText.escaped(name))\" is not a time zone name (such as Europe/Berlin)")
        }
        let rules = try ZoneDatabase.read("\(directory)/\(name)", unknown: "unknown time zone \"\(name)\": not in \(directory) (names are those of the tzdata package, such as Europe/Berlin)")
        known[name] = rules
        return rules
    }

    /// The system zone: `TZ` (`Area/City`, `:Area/City`, or a file's path), else /etc/localtime —
    /// named by the zone file it links to, or by /etc/timezone when it is a copy. The name is nil
    /// when nothing names it (a copy without /etc/timezone).
    public func systemZone(environment: [String: String], localtime: String = "/etc/localtime",
                           timezoneFile: String = "/etc/timezone") throws(ZoneError) -> (name: String?, rules: ZoneRules) {
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") { return (nil, try ZoneDatabase.read(tz, unknown: "TZ names \(tz), which is no zone file")) }
            return (tz, try rules(named: tz))
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(localtime, &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let range = target.range(of: "zoneinfo/") {
                let name = String(target[range.upperBound...])
                if let zone = try? rules(named: name) { return (name, zone) }
            }
        }
        let zone = try ZoneDatabase.read(localtime, unknown: "\(localtime) is no zone file: set TZ or link it to one")
        let named = (try? ZoneDatabase.text(timezoneFile))?.split(separator: "\n").first.map(String.init)
        return (named, zone)
    }

    /// A regular file's zone rules, read without blocking (a FIFO in its place cannot hang it).
    static func read(_ path: String, unknown: String) throws(ZoneError) -> ZoneRules {
        guard let bytes = try bytes(path) else { throw ZoneError(unknown) }
        do {
            return try ZoneRules(tzif: bytes)
        } catch {
            throw ZoneError("\(DisplayText.escaped(path)) is not a zone file: \(error)")
        }
    }

    static func text(_ path: String) throws(ZoneError) -> String? {
        try bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole of a regular file of at most `largestFile` bytes; nil when there is none.
    private static func bytes(_ path: String) throws(ZoneError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        guard info.st_size <= largestFile else { throw ZoneError("\(DisplayText.escaped(path)) is larger than a zone file can be") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }
}

/// A zone that cannot be had, said in one line.
public struct ZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

private extension UInt8 {
    var isLetterOrDigit: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
