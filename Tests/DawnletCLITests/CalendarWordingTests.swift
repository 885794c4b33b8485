import DawnletTestSupport
import Foundation
import Testing

extension ServeTests {
    @Test(
        "a reminder's body says what its item is and when, per kind: an event starts, a todo is due (a calendar file's without DUE starts), a habit is at its time; a calendar file's todo and event read as ours, in the morning digest too"
    )
    func calendarWordedPerKind() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VTODO\r\nUID:rent@example.org\r\nSUMMARY:Send the rent\r\nDUE:20261201T080001Z\r\nEND:VTODO\r\n\
        BEGIN:VTODO\r\nUID:report@example.org\r\nSUMMARY:Start the report\r\nDTSTART:20261201T080001Z\r\nEND:VTODO\r\n\
        BEGIN:VEVENT\r\nUID:standup@example.org\r\nSUMMARY:Standup\r\nDTSTART:20261201T080002Z\r\nEND:VEVENT\r\n\
        BEGIN:VTODO\r\nUID:plants@example.org\r\nSUMMARY:Water the plants\r\nDUE;VALUE=DATE:20261201\r\nEND:VTODO\r\n\
        BEGIN:VEVENT\r\nUID:fair@example.org\r\nSUMMARY:Book fair\r\nDTSTART;VALUE=DATE:20261201\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:open@example.org\r\nSUMMARY:Open day\r\nDTSTART;VALUE=DATE:20261201\r\n\
        BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Open day\r\nTRIGGER;VALUE=DATE-TIME:20261201T080002Z\r\nEND:VALARM\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/work.ics", atomically: true, encoding: .utf8)
        // Each message as the command gets it: its key, its kind and its body (as Python writes a string).
        let script = "import sys; open(sys.argv[1],'a').write('%s %s %r\\\\n' % (sys.argv[2], sys.argv[3], sys.argv[4]))"
        try """
        { timeZone: "UTC", graceWindow: "12h", reminders: { calendar: ["0m"], event: ["0m"] }, route: { default: ["command"] },
          calendars: [ { name: "work", path: "\(vdir)" } ],
          channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{key}", "{kind}", "{body}"], timeout: "5s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try cli("--now", "2026-11-30T12:00", "todo", "add", "Call mum", "--due", "2026-12-01T08:00")
        try cli("--now", "2026-11-30T12:00", "event", "add", "Dentist", "--start", "2026-12-01T08:00")
        try cli("--now", "2026-11-30T12:00", "habit", "add", "Meds", "--days", "daily", "--at", "08:00")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:57")
        let got = waitForLines(8, seconds: 15)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(
            got.sorted() == [
                "digest:2026-12-01 digest 'event: Book fair\\ntodo: Water the plants'",
                "event:1:2026-12-01:0m event 'Event starts at 08:00'",
                "habit:1:2026-12-01:0m habit 'Habit at 08:00'",
                "ics:work:open@example.org:alarm:2026-12-01T08:00:02 calendar 'Event on 2026-12-01'",
                "ics:work:rent@example.org:0m calendar 'Todo due at 08:00'",
                "ics:work:report@example.org:0m calendar 'Todo starts at 08:00'",
                "ics:work:standup@example.org:0m calendar 'Event starts at 08:00'",
                "todo:1:2026-12-01:0m todo 'Todo due at 08:00'",
            ], "\(got)\n\(log)")
    }
}
