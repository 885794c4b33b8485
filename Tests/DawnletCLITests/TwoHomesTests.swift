import DawnletTestSupport
import Foundation
import Testing

/// One reminder across a person's devices: a CalDAV server on 127.0.0.1 (Radicale, and again
/// Xandikos) and vdirsyncer syncing its one collection into two homes, each with its own database. Home A
/// has `serve` with a desktop (dunst); what it does to a calendar alarm is written into the file,
/// synced, and home B's plan and runner follow it. Both servers and every sync are started here.
extension ServeTests {
    /// The CalDAV server and a vdirsyncer config per home.
    final class CalDAV {
        /// The servers the two homes are tested through, each serving one collection on 127.0.0.1.
        enum Server: String, CaseIterable, CustomTestStringConvertible, Sendable {
            /// Radicale: a folder per collection, a file per item.
            case radicale
            /// Xandikos: a Git repository per collection, its calendar made at its first start.
            case xandikos

            var testDescription: String { rawValue }
        }

        let daemon: Daemon
        let port: Int
        let root: String
        let server: Server
        static let vdirsyncer = Repository.root.appendingPathComponent(".build/venv/bin/vdirsyncer").path
        static let radicale = Repository.root.appendingPathComponent(".build/venv/bin/radicale").path
        static let xandikos = Repository.root.appendingPathComponent(".build/venv/bin/xandikos").path

        /// The collection's URL: Radicale's as made here, Xandikos's default calendar.
        var collection: String {
            switch server {
            case .radicale: "http://127.0.0.1:\(port)/alice/work/"
            case .xandikos: "http://127.0.0.1:\(port)/alice/calendars/calendar/"
            }
        }

        init(folder: TemporaryFolder, server: Server = .radicale) throws {
            self.server = server
            try Repository.require(server == .radicale ? Self.radicale : Self.xandikos, "\(server) in the Python venv")
            try Repository.require(Self.vdirsyncer, "vdirsyncer in the Python venv")
            root = folder.path("caldav")
            let (_, portText) = try runTool(
                Repository.python, [Repository.scripts.appendingPathComponent("free-port.py").path], environment: ["PATH": "/usr/bin:/bin"])
            port = Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            switch server {
            case .radicale:
                let collection = "\(root)/storage/collection-root/alice/work"
                try FileManager.default.createDirectory(atPath: collection, withIntermediateDirectories: true)
                try #"{"tag": "VCALENDAR"}"#.write(toFile: "\(collection)/.Radicale.props", atomically: true, encoding: .utf8)
                try """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = none
                [storage]
                filesystem_folder = \(root)/storage
                [logging]
                level = warning
                """.write(toFile: "\(root)/radicale.conf", atomically: true, encoding: .utf8)
                daemon = try Daemon(Self.radicale, ["--config", "\(root)/radicale.conf"])
            case .xandikos:
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
                // Its principal and default calendar made at start; its state (keys, certificates) in the
                // test's folder; no systemd socket it could take from the environment.
                daemon = try Daemon(
                    Self.xandikos,
                    [
                        "serve", "--directory", "\(root)/storage", "--defaults", "--current-user-principal", "/alice/",
                        "--listen-address", "127.0.0.1", "--port", String(port), "--state-dir", "\(root)/state", "--no-detect-systemd",
                    ])
            }
            try waitUntilListening()
        }

        /// Returns once the server accepts a connection on its port (it may take a second to
        /// import its modules); throws if it exits first or is not there within 30 seconds.
        func waitUntilListening() throws {
            let deadline = Date().addingTimeInterval(30)
            while !Self.accepts(port: port) {
                guard daemon.process.isRunning else { throw ServeTestError("\(server) exited at start (status \(daemon.process.terminationStatus))") }
                guard Date() < deadline else { throw ServeTestError("\(server) is not listening on 127.0.0.1:\(port)") }
                usleep(50_000)  // between two connection attempts; the first that succeeds ends the wait
            }
        }

        /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
        static func accepts(port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }

