import Foundation
import Testing

@Suite struct OccurrencesCommandTests {
    @Test("text: one line per occurrence with its weekday")
    func text() throws {
        let r = try CLIProcess.run(["occurrences", "--schedule", "monthly on day 31", "--from", "2028-01-15", "--to", "2028-04-30"])
        #expect(r.status == 0)
        #expect(r.stdout == "2028-01-31 Mon\n2028-02-29 Tue\n2028-03-31 Fri\n2028-04-30 Sun\n")
    }

    @Test("JSON with instants, across the spring-forward gap in Europe/Berlin")
    func jsonInstants() throws {
        let r = try CLIProcess.run([
            "occurrences", "--schedule", "daily at 02:30", "--from", "2026-03-28",
            "--to", "2026-03-30", "--tz", "Europe/Berlin", "--json",
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout
                == #"{"occurrences":["2026-03-28","2026-03-29","2026-03-30"],"instants":["2026-03-28T02:30:00+01:00","2026-03-29T03:30:00+02:00","2026-03-30T02:30:00+02:00"]}"#
                + "\n")
    }

    @Test("JSON without a time has no instants; --tz may stand before the command")
    func jsonDates() throws {
        let r = try CLIProcess.run([
            "--tz", "America/New_York", "occurrences", "--json", "--schedule", "every other week on fri from 2026-01-07",
            "--from", "2026-01-01", "--to", "2026-01-31",
        ])
        #expect(r.status == 0)
        #expect(r.stdout == #"{"occurrences":["2026-01-09","2026-01-23"]}"# + "\n")
    }

    @Test("the text form explains a time moved by a gap or taken first of two")
    func textExplains() throws {
        let r = try CLIProcess.run([
            "occurrences", "--schedule", "daily at 01:30", "--from", "2026-11-01", "--to", "2026-11-01",
            "--tz=America/New_York",
        ])
        #expect(r.stdout == "2026-11-01 Sun 01:30 -04:00  (01:30 happens twice that day: the first)\n")
        let gap = try CLIProcess.run([
            "occurrences", "--schedule", "daily at 02:15", "--from", "2026-10-04", "--to", "2026-10-04",
            "--tz", "Australia/Lord_Howe",
        ])
        #expect(gap.stdout == "2026-10-04 Sun 02:45 +11:00  (02:15 does not exist that day: moved 30 min by the DST gap)\n")
    }

    @Test("the TZ environment is the default zone")
    func systemZone() throws {
        let r = try CLIProcess.run(
            ["occurrences", "--schedule", "daily at 02:30", "--from", "2026-03-08", "--to", "2026-03-08", "--json"],
            environment: ["TZ": "America/New_York"])
        #expect(r.stdout.contains("2026-03-08T03:30:00-04:00"))
    }

    @Test("an empty result is an empty list")
    func empty() throws {
        let r = try CLIProcess.run(["occurrences", "--schedule", "daily from 2027-01-01", "--from", "2026-01-01", "--to", "2026-01-31", "--json"])
        #expect(r.status == 0)
        #expect(r.stdout == #"{"occurrences":[]}"# + "\n")
    }

    @Test(
        "bad input: exit 2 with one clear line and the usage",
        arguments: [
            (["occurrences", "--schedule", "every other week on tuz", "--from", "2026-01-01", "--to", "2026-02-01"], ["\"tuz\"", "example"]),
            (["occurrences", "--schedule", "weekly on tue", "--from", "2026-01-01", "--to", "2026-02-01", "--tz", "Mars/Olympus"], ["Mars/Olympus"]),
            (["occurrences", "--schedule", "weekly on tue", "--from", "2026-02-30", "--to", "2026-03-01"], ["2026-02-30"]),
            (["occurrences", "--schedule", "weekly on tue", "--from", "2026-03-01", "--to", "2026-02-01"], ["before"]),
            (["occurrences", "--schedule", "weekly on tue", "--from", "2026-03-01"], ["--to"]),
            (["occurrences", "--schedule", "weekly on tue", "--from", "1900-01-01", "--to", "2100-01-01"], ["36525"]),
            (["occurrences", "--schedul", "weekly on tue", "--from", "2026-03-01", "--to", "2026-03-02"], ["--schedul"]),
            (["occurrences", "--schedule"], ["--schedule needs a value"]),
            (["occurrences", "extra", "--schedule", "daily", "--from", "2026-03-01", "--to", "2026-03-02"], ["extra"]),
            (["occurrence"], ["occurrence"]),
            ([], ["no command"]),
            (["--tz"], ["--tz"]),
        ] as [([String], [String])])
    func badInput(_ arguments: [String], _ words: [String]) throws {
        let r = try CLIProcess.run(arguments)
        CLIProcess.expectFailure(r, status: 2, mentioning: words)
        #expect(r.stderr.contains("usage: dawnlet-remind"))
    }

    @Test("--help prints the usage and exits 0")
    func help() throws {
        let r = try CLIProcess.run(["occurrences", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: dawnlet-remind occurrences --schedule SCHEDULE --from DATE --to DATE"))
        let all = try CLIProcess.run(["--help"])
        #expect(all.status == 0 && all.stdout.contains("  occurrences "))
    }
}
