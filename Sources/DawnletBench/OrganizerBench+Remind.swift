import DawnletCore
import DawnletTestSupport
import Foundation

/// `today`, `agenda` and `dashboard` cold (a new process, nothing kept) beside Remind's
/// `remind -q` on a file of the same items, at 504 items and at 10,000: the day a person asks
/// for, asked of each program the way it is asked.
extension OrganizerBench {
    static func againstRemind(binary: String, large: (database: String, remind: String), today: CivilDate, in folder: URL) throws {
        let remind = "/usr/bin/remind"
        guard FileManager.default.isExecutableFile(atPath: remind) else {
            print("  cold against Remind: Remind is not installed (make deps installs it): nothing to pair with")
            return
        }
        let small = folder.appendingPathComponent("small.sqlite").path
        let smallRemind = populate(path: small, today: today, each: 63)
        for (label, database, text) in [("504 items (63 of each kind)", small, smallRemind), ("10,000 items", large.database, large.remind)] {
            let file = folder.appendingPathComponent("\(label.prefix(3)).rem").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            // The morning of the bench's day, in one zone, for every program.
            let at = ["--db", database, "--tz", "Europe/Berlin", "--now", "2026-11-30T09:00"]
            let programs: [(String, String, [String])] = [
                ("remind -q FILE 30 Nov 2026 9:00", remind, ["-q", file, "30", "Nov", "2026", "9:00"]),
                ("today", binary, at + ["today"]),
                ("agenda (7 days)", binary, at + ["agenda"]),
                ("dashboard", binary, at + ["dashboard"]),
            ]
            // Once each first: a dashboard keeps last month's figures on its first call.
            for (_, program, arguments) in programs { try measureProcess(program, arguments) }
            var times = programs.map { _ in [Double]() }
            for _ in 0..<21 {
                for (i, (_, program, arguments)) in programs.enumerated() { times[i].append(try measureProcess(program, arguments)) }
            }
            let remindLines = try measureLines(remind, programs[0].2, in: folder)
            print("  cold, nothing kept, \(label), in turns with Remind (21 rounds; Remind prints \(remindLines) lines):")
            let theirs = times[0].sorted()[times[0].count / 2]
            let target = label.hasPrefix("504") ? "≤ 1.5" : "≤ 0.5"
            for (i, (name, _, _)) in programs.enumerated() {
                let sorted = times[i].sorted()
                let median = sorted[sorted.count / 2]
                print(
                    String(
                        format: "    %@: min %.1f ms, median %.1f ms, max %.1f ms%@", name, sorted[0] * 1000, median * 1000,
                        sorted[sorted.count - 1] * 1000, i == 0 ? "" : String(format: "; %.2fx remind -q (target %@)", median / theirs, target)))
            }
        }
    }

    /// The lines one run prints.
    static func measureLines(_ binary: String, _ arguments: [String], in folder: URL) throws -> Int {
        let output = folder.appendingPathComponent("lines.txt").path
        try measureProcess(binary, arguments, stdout: output)
        return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
