import DawnletTestSupport
import Foundation
import Testing

/// Finding things: where each todo stands, and `find` across every kind.
@Suite struct FindTests {
    let workspace: Workspace
    var db: String { workspace.db }

    init() throws { workspace = try Workspace(globals: ["--now", "2026-12-01T10:00Z"]) }

    @discardableResult
    func cli(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, sourceLocation: sourceLocation)
    }

    @Test("todo list says where each todo stands; a repeating one's next occurrence skips what is done or skipped; filters")
    func standing() throws {
        try cli("todo", "add", "Tax return", "--due", "2026-11-20")
        try cli("todo", "add", "Dentist", "--due", "2026-12-05")
        try cli("todo", "add", "Water", "--every", "daily from 2026-11-01")
        try cli("todo", "add", "Call back")
        try cli("todo", "done", "4")
        try cli("todo", "done", "3", "--on", "2026-12-01")
        try cli("todo", "skip", "3", "--on", "2026-12-02")
        #expect(
            try cli("todo", "list").stdout == """
                #1  Tax return  due 2026-11-20  [overdue]
                #2  Dentist  due 2026-12-05  [open]
                #3  Water  (daily from 2026-11-01)  [open]  next 2026-12-03
                #4  Call back  [done]

                """)
        #expect(try cli("todo", "list", "--overdue").stdout == "#1  Tax return  due 2026-11-20  [overdue]\n")
        #expect(try cli("todo", "list", "--done").stdout == "#4  Call back  [done]\n")
        #expect(try cli("todo", "list", "--open").stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.map { $0.prefix(2) } == ["#1", "#2", "#3"])
        #expect(
            try cli("todo", "list", "--json").stdout.contains(
                #""id":3,"title":"Water","date":null,"time":null,"schedule":"daily from 2026-11-01","reminders":[],"status":"open","next":"2026-12-03""#))
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "todo", "list", "--open", "--done"]), status: 2, mentioning: ["give one of"])
    }

    @Test("find looks through every kind, in any case and without accents; nothing found says so")
    func find() throws {
        try cli("todo", "add", "Pay rent", "--due", "2026-12-01")
        try cli("event", "add", "Rental viewing", "--start", "2026-12-03T17:00")
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        try cli("subscription", "add", "Parent's streaming", "--amount", "-9.99", "--every", "monthly on day 5 from 2026-01-05")
        try cli("debt", "add", "Car", "--balance", "500", "--minimum", "50", "--day", "3")
        try cli("goal", "add", "Überweisung", "--target", "100")
        #expect(
            try cli("find", "RENT").stdout == """
                todo #1  Pay rent  (2026-12-01)
                event #1  Rental viewing  (2026-12-03 17:00)
                money #1  Rent  (-950.00 monthly on day 1 from 2026-01-01)
                subscription #1  Parent's streaming  (-9.99 monthly on day 5 from 2026-01-05)

                """)
        #expect(
            try cli("find", "uberweisung", "--json").stdout == #"{"found":[{"kind":"goal","definition_id":1,"title":"Überweisung","detail":"target 100.00"}]}"#
                + "\n")
        #expect(try cli("find", "bike").stdout == "nothing matches \"bike\"\n")
    }

    @Test("find finds the calendars' items too, each once at its next occurrence, with its calendar and the source its reminders' keys begin with")
    func calendarItems() throws {
        let vdir = workspace.folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VTODO\r\nUID:plumber@example.org\r\nSUMMARY:Call the plumber\r\nDUE:20261202T090000Z\r\nEND:VTODO\r\n\
        BEGIN:VEVENT\r\nUID:standup@example.org\r\nSUMMARY:Standup with the plumber\r\nDTSTART:20261201T090000Z\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:other@example.org\r\nSUMMARY:Lunch\r\nDTSTART:20261201T120000Z\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/items.ics", atomically: true, encoding: .utf8)
        let config = workspace.folder.path("config.json5")
        try "{ timeZone: \"UTC\", calendars: [ { name: \"work\", path: \"\(vdir)\" } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        try cli("todo", "add", "Pay the plumber")
        let found = try cli("--config", config, "find", "PLUMBER").stdout
        #expect(
            found == """
                todo #1  Pay the plumber
                calendar work  Standup with the plumber  (event 2026-12-01 09:00; ics:work:standup@example.org:20261201T090000Z)
                calendar work  Call the plumber  (todo 2026-12-02 09:00; ics:work:plumber@example.org)

                """, "\(found)")
        let json = try cli("--config", config, "find", "call the", "--json").stdout
        #expect(
            json.contains(
                #"{"kind":"calendar","calendar":"work","uid":"plumber@example.org","source":"ics:work:plumber@example.org","title":"Call the plumber""#),
            "\(json)")
    }
}
