import DawnletCCall
import DawnletCore
import FoundationEssentials
import Glibc
import Synchronization

/// The system's time zones, as glibc, Python's zoneinfo and systemd find them: TZif
/// files under `$TZDIR`, else /usr/share/zoneinfo, by IANA name, each read once and kept; and the
/// system zone from `TZ`, else /etc/localtime. When `apt upgrade` brings new tzdata, the next
/// read of a zone has it, with no rebuild.
public final class ZoneDatabase: Sendable {
    public let directory: String
    private let known = Mutex<[String: Zone]>([:])

    /// A zone file is a few kilobytes; larger is not one.
    static let largestFile = 1 << 20

    /// The zones of this process's environment.
    public static let system = ZoneDatabase()

    /// The zones of `TZDIR` in `environment`, else in this process's.
    public init(environment: [String: String]? = nil) {
        let tzdir = Environment.variable("TZDIR", in: environment) ?? ""
        directory = tzdir.isEmpty ? "/usr/share/zoneinfo" : tzdir
    }

    /// An IANA zone by name (`Europe/Berlin`), or an error that says where names come from.
    public func zone(named name: String) throws(ZoneError) -> Zone {
        if let cached = known.withLock({ $0[name] }) { return cached }
        // A name, never a path out of the zone folder.
        let allowed = name.utf8.allSatisfy { $0.isLetterOrDigit || "/_+-".utf8.contains($0) }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw ZoneError("\"\(DisplayText.escaped(name))\" is not a time zone name (such as Europe/Berlin)")
        }
        let zone: Zone
        do {
            zone = Zone(
                identifier: name,
                rules: try ZoneDatabase.read(
                    file(of: name), unknown: "unknown time zone \"\(name)\": not in \(directory) (names are those of the tzdata package, such as Europe/Berlin)"
                ))
        } catch  where name == "UTC" || name == "Etc/UTC" {
            // As glibc: UTC needs no file (a system without tzdata).
            zone = Zone(identifier: name, rules: Zone.utc.rules)
        }
        known.withLock { $0[name] = zone }
        return zone
    }

    /// The file a zone's rules are read from: the one to watch for a tzdata update.
    public func file(of identifier: String) -> String {
        identifier.hasPrefix("/") ? identifier : "\(directory)/\(identifier)"
    }

    /// Forgets the zones read so far: the next lookup reads their files again.
    public func forget() { known.withLock { $0.removeAll() } }

    /// The first line of the folder's `tzdata.zi` says its version (`2025b`); nil when it has none.
    public var version: String? {
        guard let text = try? ZoneDatabase.text("\(directory)/tzdata.zi"), text.hasPrefix("# version ") else { return nil }
        let version = text.dropFirst(10).prefix { $0 != "\n" && $0 != " " }
        return version.isEmpty ? nil : String(version)
    }

    /// The system zone: `TZ` (`Area/City`, `:Area/City`, or a file's path), else /etc/localtime —
    /// named by the zone file it links to, or by /etc/timezone when it is a copy (else by its path),
    /// else UTC when there is none, as glibc does.
    public func systemZone(
        environment: [String: String]? = nil, localtime: String = "/etc/localtime",
        timezoneFile: String = "/etc/timezone"
    ) throws(ZoneError) -> Zone {
        if var tz = Environment.variable("TZ", in: environment), !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") { return Zone(identifier: tz, rules: try ZoneDatabase.read(tz, unknown: "TZ names \(tz), which is no zone file")) }
            return try zone(named: tz)
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(localtime, &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // `/usr/share/zoneinfo/Europe/Berlin`, `../usr/share/zoneinfo/Europe/Berlin`: what follows `zoneinfo/`.
            let parts = target.split(separator: "/", omittingEmptySubsequences: false)
            if let folder = parts.lastIndex(of: "zoneinfo"), folder < parts.count - 1 {
                let name = parts[(folder + 1)...].joined(separator: "/")
                if let zone = try? zone(named: name) { return zone }
            }
        }
        if CCall.posix("access", context: localtime, { access(localtime, F_OK) }) != 0 && errno == ENOENT { return Zone.utc }
        let rules = try ZoneDatabase.read(localtime, unknown: "\(localtime) is no zone file: set TZ or link it to one")
        let named = (try? ZoneDatabase.text(timezoneFile))?.split(separator: "\n").first.map(String.init)
        // The name /etc/timezone gives, when that zone's file agrees (a stale name is not used).
        if let named, let zone = try? zone(named: named), zone.rules == rules { return zone }
        return Zone(identifier: localtime, rules: rules)
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
        // /etc/localtime and many zone names are links by design.
        switch RegularFile.read(path, limit: largestFile, links: .follow) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge): throw ZoneError("\(DisplayText.escaped(path)) is larger than a zone file can be")
        case .failure: return nil
        }
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
