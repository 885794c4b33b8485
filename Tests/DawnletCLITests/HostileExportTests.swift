import DawnletTestSupport
import Foundation
import Testing

/// `export --to DIR` into a folder someone else can write (a sync tool's, a CalDAV server's):
/// what stands at one of our names and is not ours is left alone, named, and never read
/// through, written through or given our file's content; nothing outside the folder changes.
@Suite struct HostileExportTests {
    let folder: TemporaryFolder
    let db: String
    let out: String
    let secret: String
    let secretText = "PRIVATE 5f3c1e ssh-ed25519 AAAA\n"

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("a.sqlite")
        out = folder.path("vdir")
        secret = folder.path("id_ed25519")
        try secretText.write(toFile: secret, atomically: false, encoding: .utf8)
        chmod(secret, 0o600)
    }

    func run(_ arguments: String...) throws -> CLIResult { try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:00"] + arguments) }

    /// The exported file whose name ends so (`-todo-1.ics`).
    func file(_ suffix: String) throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(suffix) })
        return "\(out)/\(name)"
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    /// Every body the database keeps of exported files, as one text.
    func keptBodies() throws -> String {
        let script =
            "import sqlite3,sys; print('\\n'.join(b or '' for r in sqlite3.connect(sys.argv[1]).execute('SELECT body, ours FROM calendar_exports') for b in r))"
        let (status, output) = try runTool("/usr/bin/python3", ["-c", script, db], environment: [:])
        #expect(status == 0)
        return output
    }

    @Test("a symlink named like our file to a private file outside: not read into the export or the database, not written through, named, exit 1")
    func symlinkToPrivateFile() throws {
        try run("todo", "add", "Pay rent", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Call mum", "--due", "2026-12-11T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let rent = try file("-todo-1.ics")
        #expect(unlink(rent) == 0 && symlink(secret, rent) == 0)
        try run("todo", "edit", "1", "--title", "Pay the rent").expectSuccess()
        try run("todo", "edit", "2", "--title", "Call mum back").expectSuccess()

        let result = try run("export", "--to", out)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(rent): a symbolic link, not followed: not ours, left alone"), "\(result.stderr)")
        #expect(result.stderr.contains("1 file not exported"), "\(result.stderr)")
        // The other item is exported as ever.
        #expect(try String(contentsOfFile: try file("-todo-2.ics"), encoding: .utf8).contains("SUMMARY:Call mum back"))
        #expect(mode(rent) & S_IFMT == S_IFLNK, "the link stays a link")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretText)
        #expect(mode(secret) & 0o7777 == 0o600)
        #expect(!(try keptBodies()).contains("PRIVATE"), "the private file's content reached the database")
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where !name.hasSuffix("-todo-1.ics") {
            #expect(!(try String(contentsOfFile: "\(out)/\(name)", encoding: .utf8)).contains("PRIVATE"), "\(name) holds the private file")
        }
        // doctor counts it apart from ours.
        let config = folder.path("config.json5")
        try "{ export: { to: \"\(out)\" } }".write(toFile: config, atomically: true, encoding: .utf8)
        let doctor = try CLIProcess.run(["--db", db, "--config", config, "doctor"])
        let name = (rent as NSString).lastPathComponent
        #expect(
            doctor.stdout.contains(
                "note export: \(out): 1 file of your todos and events, kept by serve; 1 named like them is not a file of ours (a link, a hard link, a folder…), "
                    + "left alone: first \(name); remove it and serve writes the files again\n"), "\(doctor.stdout)")
        // The item deleted: its "file" is still not ours, so it is not removed either.
        try run("todo", "delete", "1").expectSuccess()
        #expect(try run("export", "--to", out).status == 1)
        #expect(mode(rent) & S_IFMT == S_IFLNK)
    }

    @Test("a symlink to a setuid program named like our file: no file in the folder gains its mode; ours are 0600")
    func symlinkToSetuid() throws {
        try run("event", "add", "Dentist", "--start", "2026-12-10T14:30").expectSuccess()
        try run("todo", "add", "Stretch").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let dentist = try file("-event-1.ics")
        #expect(unlink(dentist) == 0 && symlink("/usr/bin/passwd", dentist) == 0)
        let before = mode("/usr/bin/passwd")
        try run("event", "edit", "1", "--title", "Dentist (moved)").expectSuccess()
        #expect(try run("export", "--to", out).status == 1)
        #expect(mode("/usr/bin/passwd") == before)
        for name in try FileManager.default.contentsOfDirectory(atPath: out) {
            let m = mode("\(out)/\(name)")
            #expect(m & S_IFMT == S_IFLNK || m & 0o7777 == 0o600, "\(name): \(String(m & 0o7777, radix: 8))")
        }
    }

    @Test("a file of ours given another mode (setuid, world-readable) by another program is written back 0600")
    func modeNotCopied() throws {
        try run("todo", "add", "Stretch", "--due", "2026-12-10T10:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let stretch = try file("-todo-1.ics")
        #expect(chmod(stretch, 0o4755) == 0)
        try run("todo", "edit", "1", "--title", "Stretch well").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        #expect(mode(stretch) & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: stretch, encoding: .utf8).contains("SUMMARY:Stretch well"))
    }

    @Test("a hard link, a FIFO or a folder at our name: left alone, named, never opened as ours; the outside file keeps its bytes")
    func otherThings() throws {
        try run("todo", "add", "One", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Two", "--due", "2026-12-10T11:00").expectSuccess()
        try run("todo", "add", "Three", "--due", "2026-12-10T12:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let (one, two, three) = (try file("-todo-1.ics"), try file("-todo-2.ics"), try file("-todo-3.ics"))
        #expect(unlink(one) == 0 && link(secret, one) == 0)
        #expect(unlink(two) == 0 && mkfifo(two, 0o600) == 0)
        #expect(unlink(three) == 0 && mkdir(three, 0o700) == 0)
        let result = try run("export", "--to", out)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(one): a file with other names (a hard link), not read: not ours, left alone"), "\(result.stderr)")
        #expect(result.stderr.contains("\(two): not a regular file: not ours, left alone"), "\(result.stderr)")
        #expect(result.stderr.contains("\(three): not a regular file: not ours, left alone"), "\(result.stderr)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretText)
        #expect(!(try keptBodies()).contains("PRIVATE"))
        #expect(mode(two) & S_IFMT == S_IFIFO && mode(three) & S_IFMT == S_IFDIR)
    }

    @Test("a file of ours grown past 16 MiB by another program is named, left alone and not read; the others are exported")
    func tooLarge() throws {
        try run("todo", "add", "One", "--due", "2026-12-10T10:00").expectSuccess()
        try run("todo", "add", "Two", "--due", "2026-12-10T11:00").expectSuccess()
        try run("export", "--to", out).expectSuccess()
        let one = try file("-todo-1.ics")
        let handle = try #require(FileHandle(forWritingAtPath: one))
        handle.truncateFile(atOffset: 17 << 20)
        try handle.close()
        let result = try run("export", "--to", out)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(one): larger than 16 MiB: not ours, left alone"), "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: one)[.size] as? Int == 17 << 20)
    }
}
