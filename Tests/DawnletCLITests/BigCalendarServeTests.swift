import DawnletTestSupport
import Foundation
import Testing

/// `serve` keeps a vdir's files parsed between plans: a change to one is read alone.
extension ServeTests {
    @Test("serve re-plans after one file of a 300-file vdir changed by reading and parsing that file alone, and plans what it now says")
    func oneChangedFileReadAlone() throws {
        let vdir = folder.path("big"), runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try BigCalendarTests.writeEvents(vdir, count: 300)
        try writeConfig("calendars: [ { name: \"big\", path: \"\(vdir)\" } ],")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:40", environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(server.waitForLog("calendar files: 300 read and parsed, 0 kept parsed from an earlier plan", seconds: 60), "\(server.logSoFar())")
        // One file rewritten in place: an alarm due in a few seconds.
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:e7@test\r\nSUMMARY:Changed\r\n\
        DTSTART:20261201T081000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT9M50S\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: "\(vdir)/e7.ics", atomically: true, encoding: .utf8)
        #expect(server.waitForLog("calendar files: 1 read and parsed, 299 kept parsed from an earlier plan", seconds: 60), "\(server.logSoFar())")
        // Others of the first day may go out late at start; the changed one goes out at its new time.
        _ = waitUntil(seconds: 60) { lines().contains { $0.contains(" ics:big:e7@test:") && $0.contains(" Changed|") } }
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(lines().contains { $0.contains(" ics:big:e7@test:") && $0.contains(" Changed|") }, "\(lines())\n\(log)")
    }

    @Test("serve that read a vdir's files on several threads sleeps after: no wake-up in 6 s on any of its threads")
    func idleAfterCalendar() throws {
        let vdir = folder.path("twenty")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        try BigCalendarTests.writeEvents(vdir, count: 20)
        try writeConfig("calendars: [ { name: \"twenty\", path: \"\(vdir)\" } ],")
        let server = try Server(db: db, config: config, start: nil)
        #expect(server.waitForLog("calendar files: 20 read and parsed", seconds: 30), "\(server.logSoFar())")
        let pid = try server.runnerPID()
        // Let what the first plan set going end (the state written, the plan logged).
        usleep(500_000)
        let before = voluntarySwitches(pid)
        usleep(6_000_000)
        let wakes = voluntarySwitches(pid) - before
        // Dispatch's pool, once used, wakes its process every second for good.
        #expect(wakes == 0, "\(wakes) wake-ups in 6 s after reading a calendar")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
    }
}
