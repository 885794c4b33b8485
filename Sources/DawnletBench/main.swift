// `make bench`: release-built measurements, each printed with what it measured.
// Not a test: figures vary by machine; targets are stated beside them for the reader.
import DawnletCore
import DawnletTestSupport
import Foundation

/// 10,000 schedules in the mix people keep (DawnletTestSupport.randomSchedule), anchored in the past year.
func mixedSchedules(count: Int, around start: CivilDate) -> [Schedule] {
    var rng = SeededRandom(seed: 2026)
    return (0..<count).map { _ in randomSchedule(using: &rng, anchoredIn: start.adding(days: -365)...start) }
}

/// A scratch folder for one part of the bench, removed by `finish()`, unless DAWNLET_BENCH_KEEP
/// is set: then it stays, for a closer look (`perf record` on its databases), and is named.
struct BenchFolder {
    let url: URL
    let keep = ProcessInfo.processInfo.environment["DAWNLET_BENCH_KEEP"] != nil

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dawnlet-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func finish() {
        if keep { print("  (files kept in \(url.path))") } else { try? FileManager.default.removeItem(at: url) }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func benchScheduleExpansion() {
    let start = CivilDate(year: 2026, month: 1, day: 1) ?? CivilDate(dayNumber: 0)
    let range = start...start.adding(days: 365)
    let schedules = mixedSchedules(count: 10_000, around: start)
    let clock = ContinuousClock()
    var best = Double.infinity
    var occurrences = 0
    var checksum = 0
    for _ in 0..<7 {
        occurrences = 0
        let elapsed = clock.measure {
            for schedule in schedules {
                schedule.forEachOccurrence(in: range, defaultAnchor: start) { date in
                    occurrences += 1
                    checksum &+= date.dayNumber
                    return true
                }
            }
        }
        best = min(best, seconds(elapsed))
    }
    var arrayBest = Double.infinity
    for _ in 0..<7 {
        let elapsed = clock.measure {
            for schedule in schedules { checksum &+= schedule.occurrences(in: range, defaultAnchor: start).count }
        }
        arrayBest = min(arrayBest, seconds(elapsed))
    }
    let perSecond = Double(occurrences) / best
    print("schedule expansion: 10,000 mixed schedules over a 366-day window, best of 7 runs, one core")
    print(
        String(
            format: "  %d occurrences in %.2f ms: %.1f million occurrences/s, %.1f ns/occurrence (target: >= 10 million/s)",
            occurrences, best * 1000, perSecond / 1e6, best * 1e9 / Double(occurrences)))
    print(
        String(
            format: "  as arrays (occurrences(in:)): %.2f ms, %.1f million occurrences/s",
            arrayBest * 1000, Double(occurrences) / arrayBest / 1e6))
    if checksum == 42 { print("") }  // keeps the work observable to the optimizer
}

// DAWNLET_BENCH_ONLY=calendar (or schedule, organizer, runner, latency, nag, plan, export) runs one part.
let only = ProcessInfo.processInfo.environment["DAWNLET_BENCH_ONLY"]
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dawnlet-remind").path
do {
    if only == nil || only == "schedule" { benchScheduleExpansion() }
    if only == nil || only == "organizer" { try OrganizerBench.run(binary: binary) }
    if only == nil || only == "runner" { try RunnerBench.run(binary: binary) }
    if only == "latency" {
        let folder = try BenchFolder("latency")
        try RunnerBench.latency(binary: binary, folder: folder.url)
        folder.finish()
    }
    if only == "nag" {
        let folder = try BenchFolder("nag")
        try RunnerBench.nagWakes(binary: binary, folder: folder.url)
        folder.finish()
    }
    if only == nil || only == "calendar" { try CalendarBench.run(binary: binary) }
    if only == nil || only == "plan" { try PlanBench.run(binary: binary) }
    if only == nil || only == "export" { try ExportBench.run(binary: binary) }
} catch {
    print("bench: \(error)")
    exit(1)
}
