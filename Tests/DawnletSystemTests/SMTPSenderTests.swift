import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// SMTPSender: several exchanges at once on one EventLoop through libcurl's multi interface,
/// against real servers on loopback: aiosmtpd writing a Maildir, and a socket that accepts
/// connections and never says a word.
@Suite struct SMTPSenderTests {
    @Test(
        "two sends at once on one loop: the one to a silent server times out after `timeout`, the other is delivered promptly; then a connect-only check; nothing stays on the loop or open"
    )
    func simultaneousSends() throws {
        let folder = try TemporaryFolder()
        let maildir = folder.path("maildir")
        let smtp = try LoopbackServer(.smtp(maildir: maildir))
        let silent = try LoopbackServer(.silent)
        let settings = try Self.settings(timeout: "2s")
        let loop = try EventLoop()
        let sender = try SMTPSender(loop: loop)
        #expect(sender.isIdle)

        // A guard, not a wait: the loop stops here only if a send never reports back.
        var gaveUp = false
        let deadline = EventLoop.RelativeTimer(loop: loop) {
            gaveUp = true
            loop.exit(1)
        }
        try deadline.arm(after: .seconds(20))

        // The two sends start together; when both have reported, the connect-only check of
        // `doctor` starts from inside the last report (greeting and EHLO, no message), and the
        // loop stops when it has reported too.
        var finished: [String: (error: MailError?, seconds: Double)] = [:]
        var afterBoth: (idle: Bool, connected: Bool?)?
        let start = ContinuousClock.now
        func done(_ name: String) -> (MailError?) -> Void {
            { error in
                #expect(finished[name] == nil, "\(name) reported twice")
                let elapsed = ContinuousClock.now - start
                finished[name] = (error, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                if name == "check" {
                    loop.exit(0)
                } else if finished.count == 2 {
                    afterBoth = (sender.isIdle, try? Self.clientConnected(to: smtp.port) || Self.clientConnected(to: silent.port))
                    sender.send(url: "smtp://127.0.0.1:\(smtp.port)", settings: settings, password: nil, message: nil, done: done("check"))
                }
            }
        }
        let message = Array("From: Dawnlet <dawnlet@example.org>\r\nTo: me@example.org\r\nSubject: Sent beside a silent server\r\n\r\nIt went out.\r\n".utf8)
        sender.send(url: "smtp://127.0.0.1:\(silent.port)", settings: settings, password: nil, message: message, done: done("silent"))
        sender.send(url: "smtp://127.0.0.1:\(smtp.port)", settings: settings, password: nil, message: message, done: done("smtp"))
        #expect(finished.isEmpty, "done is never called from inside send")
        #expect(!sender.isIdle)
        #expect(try loop.run() == 0)
        deadline.stop()
        #expect(!gaveUp, "not every send reported back: \(finished)")

        let delivered = try #require(finished["smtp"])
        let hung = try #require(finished["silent"])
        #expect(delivered.error == nil, "\(String(describing: delivered.error))")
        #expect(delivered.seconds < 1.5, "the working server waited for the silent one: \(delivered.seconds) s")
        #expect(hung.error?.permanent == false)
        #expect(hung.error?.message.contains("timed out") == true, "\(String(describing: hung.error))")
        #expect(hung.seconds >= 1.9 && hung.seconds < 5, "\(hung.seconds) s for a 2 s timeout")
        #expect(afterBoth?.idle == true, "an io source or an armed timer stayed on the loop")
        #expect(afterBoth?.connected == false, "a connection stayed open")

        let checked = try #require(finished["check"])
        #expect(checked.error == nil, "\(String(describing: checked.error))")
        #expect(sender.isIdle)
        #expect(try !Self.clientConnected(to: smtp.port))
        let mail = try Self.messages(in: maildir)
        #expect(mail.count == 1)
        #expect(mail.first?.contains("Subject: Sent beside a silent server") == true, "\(mail)")
    }

    @Test("a sender dropped with a send in flight reports it once, as a temporary failure, and closes its connection")
    func droppedSender() throws {
        let silent = try LoopbackServer(.silent)
        let loop = try EventLoop()
        var sender: SMTPSender? = try SMTPSender(loop: loop)
        var reports: [MailError?] = []
        sender?.send(url: "smtp://127.0.0.1:\(silent.port)", settings: try Self.settings(timeout: "30s"), password: nil, message: nil) { error in
            reports.append(error)
        }
        // Dropped once the server has the connection (it says "accepted"), waiting for its greeting.
        // EPOLLIN has poll's POLLIN value; sys/epoll.h is not imported here.
        let accepted = try loop.watch(silent.output, events: UInt32(POLLIN)) { _ in
            sender = nil
            loop.exit(0)
        }
        let deadline = EventLoop.RelativeTimer(loop: loop) { loop.exit(1) }
        try deadline.arm(after: .seconds(10))
        #expect(try loop.run() == 0, "the server never saw a connection")
        accepted.cancel()
        deadline.stop()
        #expect(sender == nil)
        #expect(reports.count == 1)
        #expect(reports.first??.permanent == false)
        #expect(reports.first??.message.contains("shut down") == true, "\(reports)")
        #expect(try !Self.clientConnected(to: silent.port))
    }

    /// The email settings the runner would read from its config, with tls none (loopback).
    @Test(
        "tls none is checked against the host as curl reads the URL: one that a simpler reading would take for loopback is refused before any connection, permanently; localhost still sends",
        arguments: ["smtp://0.0.0.0#@127.0.0.1:PORT", "smtp://0.0.0.0?@127.0.0.1:PORT", "smtp://mail.example.com#@127.0.0.1:PORT"])
    func curlReadsTheHost(_ template: String) throws {
        let folder = try TemporaryFolder()
        let smtp = try LoopbackServer(.smtp(maildir: folder.path("maildir")))
        let url = template.replacingOccurrences(of: "PORT", with: "\(smtp.port)")
        let message = Array("From: a@b\r\nTo: c@d\r\nSubject: x\r\n\r\nx\r\n".utf8)
        let host = url.dropFirst(7).prefix { $0 != "#" && $0 != "?" }
        /// One send on a loop of its own, waited for.
        func send(_ url: String) throws -> MailError? {
            let loop = try EventLoop()
            let sender = try SMTPSender(loop: loop)
            var outcome: MailError?? = .none
            sender.send(url: url, settings: try Self.settings(timeout: "5s"), password: nil, message: message) { error in
                outcome = .some(error)
                loop.exit(0)
            }
            _ = try withExtendedLifetime(sender) { try loop.run() }
            return try #require(outcome)
        }
        let refused = try #require(try send(url))
        #expect(refused.permanent && refused.message.contains("curl reads the host of channels.email.url as \(host), not this machine"), "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("maildir") + "/new").isEmpty)
        #expect(try send("smtp://localhost:\(smtp.port)") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("maildir") + "/new").count == 1)
    }

    static func settings(timeout: String) throws -> Config.Email {
        let config = try Config(
            .object([
                "channels": .object([
                    "email": .object([
                        "url": .string("smtp://127.0.0.1:25"), "tls": .string("none"), "timeout": .string(timeout),
                        "from": .string("dawnlet@example.org"), "to": .array([.string("me@example.org")]),
                    ])
                ])
            ]))
        return try #require(config.email)
    }

    /// The messages in a Maildir, as text.
    static func messages(in maildir: String) throws -> [String] {
        let new = maildir + "/new"
        guard FileManager.default.fileExists(atPath: new) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: new).map { try String(contentsOfFile: new + "/" + $0, encoding: .utf8) }
    }

