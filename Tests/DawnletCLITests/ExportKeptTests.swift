import DawnletTestSupport
import Foundation
import Testing

/// An export leaves unread the files that cannot have changed since they were last found the same
/// as ours, and still sees every change: to an item here, to a file there (replaced, or written in
/// place at the same size), and to what the files are made from (the config's reminders).
@Suite struct ExportKeptTests {
    let folder: TemporaryFolder
    let db: String
    let out: String
    let config: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("a.sqlite")
        out = folder.path("vdir")
        config = folder.path("config.json5")
        try "{ }".write(toFile: config, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess.run(["--db", db, "--config", config, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:00"] + arguments)
    }

    /// A change within the same tick of the file clock as the one before cannot be told from it: a
    /// file is left unread only once its times are that far behind. Waited out here.
    func settle() { usleep(80_000) }

    func file(_ suffix: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        let name = try #require(names.first { $0.hasSuffix(suffix) }, "\(names)")
        return "\(out)/\(name)"
    }

    /// `export`, traced: what it said, and which of the folder's .ics files it opened.
    func tracedExport() throws -> (said: String, opened: Set<String>) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { throw TestServerError("strace is missing: run `make deps`") }
        let trace = folder.path("trace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments =
            ["-f", "-e", "trace=open,openat", "-o", trace, CLIProcess.binary.path]
            + ["--db", db, "--config", config, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:00", "export", "--to", out]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let opened = lines.compactMap { line -> String? in
            guard let start = line.range(of: "\"\(out)/"), let end = line[start.upperBound...].firstIndex(of: "\""), !line.contains("ENOENT") else {
                return nil
            }
            let name = String(line[start.upperBound..<end])
            return name.hasSuffix(".ics") ? name : nil
        }
        return (said, Set(opened))
    }

    @Test("files unchanged there and here are left unread; an edit here, a file replaced or written in place there, a new default reminder: each seen")
    func keptAndSeen() throws {
        try run("todo", "add", "Pay rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Water plants", "--every", "daily at 09:00 from 2026-12-01", "--note", "Bring the can").expectSuccess()
        try run("event", "add", "Dentist", "--start", "2026-12-11T14:30").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        settle()
        // Read once more (written too lately to be left before), then left.
        let read = try tracedExport()
        #expect(read.said.contains("0 files written, 3 unchanged") && read.opened.count == 3, "\(read)")
        let left = try tracedExport()
        #expect(left.said.contains("0 files written, 3 unchanged") && left.opened.isEmpty, "\(left)")

        // Here: a title edited. Its file alone is read and written.
        try run("todo", "edit", "1", "--title", "Pay the rent").expectSuccess()
        let edited = try tracedExport()
        #expect(edited.said.contains("1 file written, 2 unchanged") && edited.opened.count == 1, "\(edited)")
        #expect(try String(contentsOfFile: try file("-todo-1.ics"), encoding: .utf8).contains("SUMMARY:Pay the rent"))

        // There: the event's file replaced, with a location; the todo's written in place, the
        // same size (the same inode), its note changed.
        settle()
        _ = try tracedExport()
        let dentist = try file("-event-1.ics")
        let text = try String(contentsOfFile: dentist, encoding: .utf8)
        try text.replacingOccurrences(of: "SUMMARY:Dentist", with: "SUMMARY:Dentist\r\nLOCATION:Room 4\r\nLAST-MODIFIED:20300101T000000Z")
            .write(toFile: dentist, atomically: true, encoding: .utf8)
        let plants = try file("-todo-2.ics")
        let before = try String(contentsOfFile: plants, encoding: .utf8)
        let same = before.replacingOccurrences(of: "DESCRIPTION:Bring the can", with: "DESCRIPTION:Bring the cat")
        #expect(same.utf8.count == before.utf8.count)
        let handle = try #require(FileHandle(forWritingAtPath: plants))
        try handle.write(contentsOf: Data(same.utf8))
        try handle.close()
        let there = try tracedExport()
        #expect(there.opened.count == 2, "\(there)")
        #expect(same != before)
        #expect(try run("event", "show", "1").stdout.contains("Room 4"), "the location added there is applied here")
        #expect(try run("todo", "show", "2").stdout.contains("Bring the cat"), "written in place, at the same size: still seen")

        // The config's default reminders, which every file without its own says: every file read
        // and written again with its alarm.
        settle()
        _ = try tracedExport()
        try "{ reminders: { todo: [\"1h\"], event: [\"1h\"] } }".write(toFile: config, atomically: true, encoding: .utf8)
        let defaults = try tracedExport()
        #expect(defaults.said.contains("3 files written") && defaults.opened.count == 3, "\(defaults)")
        #expect(try String(contentsOfFile: try file("-event-1.ics"), encoding: .utf8).contains("TRIGGER:-PT60M"))
    }
}
