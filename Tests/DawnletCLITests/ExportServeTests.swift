import DawnletTestSupport
import Foundation
import Testing

/// `export: { to }`: `serve` keeps our items' files in the folder by itself, and reads back what
/// other devices wrote into them.
extension ServeTests {
    @Test("serve exports by itself: an alarm acknowledged in the file by another program does not fire; a Done here reaches the folder within a second")
    func exportsByItself() throws {
        let vdir = folder.path("vdir")
        try cli("todo", "add", "Acknowledged elsewhere", "--due", "2026-12-04T09:00", "--remind", "0m")
        try cli("todo", "add", "Fires here", "--due", "2026-12-04T09:00", "--remind", "0m")
        try cli("todo", "add", "Renew passport", "--due", "2026-12-20")
        try cli("export", "--to", vdir)
        try beganAt("2026-12-04T07:00:00Z")
        // Thunderbird, on another machine, acknowledged the first one's alarm at 09:00.
        let names = try FileManager.default.contentsOfDirectory(atPath: vdir)
        let first = "\(vdir)/\(try #require(names.first { $0.hasSuffix("-todo-1.ics") }))"
        let text = try String(contentsOfFile: first, encoding: .utf8)
        try text.replacingOccurrences(of: "BEGIN:VALARM", with: "X-MOZ-LASTACK:20261204T080000Z\r\nBEGIN:VALARM")
            .write(toFile: first, atomically: true, encoding: .utf8)

        try writeConfig("export: { to: \"\(vdir)\" },")
        let server = try Server(db: db, config: config, start: "2026-12-04 07:59:57")
        // Both were due at 09:00, in one round: once the one sent is recorded, the round is over
        // (whatever else it sent is checked once serve has stopped, which waits for it).
        #expect(server.waitForLog("delivered todo:2:2026-12-04:0m@"), "\(server.logSoFar())")

        // Done here: the folder has it within a second.
        let third = "\(vdir)/\(try #require(names.first { $0.hasSuffix("-todo-3.ics") }))"
        let began = Date()
        try cli("todo", "done", "3")
        while !((try? String(contentsOfFile: third, encoding: .utf8)) ?? "").contains("STATUS:COMPLETED") && Date().timeIntervalSince(began) < 5 {
            usleep(10_000)
        }
        let took = Date().timeIntervalSince(began)
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(took < 1, "the Done reached the folder after \(took) s\n\(log)")
        #expect(lines().map { $0.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "" } == ["todo:2:2026-12-04:0m"], "\(lines())")
        #expect(!log.contains("todo:1:2026-12-04:0m@"), "\(log)")
        #expect(log.contains("todo 1: acknowledged up to 2026-12-04T09:00:00+01:00 on another device"), "\(log)")
        // The file keeps what Thunderbird wrote.
        #expect(try String(contentsOfFile: first, encoding: .utf8).contains("X-MOZ-LASTACK:20261204T080000Z\r\n"))
    }
}
