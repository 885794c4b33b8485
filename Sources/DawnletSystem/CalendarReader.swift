internal import CICal
import DawnletCCall
import DawnletCore
import FoundationEssentials
import Glibc

/// libical, loaded on first use (see Sources/CICal/shim.h for why it is not linked).
final class ICal: @unchecked Sendable {
    let f: dawnlet_ical

    static let shared: Result<ICal, CalendarProblem> = {
        var problem: UnsafePointer<CChar>?
        guard let table = dawnlet_ical_load(&problem) else {
            let why = problem.map { String(cString: $0) } ?? "unknown"
            return .failure(CalendarProblem(file: "libical.so.3", "cannot be loaded (install libical3): \(why)"))
        }
        // A malformed file must be reported, never abort the process.
        table.pointee.icalerror_set_errors_are_fatal(0)
        return .success(ICal(table.pointee))
    }()

    private init(_ f: dawnlet_ical) { self.f = f }
}

/// Reads an iCalendar file, or a vdir (a folder of them), with libical and expands its events and
/// todos for a window (docs/calendars.md): DTSTART/DTEND/DURATION/DUE, all-day dates, TZID with
/// embedded VTIMEZONEs, UTC and floating times, RRULE, RDATE, EXDATE, RECURRENCE-ID overrides,
/// cancelled events and completed todos left out, VALARMs relative to start or end, or absolute.
/// A file or item that cannot be used is reported and skipped; the rest is still read.
public enum CalendarReader {
    /// Larger files are reported and skipped unread.
    public static let maximumFileBytes = 16 << 20
    /// What one plan may spend on all its calendars together: instances expanded (counted as
    /// libical makes them, before the window is applied) and time. What exceeds it is reported
    /// once and skipped; what was read before is planned.
    public final class Budget {
        public private(set) var instances: Int
        private let limit: Int
        private let deadline: UInt64
        private var reported = false
        public let seconds: Double
        /// The one report of the budget running out, once it has.
        public private(set) var spent: String?

        public init(instances: Int = 100_000, seconds: Double = 2) {
            self.instances = instances
            limit = instances
            self.seconds = seconds
            deadline = Budget.monotonicNanoseconds() + UInt64(seconds * 1e9)
        }

        /// Takes one instance; false once the budget is spent (its report made the first time).
        func take() -> Bool {
            guard spent == nil else { return false }
            instances -= 1
            if instances < 0 {
                spent = "the plan's calendar budget of \(limit) instances is spent"
            } else if instances & 1023 == 0 && Budget.monotonicNanoseconds() > deadline {
                spent = "the plan's calendar budget of \(seconds) s is spent"
            }
            return spent == nil
        }

        /// What ran out, the first time it is asked after that; nil before and after.
        func report() -> String? {
            guard let spent, !reported else { return nil }
            reported = true
            return spent
        }

        /// False once the budget is spent; checks the clock.
        var left: Bool {
            if spent == nil && Budget.monotonicNanoseconds() > deadline { spent = "the plan's calendar budget of \(seconds) s is spent" }
            return spent == nil
        }

        private static func monotonicNanoseconds() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        }
    }

    /// A title longer than this (in characters) is shown cut, ending in "…".
    public static let longestTitle = 500

    public struct Result: Sendable {
        public var occurrences: [CalendarOccurrence] = []
        public var problems: [CalendarProblem] = []
    }

    /// Instances of `name`'s items starting inside `window`, times in `zone`; what it costs is
    /// taken from `budget` (share one across the calendars of a plan).
    public static func read(
        name: String, path: String, window: ClosedRange<Instant>, zone: Zone,
        zones database: ZoneDatabase = .system, budget: Budget = Budget()
    ) -> Result {
        var result = Result()
        let ical: ICal
        switch ICal.shared {
        case .success(let loaded): ical = loaded
        case .failure(let problem):
            result.problems.append(problem)
            return result
        }
        let isFolder: Bool
        switch CalendarReader.kind(of: path) {
        case .success(let folder): isFolder = folder
        case .failure(let problem):
            result.problems.append(problem)
            return result
        }
        var files = [path]
        if isFolder {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
        }
        let zones = Zones(zone, database)
        for (index, file) in files.enumerated() {
            guard budget.left else {
                let skipped = files.count - index
                result.problems.append(CalendarProblem(file: path, "\(budget.spent ?? ""): \(skipped) file\(skipped == 1 ? "" : "s") not read"))
                break
            }
            var reader = FileReader(
                ical: ical, calendar: name, file: file, links: isFolder ? .refuse : .follow, window: window, zone: zone, zones: zones, budget: budget)
            reader.read()
            result.occurrences += reader.occurrences
            result.problems += reader.problems
        }
        return result
    }

    /// `SECONDLY`, `MINUTELY`, …: a rule's FREQ as RFC 5545 spells it.
    static func frequency(_ freq: icalrecurrencetype_frequency) -> String {
        switch freq {
        case ICAL_SECONDLY_RECURRENCE: "SECONDLY"
        case ICAL_MINUTELY_RECURRENCE: "MINUTELY"
        case ICAL_HOURLY_RECURRENCE: "HOURLY"
        case ICAL_DAILY_RECURRENCE: "DAILY"
        case ICAL_WEEKLY_RECURRENCE: "WEEKLY"
        case ICAL_MONTHLY_RECURRENCE: "MONTHLY"
        case ICAL_YEARLY_RECURRENCE: "YEARLY"
        default: "with no FREQ"
        }
    }

    /// TZIDs that name an IANA zone are converted with the system's tzdata (as calendar programs
    /// do), per day through a cache: libical would expand each file's VTIMEZONE from 1970 again.
    /// Other TZIDs (custom names) go through libical and their VTIMEZONE.
    final class Zones {
        let planning: ZoneDayCache
        let database: ZoneDatabase
        private var known: [String: ZoneDayCache?] = [:]

        init(_ zone: Zone, _ database: ZoneDatabase) {
            planning = ZoneDayCache(zone: zone)
            self.database = database
        }

        func named(_ tzid: String) -> ZoneDayCache? {
            if let cached = known[tzid] { return cached }
            let zone = tzid == planning.zone.identifier ? planning : (try? database.zone(named: tzid)).map { ZoneDayCache(zone: $0) }
            known.updateValue(zone, forKey: tzid)  // nil too: a name that is no IANA zone is asked once
            return zone
        }
    }
}

extension CalendarReader {
    /// Whether a calendar's path is a folder (a vdir) or a file, following symlinks; what stands in
    /// the way, said as the system says it (a missing path, a loop of symlinks, a folder not searchable).
    static func kind(of path: String) -> Swift.Result<Bool, CalendarProblem> {
        var info = stat()
        guard CCall.posix("stat", context: path, { stat(path, &info) }) == 0 else {
            let reason = errno == ENOENT ? "no such file or folder" : String(cString: strerror(errno))
            return .failure(CalendarProblem(file: path, reason))
        }
        return .success(info.st_mode & S_IFMT == S_IFDIR)
    }
}
