import DawnletTestSupport
import Foundation
import Testing

/// A plan's memory against the number of definitions: the plan is streamed a slice at a time, and
/// every definition is held in as few bytes as it takes, so 100,000 repeating todos cost a
/// bounded amount more than 1,000 (before, each held about a kilobyte, and a third more while
/// the array of them grew).
@Suite struct PlanMemoryTests {
    /// `count` repeating todos written straight into a database the binary made: weekly on some
    /// days, every other week, a day of the month, the nth weekday of the month, once a year.
    static func database(_ space: Workspace, count: Int) throws {
        try CLIProcess.createDatabase(space.db)
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            def schedule(i):
                shape = i % 10
                if shape < 4:
                    return "weekly on %s from 2026-01-05" % ",".join(days[(i + k * 3) % 7] for k in range(1 + i % 3))
                if shape == 4:
                    return "every 2 weeks from 2026-01-%02d" % (5 + i % 7)
                if shape < 7:
                    return "monthly on day %d from 2026-01-05" % (1 + i % 28)
                if shape < 9:
                    return "monthly on %s %s from 2026-01-05" % (["1st", "2nd", "3rd", "4th"][i % 4], days[i % 7])
                return "yearly from 2026-%02d-%02d" % (1 + i % 12, 1 + i % 28)
            with db:
                db.executemany(
                    "INSERT INTO todos (title, due_time, schedule, reminders, created) VALUES (?, ?, ?, '0m', '2026-01-01')",
                    (("Todo %d" % i, "%02d:%02d" % (6 + i % 16, i % 60), schedule(i)) for i in range(int(sys.argv[2]))))
            """
        let (status, output) = try runTool("/usr/bin/python3", ["-c", script, space.db, String(count)], environment: [:])
        #expect(status == 0, "\(output)")
    }

    /// The peak resident memory, in KiB, of a `preview --json` of two days, run alone under a
    /// Python parent that reads its rusage; and how many reminders it wrote.
    static func peak(_ space: Workspace, config: String) throws -> (kib: Int, reminders: Int) {
        let script = """
            import json, resource, subprocess, sys
            out = subprocess.run(sys.argv[1:], capture_output=True, check=True).stdout
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, len(json.loads(out)["reminders"]))
            """
        let arguments = [
            "-c", script, CLIProcess.binary.path, "--db", space.db, "--config", config, "preview", "--from", "2027-01-04T00:00:00+01:00",
            "--to", "2027-01-05T23:59:59+01:00", "--json",
        ]
        let (status, output) = try runTool("/usr/bin/python3", arguments, environment: [:])
        #expect(status == 0, "\(output)")
        let words = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return (words.first ?? 0, words.dropFirst().first ?? 0)
    }

    @Test("a plan of 100,000 repeating todos takes at most 400 bytes a definition more than a plan of 1,000, and plans every one of them")
    func memoryBoundedByDefinitions() throws {
        try Repository.require("/usr/bin/python3", "python3")
        let small = try Workspace(), large = try Workspace()
        let config = small.folder.path("config.json5")
        try "{ timeZone: \"Europe/Berlin\", reminders: { todo: [\"0m\"] } }".write(toFile: config, atomically: true, encoding: .utf8)
        try Self.database(small, count: 1_000)
        try Self.database(large, count: 100_000)
        let few = try peak(small, config: config), many = try peak(large, config: config)
        // Each shape's share of two days (a Monday and a Tuesday): nothing is left out for memory.
        #expect(many.reminders > 100 * few.reminders - 100 * few.reminders / 20, "\(few.reminders) then \(many.reminders)")
        #expect(many.reminders < 100 * few.reminders + 100 * few.reminders / 20, "\(few.reminders) then \(many.reminders)")
        let perDefinition = Double(many.kib - few.kib) * 1024 / 99_000
        #expect(perDefinition <= 400, "peak \(few.kib) KiB for 1,000, \(many.kib) KiB for 100,000: \(Int(perDefinition)) bytes a definition")
    }

    func peak(_ space: Workspace, config: String) throws -> (kib: Int, reminders: Int) { try Self.peak(space, config: config) }
}
