import DawnletTestSupport
import Foundation
import Testing

/// `serve` on folders others write into and remove: the export folder and the calendars' folders.
extension ServeTests {
    /// Serve's published state for `next`: there once its first plan is made.
    func published(in runtime: String) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(runtime)/dawnlet-remind")) ?? []).contains { $0.hasPrefix("next-") }
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test(
        "serve's export folder: a link at our name is said once, never followed; hard links at its temporary names are not written; removed and made again, it is watched again and a Done there counts here"
    )
    func hostileExportFolder() throws {
        let vdir = folder.path("vdir"), runtime = folder.path("runtime")
        let secret = folder.path("secret")
        try "PRIVATE\n".write(toFile: secret, atomically: false, encoding: .utf8)
        chmod(secret, 0o600)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try cli("todo", "add", "Linked", "--due", "2026-12-10")
        try cli("todo", "add", "Done elsewhere", "--due", "2026-12-04T09:00", "--remind", "0m")
        try cli("todo", "add", "Fires", "--due", "2026-12-04T09:00", "--remind", "0m")
        try cli("export", "--to", vdir)
        let names = try FileManager.default.contentsOfDirectory(atPath: vdir).sorted()
        func path(_ id: Int) -> String { "\(vdir)/\(names.first { $0.hasSuffix("-todo-\(id).ics") } ?? "")" }
        let namespace = String(names[0].dropFirst("dawnlet-".count).prefix { $0 != "-" })
        #expect(unlink(path(1)) == 0 && symlink(secret, path(1)) == 0)
        try beganAt("2026-12-04T07:00:00Z")
        try writeConfig("export: { to: \"\(vdir)\" },")
        let server = try Server(db: db, config: config, start: "2026-12-04 07:59:40", environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(waitUntil { published(in: runtime) }, "serve made no plan")

        // Hard links planted at every name serve's temporary files once had (its pid is visible).
        let pid = try server.runnerPID()
        for id in 1...4 {
            #expect(link(secret, "\(vdir)/.dawnlet-\(namespace)-todo-\(id).ics.\(pid).tmp") == 0)
        }
        // Two changes to the linked item (each a pass over it), then one to another, waited for.
        try cli("todo", "edit", "1", "--title", "Linked again")
        try cli("todo", "edit", "1", "--title", "Linked once more")
        try cli("todo", "add", "Four", "--due", "2026-12-11")
        #expect(waitUntil { text("\(vdir)/dawnlet-\(namespace)-todo-4.ics").contains("SUMMARY:Four") })
        #expect(text(secret) == "PRIVATE\n", "a file outside the folder was written")
        var info = stat()
        #expect(lstat(path(1), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced")

        // The folder removed and made again: every file written again, and watched again.
        #expect(try runTool("/bin/rm", ["-rf", vdir], environment: [:]).0 == 0)
        #expect(mkdir(vdir, 0o700) == 0)
        #expect(waitUntil { (1...4).allSatisfy { text("\(vdir)/dawnlet-\(namespace)-todo-\($0).ics").contains("BEGIN:VTODO") } }, "not written again")
        // Another device completes todo 2 in the new folder: done here, and its reminder never goes out.
        let two = "\(vdir)/dawnlet-\(namespace)-todo-2.ics"
        try text(two).replacingOccurrences(of: "BEGIN:VALARM", with: "STATUS:COMPLETED\r\nLAST-MODIFIED:20261204T080000Z\r\nBEGIN:VALARM")
            .write(toFile: two, atomically: true, encoding: .utf8)
        #expect(waitUntil { (try? count("SELECT COUNT(*) FROM todo_occurrences WHERE definition_id = 2 AND status = 'done'")) == 1 }, "not done here")
        _ = waitForLines(1, seconds: 30)
        // Whatever else 09:00 brings comes within the same second.
        let fired = waitForLines(2, seconds: 1)
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(fired.count == 1 && fired.first?.contains("Fires|") == true, "\(fired)")
        #expect(log.components(separatedBy: "a symbolic link, not followed: not ours, left alone").count - 1 == 1, "said once:\n\(log)")
        #expect(log.contains("export: \(vdir) was removed; nothing is exported until it is there again"), "\(log)")
        #expect(log.contains("export: \(vdir) is there again: every file read back and written"), "\(log)")
        #expect(log.contains("todo 2: done on another device"), "\(log)")
        #expect(text(secret) == "PRIVATE\n")
    }

    @Test("a calendar folder removed and made again is read again and watched again; one made after serve started is read when it appears")
    func calendarFolderMadeAgain() throws {
        let work = folder.path("work"), later = folder.path("later"), runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        func event(_ uid: String, at trigger: String) -> String {
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)@example.org\r\nSUMMARY:\(uid)\r\n\
            DTSTART:20261201T081000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:\(trigger)\r\nEND:VALARM\r\n\
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """
        }
        try event("Removed", at: "20261201T080010Z").write(toFile: "\(work)/removed.ics", atomically: true, encoding: .utf8)
        try writeConfig("calendars: [ { name: \"work\", path: \"\(work)\" }, { name: \"later\", path: \"\(later)\" } ],")
        // Half a minute before the first alarm: time enough, on a loaded machine, for serve to start
        // and to see the folder go before "Removed" is due.
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:40", environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(waitUntil { published(in: runtime) }, "serve made no plan")
        #expect(try runTool("/bin/rm", ["-rf", work], environment: [:]).0 == 0)
        // Seen gone before it is made again (made again at once, the two are one change to it).
        #expect(server.waitForLog("calendar work: \(work) was removed; read again when it is there again"), "\(server.logSoFar())")
        #expect(mkdir(work, 0o700) == 0)
        try event("Again", at: "20261201T080012Z").write(toFile: "\(work)/again.ics", atomically: true, encoding: .utf8)
        // Only the new folder's watch can have told serve of it.
        #expect(waitForLines(1, seconds: 60).first?.hasSuffix(" Again|") == true, "\(lines())")
        #expect(mkdir(later, 0o700) == 0)
        try event("Later", at: "20261201T080014Z").write(toFile: "\(later)/later.ics", atomically: true, encoding: .utf8)
        let fired = waitForLines(2, seconds: 30)
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(fired.map { $0.split(separator: " ")[2...].joined(separator: " ") } == ["Again|", "Later|"], "\(fired)\n\(log)")
        #expect(log.contains("calendar work: \(work) was removed; read again when it is there again"), "\(log)")
    }
}

extension ServeTests {
    @Test("a snooze made on another device brings the reminder back once: not again after an export into another folder, nor after restarts")
    func snoozeElsewhereOnce() throws {
        let vdir = folder.path("vdir"), other = folder.path("other")
        try cli("todo", "add", "Stand-up", "--due", "2026-12-04T09:00", "--remind", "0m")
        try cli("export", "--to", vdir)
        try beganAt("2026-12-04T07:00:00Z")
        try writeConfig("export: { to: \"\(vdir)\" },")
        let file = "\(vdir)/\(try #require(try FileManager.default.contentsOfDirectory(atPath: vdir).first { $0.hasSuffix("-todo-1.ics") }))"
        // Ten times faster: 09:00 comes within a second.
        let server = try Server(db: db, config: config, start: "2026-12-04 07:59:55 x10")
        #expect(waitForLines(1, seconds: 10).count == 1)
        // Another device (Thunderbird) snoozes it until 09:02.
        try text(file).replacingOccurrences(of: "BEGIN:VALARM", with: "X-MOZ-SNOOZE-TIME:20261204T080200Z\r\nBEGIN:VALARM")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(waitForLines(2, seconds: 30).count == 2, "the snooze did not bring it back")
        let (status, log) = try server.stop()
        #expect(status == 0 && log.contains("todo 1: snoozed until 2026-12-04T09:02:00+01:00 on another device"), "\(log)")
        // An export by hand into another folder, then serve started again, twice.
        try cli("export", "--to", other)
        for restart in 0..<2 {
            let runtime = folder.path("runtime\(restart)")
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let again = try Server(db: db, config: config, start: "2026-12-04 08:10:0\(restart)", environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(waitUntil { published(in: runtime) }, "serve made no plan")
            // Whatever the start would send goes out at once; a second is ample for it.
            let fired = waitForLines(3, seconds: 1)
            let (code, text) = try again.stop()
            #expect(code == 0, "\(text)")
            #expect(fired.count == 2, "went out again after a restart:\n\(fired)\n\(text)")
            #expect(!text.contains("on another device"), "the snooze was applied again:\n\(text)")
        }
    }
}