        /// A home's vdir, kept in sync with the server's collection; discovered once.
        func home(_ name: String, in folder: TemporaryFolder) throws -> String {
            let vdir = folder.path("\(name)-vdir")
            try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
            try """
            [general]
            status_path = "\(folder.path("\(name)-status"))"
            [pair work]
            a = "local"
            b = "server"
            collections = null
            conflict_resolution = "a wins"
            [storage local]
            type = "filesystem"
            path = "\(vdir)"
            fileext = ".ics"
            [storage server]
            type = "caldav"
            url = "\(collection)"
            username = "alice"
            password = "not-checked"
            """.write(toFile: folder.path("\(name)-vdirsyncer.conf"), atomically: true, encoding: .utf8)
            let deadline = Date().addingTimeInterval(15)
            while true {
                let (status, output) = try vdirsyncer(name, "discover", in: folder)
                if status == 0 { break }
                guard Date() < deadline else { throw ServeTestError("vdirsyncer discover for \(name) failed: \(output)") }
                usleep(200_000)  // the server answering but not yet serving the collection
            }
            return vdir
        }

        @discardableResult
        func vdirsyncer(_ home: String, _ command: String, in folder: TemporaryFolder) throws -> (Int32, String) {
            try runTool(
                Self.vdirsyncer, ["-c", folder.path("\(home)-vdirsyncer.conf"), command],
                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder.url.path])
        }

