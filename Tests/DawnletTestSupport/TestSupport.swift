import DawnletCore
import Foundation

/// SplitMix64: a small seeded generator so every random test is reproducible from its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    /// A fuzz test's seed: DAWNLET_FUZZ_SEED, else the test's own.
    public static func fuzzSeed(_ seed: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["DAWNLET_FUZZ_SEED"].flatMap(UInt64.init) ?? seed
    }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public func date(_ text: String) -> CivilDate {
    guard let d = CivilDate(text) else { preconditionFailure("bad test date \(text)") }
    return d
}

public func dates(_ texts: String...) -> [CivilDate] { texts.map(date) }

public func schedule(_ text: String) throws -> Schedule { try Schedule(parsing: text) }

/// A fresh folder per test, removed afterwards: every store test runs on its own real file.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dawnlet-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

public func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}

/// An AF_UNIX datagram socket standing in for systemd's notification socket.
public final class NotifySocket {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw NotifySocketError(path: path) }
    }

    deinit { close(fd) }

    /// Datagrams, split into their lines, until one satisfies `done` or time runs out.
    public func receive(until done: (String) -> Bool, seconds: Double) -> [String] {
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 {
                let datagram = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").map(String.init)
                lines += datagram
                if datagram.contains(where: done) { break }
            } else {
                usleep(20_000)
            }
        }
        return lines
    }

    /// Waits for a datagram with a line starting with `prefix`.
    public func wait(for prefix: String, seconds: Double) -> Bool {
        receive(until: { $0.hasPrefix(prefix) }, seconds: seconds).contains { $0.hasPrefix(prefix) }
    }
}

public struct NotifySocketError: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "cannot bind a notification socket at \(path)" }
}

/// Waits for `condition`, looked at every 20 ms, up to `seconds`: true as soon as it holds, false
/// if it still does not at the deadline. For an event a test can only see by looking (a file
/// written, a line logged, a row recorded): it ends when the event comes, never later.
@discardableResult
public func waitUntil(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

/// Whether process `pid` has ended: no such process (reaped), or a zombie not reaped yet (an
/// orphan whose new parent has not waited for it).
public func hasEnded(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 && errno == ESRCH { return true }
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // "PID (COMM) STATE …": the state follows the last ")", as a command name may hold one.
    guard let close = stat.lastIndex(of: ")") else { return kill(pid, 0) != 0 }
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
}

/// Whether process `pid` has `path` open.
public func hasOpen(_ pid: pid_t, _ path: String) -> Bool {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).contains {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path
    }
}

/// The process running `binary` among `parent`'s children (a wrapper such as faketime forks it,
/// and may fork a helper of its own first): its argv[0] is the binary once it has exec'd. Nil if
/// none appears within 15 seconds.
public func childRunning(_ binary: String, under parent: pid_t) -> pid_t? {
    // A whole suite in parallel on two cores can hold a start back for seconds.
    for _ in 0..<750 {
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ pid_t($0) }) {
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            if String(decoding: command, as: UTF8.self).hasPrefix(binary + "\u{0}") { return pid }
        }
        usleep(20_000)
    }
    return nil
}

/// A schedule in the mix people keep: weekly (often several days), every other or third week,
/// monthly by date (some clamped), monthly by nth or last weekday, yearly; anchored on a day in
/// `anchors`. The same generator state always gives the same schedule.
public func randomSchedule<R: RandomNumberGenerator>(using rng: inout R, anchoredIn anchors: ClosedRange<CivilDate>) -> Schedule {
    let anchor = anchors.upperBound.adding(days: -Int.random(in: 0...(anchors.upperBound.dayNumber - anchors.lowerBound.dayNumber), using: &rng))
    let rule: Schedule.Rule
    switch Int.random(in: 0..<10, using: &rng) {
    case 0...3:
        rule = .weekly(interval: 1, days: WeekdaySet(rawValue: UInt8.random(in: 1...127, using: &rng)))
    case 4:
        rule = .weekly(interval: Int.random(in: 2...3, using: &rng), days: WeekdaySet(rawValue: UInt8.random(in: 1...127, using: &rng)))
    case 5...6:
        rule = .monthlyOnDay(interval: 1, day: Int.random(in: 1...31, using: &rng))
    case 7...8:
        let ordinal: Schedule.Ordinal = Bool.random(using: &rng) ? .last : .nth(Int.random(in: 1...5, using: &rng))
        rule = .monthlyOnWeekday(
            interval: Int.random(in: 1...2, using: &rng), ordinal: ordinal,
            weekday: Weekday(rawValue: Int.random(in: 1...7, using: &rng)) ?? .monday)
    default:
        rule = .monthlyOnDay(interval: 12, day: nil)
    }
    return Schedule(rule: rule, anchor: anchor, time: nil)
}
