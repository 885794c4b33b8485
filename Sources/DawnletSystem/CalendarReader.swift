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
    /// What one plan may spend on all its calendars together, counted in work, never in time, so
    /// that the same files always give the same plan: bytes of files read (a file kept parsed
    /// between plans counts its size as if read) and instances expanded (counted as rules make
    /// them, before the window is applied). What exceeds it is reported and skipped; what was read
    /// before is planned. The defaults hold 50,000 ordinary events, some of them repeating.
    public final class Budget {
        /// What is left of each.
        public private(set) var instances: Int
        public private(set) var bytes: Int
        public let instanceLimit: Int
        public let byteLimit: Int
        private var reported = false
        /// What ran out: `1000000 instances`, `268435456 bytes read`.
        public private(set) var spentLimit: String?
        /// The calendar (by its name in the config) and UID whose rule it ran out in, if a rule's.
        var ruleCut: (calendar: String, uid: String)?

        public init(instances: Int = 1_000_000, bytes: Int = 256 << 20) {
            self.instances = instances
            self.bytes = bytes
            instanceLimit = instances
            byteLimit = bytes
        }

        /// The one report of the budget running out, once it has.
        public var spent: String? { spentLimit.map { "the plan's calendar budget of \($0) is spent" } }

        /// Takes one instance; false once the budget is spent.
        func take() -> Bool {
            guard spentLimit == nil else { return false }
            instances -= 1
            if instances < 0 { spentLimit = "\(instanceLimit) instances" }
            return spentLimit == nil
        }

        /// Takes the bytes of a file read (or kept parsed); the file is used, and those after it are not.
        func read(_ count: Int) {
            guard spentLimit == nil else { return }
            bytes -= count
            if bytes < 0 { spentLimit = "\(byteLimit) bytes read" }
        }

        /// What ran out, the first time it is asked after that; nil before and after.
        func report() -> String? {
            guard let spent, !reported else { return nil }
            reported = true
            return spent
        }

        /// False once the budget is spent.
        var left: Bool { spentLimit == nil }
    }

    /// A title longer than this (in characters) is shown cut, ending in "…".
    public static let longestTitle = 500

    public struct Result: Sendable {
        public var occurrences: [CalendarOccurrence] = []
        public var problems: [CalendarProblem] = []
    }

    /// Instances of `name`'s items starting inside `window`, times in `zone`; what it costs is
    /// taken from `budget` (share one across the calendars of a plan). With `cache`, files unchanged
    /// since it last saw them are not read or parsed again (`serve` keeps one between plans).
    /// `simple` false has libical read every file (for tests comparing the two readings).
    public static func read(
        name: String, path: String, window: ClosedRange<Instant>, zone: Zone,
        zones database: ZoneDatabase = .system, budget: Budget = Budget(), cache: Cache? = nil,
        simple: Bool = true
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
        let names = ZoneNames(planning: zone.identifier, database: database, ical: ical)
        let links: RegularFile.Links = isFolder ? .refuse : .follow
        var notRead = 0
        // A rule cut short is this calendar's only if the budget was left when it began.
        let spentBefore = !budget.left
        // Some files at a time read and parsed on every core, then used in their order: the
        // budget is taken in the order of the files, whichever thread read them.
        var index = 0
        batches: while index < files.count {
            guard budget.left else {
                notRead = files.count - index
                break
            }
            let batch = Array(files[index..<min(files.count, index + 256)])
            let prepared = prepareAll(batch, links: links, cache: cache, names: simple ? names : nil)
            for (offset, file) in batch.enumerated() {
                guard budget.left else {
                    notRead = files.count - index - offset
                    break batches
                }
                var reader = FileReader(
                    ical: ical, calendar: name, file: file, links: links, window: window, zone: zone, zones: zones, budget: budget)
                reader.useSimple = simple
                reader.use(prepared[offset], cache: cache)
                result.occurrences += reader.occurrences
                result.problems += reader.problems
            }
            index += batch.count
        }
        // Said once per calendar, with what was left out of it.
        let ruleCut = spentBefore ? nil : budget.ruleCut.flatMap { $0.calendar == name ? $0.uid : nil }
        if let limit = budget.spentLimit, notRead > 0 || ruleCut != nil {
            let cut = CalendarCut(calendar: name, files: files.count, filesNotRead: notRead, ruleCut: ruleCut, limit: limit)
            result.problems.append(
                CalendarProblem(file: path, "\(budget.spent ?? ""): \(notRead) of \(files.count) file\(files.count == 1 ? "" : "s") not read", cut: cut))
        }
        cache?.sweep(path, keeping: files)
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
