import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

@Suite struct ConfigTests {
    static func parse(_ text: String) throws -> Config {
        try Config(try JSON5.parse(Array(text.utf8)).value)
    }

    @Test(
        "the example file documents every key and loads as it is (nothing of a person's own: no zone, mail server or calendar); its commented examples load too"
    )
    func example() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config/config.example.json5"), encoding: .utf8)
        let config = try Self.parse(text)
        #expect(config.timeZone == nil)
        #expect(config.morningDigest == WallTime("08:00"))
        #expect(config.horizon == .seconds(14 * 86_400) && config.graceWindow == .seconds(12 * 3_600))
        #expect(config.reminders[.debt] == [.minutes(0), .days(3)])
        #expect(config.reminders[.income] == [])
        #expect(config.channels(for: .bill) == [.desktop])
        #expect(config.email == nil && config.calendars.isEmpty && config.exportTo == nil && config.quietHours == nil)
        #expect(config.command.argv == ["notify-send", "--app-name=Dawnlet", "{title}", "{body}"])
        for key in [
            "timeZone", "morningDigest", "horizon", "graceWindow", "reminders", "route", "channels", "calendars",
            "expire", "snooze", "fallback", "argv", "timeout", "url", "tls", "from", "to", "user", "passwordFile",
            "sendmail", "caFile", "readOnly", "escalate", "lists", "mute",
        ] {
            #expect(text.contains(key), "the example mentions \(key)")
        }

