import DawnletTestSupport
import Foundation
import Testing

extension ServeTests {
    @Test("a calendar file's todo reads as a todo and its event as an event, in a reminder's message and in the morning digest")
    func calendarWordedPerKind() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VTODO\r\nUID:rent@example.org\r\nSUMMARY:Send the rent\r\nDUE:20261201T080001Z\r\nEND:VTODO\r\n\
        BEGIN:VEVENT\r\nUID:standup@example.org\r\nSUMMARY:Standup\r\nDTSTART:20261201T080002Z\r\nEND:VEVENT\r\n\
        BEGIN:VTODO\r\nUID:plants@example.org\r\nSUMMARY:Water the plants\r\nDUE;VALUE=DATE:20261201\r\nEND:VTODO\r\n\
        BEGIN:VEVENT\r\nUID:fair@example.org\r\nSUMMARY:Book fair\r\nDTSTART;VALUE=DATE:20261201\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/work.ics", atomically: true, encoding: .utf8)
        // Each message as the command gets it: its key, its kind and its body (as Python writes a string).
        let script = "import sys; open(sys.argv[1],'a').write('%s %s %r\\\\n' % (sys.argv[2], sys.argv[3], sys.argv[4]))"
        try """
        { timeZone: "UTC", graceWindow: "12h", reminders: { calendar: ["0m"] }, route: { default: ["command"] },
          calendars: [ { name: "work", path: "\(vdir)" } ],
          channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{key}", "{kind}", "{body}"], timeout: "5s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:57")
        let got = waitForLines(3, seconds: 15)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(
            got == [
                "digest:2026-12-01 digest 'event: Book fair\\ntodo: Water the plants'",
                "ics:work:rent@example.org:0m calendar 'Todo at 08:00'",
                "ics:work:standup@example.org:0m calendar 'Event at 08:00'",
            ], "\(got)\n\(log)")
    }
}