    /// Whether a socket of this process is still connected to 127.0.0.1:`port` as a client
    /// (ESTABLISHED, with the port at the remote end): the sender's side of a connection it should
    /// have closed. Only this process's sockets count (by inode): the other suites' servers and
    /// runners are on the same machine.
    static func clientConnected(to port: Int) throws -> Bool {
        var ours = Set<String>()
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                target.hasPrefix("socket:[")
            else { continue }
            ours.insert(String(target.dropFirst(8).dropLast()))
        }
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let remote = ":" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 9 && fields[2].hasSuffix(remote) && fields[3] == "01" && ours.contains(String(fields[9]))
        }
    }
}

struct LoopbackServerError: Error, CustomStringConvertible {
    let description: String
}

/// A server on 127.0.0.1 for as long as the test holds it, run by the repository's Python venv
/// (`make deps`): aiosmtpd writing a Maildir, or a socket that accepts and never answers. It says
/// "ready PORT" once it listens; killed (SIGKILL) and reaped at the end.
final class LoopbackServer {
    enum Kind {
        case smtp(maildir: String)
        case silent
    }

    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/venv/bin/python").path

    let port: Int
    /// What it prints after "ready" (the silent server says "accepted" for each connection).
    let output: Int32
    private let pid: pid_t

    private static let smtpScript = """
        import asyncio, sys
        try:
            from aiosmtpd.handlers import Mailbox
            from aiosmtpd.smtp import SMTP
        except ImportError as error:
            print("missing", error, flush=True)
            sys.exit(1)

        async def main():
            handler = Mailbox(sys.argv[1])
            server = await asyncio.get_running_loop().create_server(lambda: SMTP(handler), "127.0.0.1", 0)
            print("ready", server.sockets[0].getsockname()[1], flush=True)
            await server.serve_forever()

        asyncio.run(main())
        """

    private static let silentScript = """
        import socket
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        print("ready", server.getsockname()[1], flush=True)
        held = []
        while True:
            held.append(server.accept()[0])
            print("accepted", flush=True)
        """

    init(_ kind: Kind) throws {
        let python = Self.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw LoopbackServerError(description: "the Python venv with aiosmtpd is missing (\(python)): run `make deps`")
        }
        let arguments: [String]
        switch kind {
        case .smtp(let maildir): arguments = [python, "-c", Self.smtpScript, maildir]
        case .silent: arguments = [python, "-c", Self.silentScript]
        }
        (pid, output) = try Self.spawn(arguments)
        let line = Self.firstLine(output, seconds: 15)
        guard line.hasPrefix("ready "), let port = Int(line.dropFirst(6)) else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(output)
            if line.hasPrefix("missing") {
                throw LoopbackServerError(description: "aiosmtpd is missing from \(python) (\(line)): run `make deps`")
            }
            throw LoopbackServerError(description: "the test server did not start: \(line.isEmpty ? "no output" : line)")
        }
        self.port = port
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(output)
    }

    /// posix_spawn with an empty signal mask and default dispositions: a child started from a
    /// test thread would otherwise inherit signals blocked there. Its stdout is
    /// the returned pipe; stderr goes nowhere.
    private static func spawn(_ arguments: [String]) throws -> (pid_t, Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw LoopbackServerError(description: "pipe: \(String(cString: strerror(errno)))") }
        // Other tests spawn children too: keep both ends out of them (dup2 clears it on fd 1).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { (argument: String) in strdup(argument) } + [nil]
        let environment = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=/nonexistent"].map { (entry: String) in strdup(entry) } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw LoopbackServerError(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return (pid, fds[0])
    }

    /// The first line the child prints, waited for with poll (empty if none within `seconds`).
    private static func firstLine(_ fd: Int32, seconds: Double) -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&ready, 1, left) == 1 else { break }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1, byte != 10 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
