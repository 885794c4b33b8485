import DawnletTestSupport
import Foundation
import Testing

/// The manual pages: made from the command table, they name every command and every
/// config key the binary accepts, and groff renders them without a warning.
@Suite struct ManPageTests {
    func page(_ section: String) throws -> String {
        let result = try CLIProcess.run(["man-page", section])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// groff's warnings (-ww) on a page, and `man -l`'s.
    func warnings(_ text: String) throws -> String {
        try Repository.require("/usr/bin/groff", "groff")
        let folder = try TemporaryFolder()
        let path = folder.path("page.man")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (groffStatus, groff) = try runTool("/usr/bin/groff", ["-ww", "-man", "-Tutf8", "-z", path], environment: ["PATH": "/usr/bin:/bin"])
        let (manStatus, man) = try runTool(
            "/bin/sh", ["-c", "MANWIDTH=80 man --warnings=w -l \"$1\" 2>&1 >/dev/null", "sh", path],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        return (groffStatus == 0 ? "" : "groff exit \(groffStatus)") + groff + (manStatus == 0 ? "" : "man exit \(manStatus)") + man
    }

    @Test("dawnlet-remind(1) names every command, with its options; renders without warnings")
    func commands() throws {
        let text = try page("1")
        let problems = try warnings(text)
        #expect(problems.isEmpty, "\(problems)")
        for path in try HelpTests.commands() {
            // In the page as roff writes it: bold words, dashes escaped.
            let usage = try CLIProcess.run(["help"] + path).stdout.split(separator: "\n")[0].dropFirst("usage: dawnlet-remind ".count)
            let options = usage.matches(of: /--([a-z-]+)/).map { String($0.1) }.filter { !["tz", "now"].contains($0) }
            let marked = path.map { "\\fB\($0.replacingOccurrences(of: "-", with: "\\-"))\\fR" }.joined(separator: " ")
            #expect(text.contains(".TP\n" + marked), "\(path) is not in the page")
            for option in options { #expect(text.contains("\\fB\\-\\-\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "--\(option) of \(path)") }
        }
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(text.contains("\n.SH \(section)\n"), "no \(section)")
        }
        for code in ["0", "1", "2", "65", "66", "78"] { #expect(text.contains(".TP\n.B \(code)\n"), "exit \(code)") }
        // The synopsis names every global option the top-level usage names.
        let synopsis = try #require(text.split(separator: ".SH ").first { $0.hasPrefix("SYNOPSIS") })
        let usage = try CLIProcess.run(["help"]).stdout.split(separator: "\n").first { $0.hasPrefix("usage: ") } ?? ""
        let globals = usage.matches(of: /--([a-z]+)/).map { String($0.1) }
        #expect(globals.contains("color"), "\(usage)")
        for option in globals { #expect(synopsis.contains("\\fB\\-\\-\(option)\\fR"), "--\(option) not in the synopsis") }
        let unit = try String(contentsOf: Repository.root.appendingPathComponent("systemd/dawnlet-remind.service"), encoding: .utf8)
        #expect(unit.contains("\nDocumentation=man:dawnlet-remind(1) man:dawnlet-remind.json5(5)\n"))
    }

    /// The keys the binary accepts in one object, as its error for an unknown key lists them.
    func knownKeys(_ config: String, _ marker: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let path = folder.path("config.json5")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLIProcess.run(["--db", folder.path("d.sqlite"), "--config", path, "today"])
        let list = try #require(result.stderr.firstMatch(of: try Regex("\\(\(marker) ([^)]*)\\)"))?.output[1].substring, "\(result.stderr)")
        return list.split(separator: ",").map { String($0.drop { $0 == " " }) }
    }

    @Test("dawnlet-remind.json5(5) names every key the binary accepts; renders without warnings")
    func configKeys() throws {
        let text = try page("5")
        let problems = try warnings(text)
        #expect(problems.isEmpty, "\(problems)")
        var paths: [String] = []
        for (object, config) in [
            ("", "{ zz: 1 }"), ("channels.", "{ channels: { zz: 1 } }"), ("channels.desktop.", "{ channels: { desktop: { zz: 1 } } }"),
            ("channels.command.", "{ channels: { command: { zz: 1 } } }"), ("channels.email.", "{ channels: { email: { zz: 1 } } }"),
            ("calendars[].", "{ calendars: [ { zz: 1 } ] }"),
        ] {
            paths += try knownKeys(config, "known:").map { object + $0 }
        }
        #expect(paths.count >= 25, "\(paths)")
        for path in paths { #expect(text.contains(".TP\n.B \(path)\n"), "\(path) is not in the page") }
        // The kinds reminders and route take are named in their entries.
        for kind in try knownKeys("{ reminders: { zz: [] } }", "one of") {
            #expect(text.contains("\(kind) ("), "reminders kind \(kind)")
        }
        #expect(try CLIProcess.run(["man-page", "3"]).status == 2)
    }
}
