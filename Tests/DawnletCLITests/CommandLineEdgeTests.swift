import DawnletTestSupport
import Foundation
import Glibc
import Testing

/// The command line means what it says. `--` ends the options, and signals are blocked
/// only for `serve` itself, not for any command with the word "serve" in it.
@Suite struct CommandLineEdgeTests {
    @Test("todo add -- --help adds a todo titled --help")
    func doubleDash() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("d.sqlite")
        let added = try CLIProcess.run(["--db", db, "todo", "add", "--", "--help"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "1\n")
        let list = try CLIProcess.run(["--db", db, "todo", "list", "--json"])
        #expect(list.stdout.contains(#""title":"--help""#), "\(list.stdout)")
    }

    @Test("todo add serve, waiting on a locked database, is ended by SIGTERM at once")
    func serveAsTitle() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("d.sqlite")
        try CLIProcess.createDatabase(db)
        // Another program holds the write lock for 20 s: the CLI waits its 5 s busy timeout.
        let holder = try Daemon(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3, sys, time
                c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(20)
                """, db,
            ])
        #expect(holder.firstLine() == "locked")
        // Started with an empty signal mask: Foundation's Process would hand the child the test
        // thread's blocked SIGTERM (an open Foundation bug), and hide what is being tested.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let words: [String] = [CLIProcess.binary.path, "--db", db, "todo", "add", "serve"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { Glibc.strdup($0) } + [nil]
        let variables: [String] = ["PATH=/usr/bin:/bin", "HOME=/nonexistent", "LANG=C.UTF-8"]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { Glibc.strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, CLIProcess.binary.path, nil, &attributes, argv, envp) == 0)
        usleep(500_000)
        let sent = Date()
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        #expect(status & 0x7F == SIGTERM, "status \(status)")
        #expect(Date().timeIntervalSince(sent) < 2, "SIGTERM was blocked: it ended only after the busy timeout")
    }
}