        func sync(_ home: String, in folder: TemporaryFolder) throws {
            let (status, output) = try vdirsyncer(home, "sync", in: folder)
            guard status == 0 else { throw ServeTestError("vdirsyncer sync for \(home) failed: \(output)") }
        }
    }

    /// An event in `vdir` whose VALARM fell due two minutes ago.
    func writeMeeting(_ uid: String, into vdir: String) throws {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//another app//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:Meeting \(uid)\r\n\
        DTSTART:\(formatter.string(from: Date().addingTimeInterval(300)))\r\nBEGIN:VALARM\r\nUID:\(uid)-alarm\r\nACTION:DISPLAY\r\n\
        TRIGGER:-PT7M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: "\(vdir)/\(uid).ics", atomically: true, encoding: .utf8)
    }

    /// The calendar reminders home B's plan holds from an hour ago to a day ahead: key and time.
    func plannedInB(db: String, config: String) throws -> [String] {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let result = try CLIProcess.run([
            "--db", db, "--config", config, "preview", "--json",
            "--from", formatter.string(from: Date().addingTimeInterval(-3600)),
            "--to", formatter.string(from: Date().addingTimeInterval(86_400)),
        ])
        let reminders = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        return reminders.compactMap { $0["key"] as? String }.filter { $0.hasPrefix("ics:") }
    }

    @Test(
        "two homes, one CalDAV account: an alarm acknowledged in A is not due in B; a snooze in A fires in B at its time; A's export is in B once, after each re-export",
        arguments: CalDAV.Server.allCases
    )
    func twoHomes(server: CalDAV.Server) throws {
        let caldav = try CalDAV(folder: folder, server: server)
        let vdirA = try caldav.home("A", in: folder), vdirB = try caldav.home("B", in: folder)
        // Home A: this suite's database and config (desktop, the calendar writable); B its own.
        try writeConfig(
            "calendars: [ { name: \"work\", path: \"\(vdirA)\", readOnly: false, channels: [\"desktop\"] } ],",
            channels: "desktop: { snooze: \"10m\" }")
        let (dbB, configB) = (folder.path("B.sqlite"), folder.path("B.json5"))
        // Both databases begun before the meetings' alarms (two minutes ago): theirs to remind of.
        try CLIProcess.createDatabase(dbB, began: threeMinutesAgo())
        try cli("--now", threeMinutesAgo(), "missed", "--clear")
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"work\", path: \"\(vdirB)\" } ] }".write(toFile: configB, atomically: true, encoding: .utf8)

        // Made in A by another program, synced to B: due there too.
        try writeMeeting("done-in-a", into: vdirA)
        try writeMeeting("snoozed-in-a", into: vdirA)
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        #expect(try plannedInB(db: dbB, config: configB).count == 2)

        // A's runner shows both; Done on one, Snooze on the other.
        let session = try DesktopSession(notificationServer: true)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(2, seconds: 10) == 2)
        try session.invoke("Done")
        waitUntil(seconds: 5) { session.displayed() == 1 }
        try session.invoke("Snooze")
        func text(_ uid: String) -> String { (try? String(contentsOfFile: "\(vdirA)/\(uid).ics", encoding: .utf8)) ?? "" }
        waitUntil { (text("done-in-a") + text("snoozed-in-a")).contains("RELTYPE=SNOOZE") }
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        let snoozedFile = [text("done-in-a"), text("snoozed-in-a")].first { $0.contains("RELTYPE=SNOOZE") } ?? ""
        let snoozedUID = snoozedFile.contains("UID:done-in-a\r\n") ? "done-in-a" : "snoozed-in-a"
        let acknowledgedUID = snoozedUID == "done-in-a" ? "snoozed-in-a" : "done-in-a"
        let until = try #require(snoozedFile.firstMatch(of: /TRIGGER;VALUE=DATE-TIME:(\d{8}T\d{6}Z)/)?.1, "\(log)")

        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        let planned = try plannedInB(db: dbB, config: configB)
        #expect(!planned.contains { $0.contains(":\(acknowledgedUID):") }, "acknowledged in A: \(planned)")
        // The snooze's time, as a key writes it: 20261201T101000Z → 2026-12-01T10:10:00.
        let u = Array(until)
        let stamp = "\(String(u[0..<4]))-\(String(u[4..<6]))-\(String(u[6..<8]))T\(String(u[9..<11])):\(String(u[11..<13])):\(String(u[13..<15]))"
        #expect(planned == ["ics:work:\(snoozedUID):alarm:\(stamp)"], "snoozed in A until \(until): \(planned)")

        // B's own runner, its clock three seconds before the snooze (12 h of grace, so an alarm it
        // thought unacknowledged would go out late at once): it fires the snooze alone, on time.
        let firedB = folder.path("fired-B.txt")
        try """
        { timeZone: "Europe/Berlin", graceWindow: "12h",
          calendars: [ { name: "work", path: "\(vdirB)", channels: ["command"] } ],
          channels: { \(command.replacingOccurrences(of: fired, with: firedB)) } }
        """.write(toFile: configB, atomically: true, encoding: .utf8)
        let snoozeInstant = try #require(ISO8601DateFormatter().date(from: stamp + "Z"))
        let clock = DateFormatter()
        clock.timeZone = TimeZone(identifier: "UTC")
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let runnerB = try Server(db: dbB, config: configB, start: clock.string(from: snoozeInstant.addingTimeInterval(-3)))
        func firedInB() -> [String] {
            ((try? String(contentsOfFile: firedB, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        waitUntil { !firedInB().isEmpty }
        // Once the snooze is recorded: an alarm B took for unanswered would have gone out before.
        let (statusB, logB) = try stop(runnerB, after: "delivered ics:work:\(snoozedUID):alarm:\(stamp)@")
        #expect(statusB == 0, "\(logB)")
        let firedLines = firedInB()
        #expect(firedLines.count == 1, "B fired: \(firedLines)\n\(logB)")
        let parts = firedLines.first?.split(separator: " ", maxSplits: 2) ?? []
        #expect(parts.count == 3 && parts[1] == "ics:work:\(snoozedUID):alarm:\(stamp)", "\(firedLines)")
        if let at = parts.first.flatMap({ Double($0) }) {
            let due = snoozeInstant.timeIntervalSince1970
            #expect(at >= due && at < due + 1, "B fired the snooze \(at - due) s after its time")
        }

        // Dawnlet's own export in A is a calendar item in B: once, and once again after re-exports.
        try cli("todo", "add", "Exported in A", "--due", "2026-12-24T10:00")
        func exportedInB() throws -> Int {
            try caldav.sync("A", in: folder)
            try caldav.sync("B", in: folder)
            let today = try CLIProcess.run(["--db", dbB, "--config", configB, "today", "--date", "2026-12-24", "--json"])
            return today.stdout.components(separatedBy: "Exported in A").count - 1
        }
        try cli("export", "--to", vdirA, "--todos")
        #expect(try exportedInB() == 1)
        try cli("export", "--to", vdirA, "--todos")
        #expect(try exportedInB() == 1, "exported again unchanged")
        try cli("todo", "edit", "1", "--title", "Exported in A, renamed")
        try cli("export", "--to", vdirA, "--todos")
        #expect(try exportedInB() == 1, "the renamed one replaces it")
    }
}

extension ServeTests {
    /// The lines of `text` as written (Radicale writes LF, dawnlet CRLF).
    func physicalLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }).map(String.init)
    }

    @Test(
        "our own todos across two homes: A's todos fire in B; Done and Snooze on B's notifications reach A's serve, which does not fire the one and fires the other at its snooze; Done in A shows in B; what B wrote stays byte for byte",
        arguments: CalDAV.Server.allCases
    )
    func ownItemsAcrossHomes(server: CalDAV.Server) throws {
        let caldav = try CalDAV(folder: folder, server: server)
        let vdirA = try caldav.home("A", in: folder), vdirB = try caldav.home("B", in: folder)
        // Home A: two todos due two minutes ago (made before), one due tomorrow; exported.
        let (due, _) = twoMinutesAgo()
        let tomorrow = berlin(86_400, "yyyy-MM-dd")
        try cli("--now", threeMinutesAgo(), "todo", "add", "First of A", "--due", due, "--remind", "0m")
        try cli("--now", threeMinutesAgo(), "todo", "add", "Second of A", "--due", due, "--remind", "0m")
        try cli("todo", "add", "Done in A", "--due", tomorrow + "T10:00")
        try cli("--now", threeMinutesAgo(), "missed", "--clear")
        try cli("export", "--to", vdirA)
        let exported = try FileManager.default.contentsOfDirectory(atPath: vdirA).filter { $0.hasPrefix("dawnlet-") }.sorted()
        #expect(exported.count == 3)
        let ours = Dictionary(uniqueKeysWithValues: try exported.map { ($0, try String(contentsOfFile: "\(vdirA)/\($0)", encoding: .utf8)) })
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)

        // Home B reads them as a calendar: its runner shows both due ones; Done on one, Snooze on the other.
        let (dbB, configB) = (folder.path("B.sqlite"), folder.path("B.json5"))
        try CLIProcess.createDatabase(dbB, began: threeMinutesAgo())
        try """
        { timeZone: "Europe/Berlin", graceWindow: "12h", calendars: [ { name: "work", path: "\(vdirB)", readOnly: false, channels: ["desktop"] } ],
          channels: { desktop: { snooze: "10m" } } }
        """.write(toFile: configB, atomically: true, encoding: .utf8)
        func listedInB(_ title: String) throws -> Bool {
            try CLIProcess.run(["--db", dbB, "--config", configB, "today", "--date", tomorrow, "--json"]).stdout.contains(title)
        }
        // B's preview of tomorrow: the reminder of A's third todo, by its UID.
        func previewedInB() throws -> Bool {
            let preview = try CLIProcess.run([
                "--db", dbB, "--config", configB, "preview", "--from", tomorrow + "T00:00", "--to", tomorrow + "T23:59", "--json",
            ])
            return preview.stdout.contains("-todo-3@dawnlet-remind")
        }
        #expect(try listedInB("Done in A"))
        #expect(try previewedInB())
        let session = try DesktopSession(notificationServer: true)
        let runnerB = try Server(db: dbB, config: configB, start: nil, environment: session.environment)
        #expect(session.waitForDisplayed(2, seconds: 10) == 2)
        try session.invoke("Done")
        waitUntil(seconds: 5) { session.displayed() == 1 }
        try session.invoke("Snooze")
        // vdirsyncer names B's files its own way: each of A's names is found by its UID.
        func textB(_ name: String) -> String {
            let uid = name.dropLast(4) + "@dawnlet-remind"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: vdirB)) ?? []
            return names.lazy.compactMap { try? String(contentsOfFile: "\(vdirB)/\($0)", encoding: .utf8) }.first { $0.contains(uid) } ?? ""
        }
        waitUntil { exported.contains { textB($0).contains("RELTYPE=SNOOZE") } }
        let (statusB, logB) = try runnerB.stop()
        #expect(statusB == 0, "\(logB)")
        let snoozedName = try #require(exported.first { textB($0).contains("RELTYPE=SNOOZE") }, "\(logB)")
        let acknowledgedName = try #require(exported.first { $0 != snoozedName && textB($0).contains("ACKNOWLEDGED") }, "\(logB)")
        let until = try #require(textB(snoozedName).firstMatch(of: /TRIGGER;VALUE=DATE-TIME:(\d{8}T\d{6}Z)/)?.1)

        // Back in A, as the server has them: what B wrote into A's files.
        try caldav.sync("B", in: folder)
        try caldav.sync("A", in: folder)
        func textA(_ name: String) -> String { (try? String(contentsOfFile: "\(vdirA)/\(name)", encoding: .utf8)) ?? "" }
        var fromB: [String: [String]] = [:]
        for name in [snoozedName, acknowledgedName] {
            fromB[name] = physicalLines(textA(name)).filter { !physicalLines(ours[name] ?? "").contains($0) && !$0.hasPrefix("DTSTAMP") }
            #expect(fromB[name]?.contains { $0.hasPrefix("ACKNOWLEDGED") || $0.hasPrefix("X-MOZ-LASTACK") } == true, "\(textA(name))")
        }

        // A's serve, its clock three seconds before the snooze (12 h of grace: an alarm it thought
        // unanswered would go out late at once): it fires the snoozed todo alone, at its time.
        try writeConfig("export: { to: \"\(vdirA)\" },")
        let u = Array(until)
        let stamp = "\(String(u[0..<4]))-\(String(u[4..<6]))-\(String(u[6..<8]))T\(String(u[9..<11])):\(String(u[11..<13])):\(String(u[13..<15]))"
        let snoozeInstant = try #require(ISO8601DateFormatter().date(from: stamp + "Z"))
        let clock = DateFormatter()
        clock.timeZone = TimeZone(identifier: "UTC")
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let runnerA = try Server(db: db, config: config, start: clock.string(from: snoozeInstant.addingTimeInterval(-3)))
        let snoozedID = snoozedName.dropLast(4).split(separator: "-").last.map(String.init) ?? ""
        _ = waitForLines(1, seconds: 10)
        // The snooze recorded: A is idle when the Done is written.
        #expect(runnerA.waitForLog("delivered todo:\(snoozedID):"), "\(runnerA.logSoFar())")

        // Done in A: its file says so within a second, and B, after one sync, no longer lists it.
        let doneName = try #require(exported.first { $0.hasSuffix("-todo-3.ics") })
        let began = Date()
        try cli("todo", "done", "3")
        while !textA(doneName).contains("STATUS:COMPLETED") && Date().timeIntervalSince(began) < 5 { usleep(10_000) }
        let took = Date().timeIntervalSince(began)
        let (statusA, logA) = try runnerA.stop()
        #expect(statusA == 0, "\(logA)")
        let fired = lines()
        #expect(fired.count == 1, "A fired: \(fired)\n\(logA)")
        let parts = fired.first?.split(separator: " ", maxSplits: 2) ?? []
        #expect(parts.count == 3 && parts[1].hasPrefix("todo:\(snoozedID):"), "\(fired)")
        if let at = parts.first.flatMap({ Double($0) }) {
            let due = snoozeInstant.timeIntervalSince1970
            #expect(at >= due && at < due + 1, "A fired the snooze \(at - due) s after its time")
        }
        #expect(took < 1, "the Done reached A's folder after \(took) s")
        try caldav.sync("A", in: folder)
        try caldav.sync("B", in: folder)
        #expect(try !listedInB("Done in A"))
        #expect(try !previewedInB())

        // Exported again: every line B wrote is still there, byte for byte.
        try cli("export", "--to", vdirA)
        for (name, lines) in fromB {
            let now = physicalLines(textA(name))
            #expect(lines.allSatisfy(now.contains), "\(name) lost \(lines.filter { !now.contains($0) })")
        }
    }
}
