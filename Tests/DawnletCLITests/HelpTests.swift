import DawnletTestSupport
import Foundation
import Testing

/// Help from the one command table: every noun and command answers `help`, `--help`
/// and `-h`; every option it takes is explained; every example it gives is a command line the
/// binary accepts; a mistyped word is answered with the nearest valid one.
@Suite struct HelpTests {
    /// Every command's words, found the way a person finds them: the overview's nouns, then each
    /// noun's help.
    static func commands() throws -> [[String]] {
        let overview = try CLIProcess.run(["help"]).stdout
        let section = overview.components(separatedBy: "commands:\n")[1].components(separatedBy: "\n\n")[0]
        let nouns = section.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        var paths: [[String]] = []
        for noun in nouns {
            let text = try CLIProcess.run(["help", noun]).stdout
            if text.hasPrefix("usage: ") {
                paths.append([noun])
            } else {
                for line in text.split(separator: "\n") where line.hasPrefix("  dawnlet-remind \(noun) ") {
                    paths.append([noun, String(line.split(separator: " ")[2])])
                }
            }
        }
        return paths
    }

    /// Splits a command line as a shell would for these examples: words, and "quoted words".
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, started = false
        for character in line {
            if character == "\"" { quoted.toggle(); started = true; continue }
            if character == " " && !quoted {
                if started { words.append(word) }
                word = ""; started = false
                continue
            }
            word.append(character); started = true
        }
        if started { words.append(word) }
        return words
    }

    @Test("the overview names every noun and topic; every noun and command has help three ways, each option explained, two or more examples")
    func everyCommand() throws {
        let paths = try Self.commands()
        #expect(paths.count >= 50, "\(paths)")
        for noun in Set(paths.map { $0[0] }) where paths.filter({ $0[0] == noun }).count > 1 {
            for asking in [["help", noun], [noun, "--help"], [noun, "-h"]] {
                let r = try CLIProcess.run(asking)
                #expect(r.status == 0 && r.stdout.hasPrefix("\(noun) commands:"), "\(asking): \(r.stdout) \(r.stderr)")
            }
        }
        for path in paths {
            let text = try CLIProcess.run(["help"] + path)
            #expect(text.status == 0, "\(path): \(text.stderr)")
            for asking in [path + ["--help"], path + ["-h"]] {
                #expect(try CLIProcess.run(asking).stdout == text.stdout, "\(asking)")
            }
            let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let usage = try #require(lines.first)
            #expect(usage.hasPrefix("usage: dawnlet-remind \(path.joined(separator: " "))"), "\(usage)")
            // Each --option of the usage line has a row with a meaning.
            let options = Set(usage.matches(of: /--([a-z-]+)/).map { String($0.1) })
            for option in options where !["tz", "now"].contains(option) {
                let row = lines.first { $0.hasPrefix("  --\(option)") }
                let meaning = row.map { $0.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true).dropFirst() }
                #expect(row != nil && (meaning?.count ?? 0) >= 2, "\(path) --\(option): \(row ?? "no row")")
            }
            let examples = lines.drop { $0 != "examples:" }.dropFirst().prefix { !$0.isEmpty }
            #expect(examples.count >= 2, "\(path): \(examples)")
            for example in examples {
                #expect(example.hasPrefix("  dawnlet-remind \(path.joined(separator: " "))"), "\(example)")
            }
        }
    }

    @Test("every example in help is a command line the binary accepts: run on a database holding the ids they name, none is a usage error")
    func examplesRun() throws {
        let workspace = try Workspace(globals: ["--now", "2026-12-01T10:00:00+01:00", "--tz", "Europe/Berlin"])
        for i in 1...7 {
            try workspace.cli(["todo", "add", "Todo \(i)", "--every", "daily from 2026-11-01 at 09:00"])
            try workspace.cli(["event", "add", "Event \(i)", "--start", "2026-12-01T10:00", "--every", "daily"])
            try workspace.cli(["habit", "add", "Habit \(i)", "--days", "mon,tue,wed,thu,fri,sat,sun", "--at", "07:00", "--from", "2026-11-01"])
            try workspace.cli(["money", "add", "Bill \(i)", "--amount", "-10", "--every", "monthly on day 1"])
            try workspace.cli(["subscription", "add", "Sub \(i)", "--amount", "-5", "--every", "monthly on day 14 from 2026-10-01"])
            // Added before the payments logged below (a payment from before its debt is refused).
            let added = try CLIProcess.run(
                ["--db", workspace.db, "--tz", "Europe/Berlin", "--now", "2026-01-01T10:00:00+01:00", "debt", "add", "Debt \(i)", "--balance", "1000"]
                    + ["--minimum", "50", "--day", "15"])
            #expect(added.status == 0, "\(added.stderr)")
            try workspace.cli(["goal", "add", "Goal \(i)", "--target", "100", "--by", "2027-06-01"])
            try workspace.cli(["income", "add", "Income \(i)", "--amount", "100", "--every", "monthly on day 25"])
            try workspace.cli(["debt", "log", "\(i)", "--on", "2026-0\(i)-10"])
        }
        var ran = 0, succeeded = 0, refused: [String] = []
        for path in try Self.commands() where !["serve", "notify-test", "export", "doctor", "mail-send"].contains(path[0]) {
            let text = try CLIProcess.run(["help"] + path).stdout
            let examples = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "examples:" }.dropFirst().prefix { !$0.isEmpty }
            for example in examples where !example.contains("~") {
                let copy = workspace.folder.path("example.sqlite")
                try? FileManager.default.removeItem(atPath: copy)
                try FileManager.default.copyItem(atPath: workspace.db, toPath: copy)
                let arguments = Array(Self.words(String(example)).dropFirst())
                let r = try CLIProcess.run(["--db", copy] + workspace.globals + arguments)
                #expect(r.status != 2 && r.status < 128, "\(example): \(r.status) \(r.stderr)")
                // Answers need reminders that went out (no runner ran here): only parsed, and
                // answered with 65 naming what is missing (they run against serve elsewhere).
                if path[0] == "reminder" && path[1] != "list" {
                    #expect(r.status == 65 && r.stderr.contains("reminder"), "\(example): \(r.status) \(r.stderr)")
                    continue
                }
                ran += 1
                if r.status == 0 { succeeded += 1 } else { refused.append("\(example): \(r.stderr)") }
            }
        }
        #expect(ran >= 90, "only \(ran) examples ran")
        // The rest answer 65 for the state of this one database: an unskip of what is not skipped.
        #expect(succeeded >= ran * 9 / 10, "only \(succeeded) of \(ran) examples exit 0:\n\(refused.joined())")
    }

    @Test(
        "the topics explain the syntax the options take",
        arguments: [
            ("schedules", ["monthly on day 31", "every other week on fri", "from YYYY-MM-DD", "at HH:MM", "spring-forward"]),
            ("dates", ["tomorrow", "next fri", "+3d", "+2m", "dec 24", "in 3 days", "end of month", "9am", "03/04"]),
            ("offsets", ["10m", "1d", "calendar days", "morning digest"]),
            ("config", ["timeZone", "morningDigest", "horizon", "graceWindow", "reminders", "route", "channels.email", "calendars", "line and column"]),
        ])
    func topics(topic: String, words: [String]) throws {
        let r = try CLIProcess.run(["help", topic])
        #expect(r.status == 0)
        for word in words { #expect(r.stdout.contains(word), "help \(topic) lacks \(word)") }
        #expect(try CLIProcess.run(["help"]).stdout.contains("  \(topic) "))
    }

    @Test(
        "a mistyped command, verb, option or topic is exit 2 with the nearest valid one",
        arguments: [
            (["tood", "list"], "unknown command \"tood\" (did you mean \"todo\"?)"),
            (["todo", "lsit"], "unknown todo command \"lsit\" (did you mean \"list\"?)"),
            (["todo", "add", "x", "--dua", "fri"], "unknown option --dua (did you mean \"--due\"?)"),
            (["preview", "--from", "2026-12-01", "--too", "2026-12-02"], "unknown option --too (did you mean \"--to\"?)"),
            (["help", "schedule"], "no help for \"schedule\" (did you mean \"schedules\"?)"),
            (["help", "debt", "payoff"], "no help for \"debt payoff\" (did you mean \"pay-off\"?)"),
            (["agneda"], "(did you mean \"agenda\"?)"),
            (["xyzzy"], "unknown command \"xyzzy\""),
        ])
    func nearest(arguments: [String], message: String) throws {
        let r = try CLIProcess.run(arguments)
        CLIProcess.expectFailure(r, status: 2, mentioning: [message])
        if message.hasPrefix("unknown command \"xyzzy\"") { #expect(!r.stderr.contains("did you mean"), "\(r.stderr)") }
    }

    @Test(
        "--version names the release and the commit; a build the Makefile did not make says the commit is unknown; NEWS and the packaging changelog name the same release"
    )
    func version() throws {
        let said = try CLIProcess.run(["--version"])
        #expect(said.status == 0)
        // The tests run a plain `swift build`: no commit was given to it.
        let release = try #require(said.stdout.firstMatch(of: /^dawnlet-remind ([0-9]+\.[0-9]+\.[0-9]+) \(commit unknown\)\n$/)).1
        let news = try String(contentsOf: Repository.root.appendingPathComponent("NEWS"), encoding: .utf8)
        #expect(news.split(separator: "\n").first { $0.hasPrefix("dawnlet-remind ") }?.hasPrefix("dawnlet-remind \(release) (") == true)
        let changelog = try String(contentsOf: Repository.root.appendingPathComponent("packaging/debian/changelog"), encoding: .utf8)
        #expect(changelog.hasPrefix("dawnlet-remind (\(release)) "))
    }
}