        // Each example written out but commented, taken in as the comments say: `// ` taken away.
        var inEmail = false
        let enabled = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let code = line.drop { $0 == " " }
            let starts = ["// email: {", "// timeZone:", "// quietHours:", "// escalate:", "// lists:", "// bill:", "// { name:", "// export:"].contains {
                code.hasPrefix($0)
            }
            if code.hasPrefix("// email: {") { inEmail = true }
            defer { if inEmail && code.hasPrefix("// },") { inEmail = false } }
            guard starts || inEmail, let slashes = line.range(of: "// ") else { return String(line) }
            return line.replacingCharacters(in: slashes, with: "")
        }.joined(separator: "\n")
        let full = try Self.parse(enabled)
        #expect(full.timeZone == "Europe/Berlin")
        #expect(full.channels(for: .bill) == [.desktop, .email])
        #expect(full.email?.url == "smtp://mail.example.org:587")
        #expect(full.email?.host == "mail.example.org" && full.email?.hostIsLoopback == false)
        #expect(full.email?.timeout == .seconds(30) && full.email?.caFile == nil)
        #expect(full.calendars.map(\.name) == ["work"])
        #expect(full.quietHours != nil && full.exportTo != nil)
        #expect(full.escalate[.todo] == [EscalationStep(after: .seconds(900), to: [.command])])
        #expect(full.lists.byTag["work"]?.mute?.days == WeekdaySet([.saturday, .sunday]) && full.lists.byTag["health"]?.style.urgency == .critical)
    }

    @Test("an empty file is the defaults")
    func defaults() throws {
        let config = try Self.parse("{}")
        #expect(config == Config())
        #expect(config.reminders[.goal] == [.days(7), .days(0)])
        #expect(config.channels(for: .todo) == [.desktop])
    }

    @Test("durations", arguments: [("30s", 30), ("10m", 600), ("12h", 43_200), ("14d", 1_209_600), ("1h30m", 5_400), ("0s", 0)])
    func durations(_ text: String, _ seconds: Int) {
        #expect(DurationText.parse(text) == .seconds(seconds))
        #expect(DurationText.format(.seconds(seconds)) == (text == "1h30m" ? "1h30m" : text))
    }

    @Test("not durations", arguments: ["", "10", "m", "10x", "1.5h", "-1h", "h1", "99999999h"])
    func badDurations(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test(
        "tls: none is allowed for a loopback host, written as an address or localhost",
        arguments: [
            "127.0.0.1", "127.0.0.1:2525", "127.1.2.3", "localhost", "LOCALHOST:25", "[::1]:25",
        ])
    func loopbackHosts(_ authority: String) throws {
        let config = try Self.parse("{ channels: { email: { url: 'smtp://\(authority)', tls: 'none', from: 'a@b', to: ['c@d'] } } }")
        #expect(config.email?.hostIsLoopback == true)
    }

    @Test(
        "every error names the key path and the problem",
        arguments: [
            ("[1]", "", "must be an object"),
            ("{ timezone: 'UTC' }", "timezone", "unknown key"),
            ("{ horizon: 14 }", "horizon", "must be a string, not a number"),
            ("{ horizon: '14x' }", "horizon", "is not a duration"),
            ("{ horizon: '10m' }", "horizon", "between 1h and 366d"),
            ("{ graceWindow: '8d' }", "graceWindow", "at most 7d"),
            ("{ morningDigest: '25:00' }", "morningDigest", "HH:MM"),
            ("{ reminders: { meeting: [] } }", "reminders.meeting", "unknown kind"),
            ("{ reminders: { event: ['soon'] } }", "reminders.event[0]", "not an offset"),
            ("{ reminders: { event: '10m' } }", "reminders.event", "must be a list"),
            ("{ route: { bill: ['pager'] } }", "route.bill", "unknown channel"),
            ("{ route: { chores: ['desktop'] } }", "route.chores", "unknown kind"),
            ("{ route: { bill: ['email'] } }", "route.bill", "channels.email is not set up"),
            ("{ channels: { pager: {} } }", "channels.pager", "unknown key"),
            ("{ channels: { desktop: { snooze: '4s' } } }", "channels.desktop.snooze", "at least 5s"),
            ("{ channels: { desktop: { fallback: 'desktop' } } }", "channels.desktop.fallback", "command, email or null"),
            ("{ channels: { command: { argv: [] } } }", "channels.command.argv", "at least the program"),
            ("{ channels: { command: { argv: ['x', 1] } } }", "channels.command.argv[1]", "must be a string"),
            ("{ channels: { command: { timeout: '2h' } } }", "channels.command.timeout", "between 1s and 1h"),
            ("{ channels: { email: { url: 'http://x', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "smtp://"),
            ("{ channels: { email: { url: 'smtp://x' } } }", "channels.email", "needs from and to"),
            ("{ channels: { email: { from: 'a@b', to: ['c@d'] } } }", "channels.email", "either url or sendmail"),
            ("{ channels: { email: { url: 'smtp://x', tls: 'ssl', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "starttls or none"),
            ("{ channels: { email: { url: 'smtp://x', from: 'a@b\\r\\nBcc: x@y', to: ['c@d'] } } }", "channels.email", "line break"),
            ("{ channels: { email: { url: 'smtp://mail.example.org', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            ("{ channels: { email: { url: 'smtps://127.0.0.1', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "smtps://"),
            // Names that only look like loopback addresses go to another host.
            ("{ channels: { email: { url: 'smtp://127.0.0.1.evil.com', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            ("{ channels: { email: { url: 'smtp://127.0.0.1.evil.com:25', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            ("{ channels: { email: { url: 'smtp://127.evil.com', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            ("{ channels: { email: { url: 'smtp://127.0.0.256', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            ("{ channels: { email: { url: 'smtp://localhost.evil.com', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.tls", "loopback"),
            // Text a simple reading and curl's would split at different places: refused whole.
            ("{ channels: { email: { url: 'smtp://0.0.0.0#@127.0.0.1:2525', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "has no place"),
            ("{ channels: { email: { url: 'smtp://0.0.0.0?@127.0.0.1:2525', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "has no place"),
            (
                "{ channels: { email: { url: 'smtp://mail.example.com#@localhost', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.url",
                "has no place"
            ),
            ("{ channels: { email: { url: 'smtp://me:secret@mail.example.com', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "user and passwordFile"),
            ("{ channels: { email: { url: 'smtp://127.0.0.1%2eevil.com', tls: 'none', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "has no place"),
            ("{ channels: { email: { url: 'smtp://', from: 'a@b', to: ['c@d'] } } }", "channels.email.url", "names no host"),
            ("{ channels: { email: { url: 'smtp://x', from: 'a@b', to: ['c@d'], timeout: '0s' } } }", "channels.email.timeout", "between"),
            ("{ channels: { email: { sendmail: [], from: 'a@b', to: ['c@d'] } } }", "channels.email.sendmail", "program"),
            ("{ calendars: [ { name: 'a' } ] }", "calendars[0]", "needs a name and a path"),
            ("{ calendars: [ { name: 'a', path: '/x', colour: 'red' } ] }", "calendars[0].colour", "unknown key"),
            ("{ calendars: [ { name: 'a', path: '/x' }, { name: 'a', path: '/y' } ] }", "calendars[1].name", "used twice"),
            ("{ calendars: [ { name: 'work:home', path: '/x' } ] }", "calendars[0].name", "holds a colon"),
        ])
    func errors(_ text: String, _ keyPath: String, _ problem: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.keyPath == keyPath && e.problem.contains(problem)
        }
    }
}
