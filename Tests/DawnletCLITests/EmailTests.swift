import DawnletTestSupport
import Foundation
import Testing

/// The email channel against a real SMTP server (aiosmtpd on loopback, writing a Maildir), read
/// back with Python's email parser. In the runner's serialized suite: these start `serve` too.
extension ServeTests {
    func emailChannel(_ port: Int, _ extra: String = "tls: \"none\"") -> String {
        "email: { url: \"smtp://127.0.0.1:\(port)\", \(extra), from: \"dawnlet@example.org\", to: [\"me@example.org\"] }"
    }

    /// Sets a todo's title the way a calendar file or another program could: the CLI itself
    /// refuses control characters.
    func setTitle(_ title: String, todo id: Int) throws {
        let (status, text) = try runTool(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE todos SET title=? WHERE id=?', (sys.argv[2], int(sys.argv[3]))); c.commit()",
                db, title, "\(id)",
            ], environment: [:])
        #expect(status == 0, "\(text)")
    }

    @Test("email from serve: one correct message; CR/LF, <b>, $(touch x) and non-ASCII in the title arrive as inert text; a restart sends nothing again")
    func emailArrives() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(smtp.port))
        try cli("todo", "add", "placeholder", "--due", "2026-12-01T09:00")
        try setTitle("Pay <b>rent</b> & $(touch x)\r\nBcc: victim@example.org\nÜberweisung 💶", todo: 1)
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        let got = try smtp.waitForMessages(1, seconds: 10)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("delivered todo:1:2026-12-01:0m@email"), "\(log)")
        try #require(got.count == 1, "\(got)")
        let mail = got[0]
        #expect(mail["subject"] as? String == "Pay <b>rent</b> & $(touch x)  Bcc: victim@example.org Überweisung 💶")
        #expect(mail["from"] as? String == "Dawnlet <dawnlet@example.org>")
        #expect(mail["to"] as? String == "me@example.org")
        #expect((mail["date"] as? String)?.hasSuffix("+0100") == true, "\(mail)")
        #expect((mail["message_id"] as? String)?.hasPrefix("<dawnlet.todo.1.2026-12-01.0m.") == true)
        #expect(mail["x_dawnlet_key"] as? String == "todo:1:2026-12-01:0m")
        #expect(mail["charset"] as? String == "utf-8")
        #expect((mail["body"] as? String)?.hasPrefix("Todo due at 09:00\n\nDue 2026-12-01T09:00:00+01:00.\n") == true, "\(mail)")
        #expect((mail["defects"] as? [String])?.isEmpty == true, "\(mail)")
        #expect(
            mail["headers"] as? [String] == [
                "date", "from", "to", "message-id", "subject", "mime-version", "content-type",
                "content-transfer-encoding", "auto-submitted", "x-dawnlet-key",
            ])
        #expect(!FileManager.default.fileExists(atPath: "x") && !FileManager.default.fileExists(atPath: folder.path("x")))
        // The body says the exact commands that answer it; the one for Done, run as written, does.
        let program = "dawnlet-remind --db \(db) --config \(config) reminder"
        let body = try #require(mail["body"] as? String)
        #expect(
            body.contains(
                "Answer it from a terminal:\n  \(program) done todo:1:2026-12-01:0m\n  \(program) skip todo:1:2026-12-01:0m\n"
                    + "  \(program) snooze todo:1:2026-12-01:0m --for 10m\n  \(program) snooze todo:1:2026-12-01:0m --for 1h\n"
                    + "  \(program) snooze todo:1:2026-12-01:0m --until 'tomorrow 09:00'\n  \(program) dismiss todo:1:2026-12-01:0m\n"), "\(body)")
        let done = try #require(body.split(separator: "\n").first { $0.contains(" reminder done ") })
        let words = done.split(separator: " ").map(String.init)
        #expect(words.first == "dawnlet-remind")
        let answered = try CLIProcess.run(Array(words.dropFirst()))
        #expect(answered.status == 0 && answered.stdout == "done: todo:1:2026-12-01:0m\n", "\(answered)")
        #expect(try todoStatus(on: "2026-12-01") == "done")

        // A restart: its first plan decided (and a mail it sent recorded before it stops), nothing went out.
        let again = try Server(db: db, config: config, start: "2026-12-01 08:00:30")
        let (againStatus, againLog) = try stop(again, after: "planned (start)")
        #expect(againStatus == 0 && !againLog.contains(" delivered "), "\(againLog)")
        #expect(try smtp.messages().count == 1)
    }

    @Test(
        "email: a reminder sent late and one held for quiet hours say how far their item is when they go out, not when planned, and the one time each was due"
    )
    func emailWordsAtSending() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig(
            "route: { default: [\"email\"] }, quietHours: { from: \"08:30\", to: \"08:53\", kinds: [\"event\"] },", channels: emailChannel(smtp.port))
        // 10 minutes ahead of 09:00: due at 08:50, sent late at the start (08:52:50 in Berlin).
        try cli("todo", "add", "Call", "--due", "2026-12-01T09:00", "--remind", "10m")
        // Due at 08:40, inside the quiet hours: held until they end at 08:53.
        try cli("event", "add", "Talk", "--start", "2026-12-01T08:40", "--remind", "0m")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:52:50")
        let got = try smtp.waitForMessages(2, seconds: 20)
        let (status, log) = try server.stop()
        #expect(status == 0)
        try #require(got.count == 2, "\(got)\n\(log)")
        func body(_ subject: String) throws -> String {
            try #require(got.first { $0["subject"] as? String == subject }?["body"] as? String, "\(got)")
        }
        let late = try body("(late) Call")
        #expect(late.hasPrefix("Todo due at 09:00 (in 8m)\n\nDue 2026-12-01T08:50:00+01:00; sent late.\n"), "\(late)")
        let held = try body("Talk")
        #expect(
            held.hasPrefix("Event starts at 08:40 (13m ago)\nHeld for quiet hours: due 08:40.\n\nDue 2026-12-01T08:40:00+01:00; held for quiet hours.\n"),
            "\(held)")
        #expect(!held.contains("08:53"), "the end of the quiet hours is when it went out, not when it was due: \(held)")
    }

    @Test("email: a 4xx answer is retried and the message arrives once; a 5xx answer is recorded failed with the server's words, not retried")
    func emailTemporaryAndPermanent() throws {
        let flaky = try SMTPServer(folder: folder, mode: "tempfail-once")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(flaky.port))
        try cli("todo", "add", "Retry me", "--due", "2026-12-01T09:00")
        var server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        #expect(try flaky.waitForMessages(1, seconds: 10).count == 1)
        var (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@email")
        #expect(status == 0)
        #expect(log.contains("delivered todo:1:2026-12-01:0m@email [todo \"Retry me\" at 2026-12-01T09:00:00+01:00]: after 2 attempts"), "\(log)")
        #expect(try flaky.messages().count == 1)

        let rejecting = try SMTPServer(folder: folder, mode: "reject")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(rejecting.port))
        try cli("todo", "add", "Rejected", "--due", "2026-12-01T10:00")
        server = try Server(db: db, config: config, start: "2026-12-01 08:59:58")
        (status, log) = try stop(server, after: "failed todo:2:2026-12-01:0m@email")
        #expect(status == 0)
        #expect(
            log.contains(
                "failed todo:2:2026-12-01:0m@email [todo \"Rejected\" at 2026-12-01T10:00:00+01:00]: the server answered 550 5.1.1 <me@example.org>: mailbox unavailable\n"
            ), "\(log)")

        let test = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        CLIProcess.expectFailure(test, status: 1, mentioning: ["email: failed: the server answered 550"])
    }

    @Test(
        "email: a server that takes each message and never answers QUIT: both recorded delivered at once, sent once; the command due with them is not held up; serve never loads libcurl"
    )
    func emailServerNeverAnswersQuit() throws {
        let smtp = try SMTPServer(folder: folder, mode: "no-quit")
        try writeConfig("route: { default: [\"email\", \"command\"] },", channels: emailChannel(smtp.port, "tls: \"none\", timeout: \"30s\""))
        try cli("todo", "add", "Quiet server", "--due", "2026-12-01T09:00")
        try cli("todo", "add", "Quiet server again", "--due", "2026-12-01T09:00")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        #expect(try smtp.waitForMessages(2, seconds: 10).count == 2)
        #expect(waitForLines(2, seconds: 10).count == 2, "\(lines())")
        // The mail went out from children: the runner itself maps neither libcurl nor a TLS library.
        let maps = try String(contentsOfFile: "/proc/\(try server.runnerPID())/maps", encoding: .utf8)
        #expect(!maps.contains("libcurl") && !maps.contains("libgnutls") && !maps.contains("libssl"))
        let (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@email", "delivered todo:2:2026-12-01:0m@email")
        #expect(status == 0)
        // Recorded within seconds of 09:00 (Berlin), not after the 30 s a QUIT would be waited for.
        for id in 1...2 {
            let line = log.split(separator: "\n").first { $0.contains("delivered todo:\(id):2026-12-01:0m@email") }
            #expect(line?.hasPrefix("2026-12-01T09:00:0") == true, "\(log)")
        }
        #expect(try smtp.messages().count == 2)
    }

    @Test("email: a server that is down is a temporary failure, said in one line")
    func emailServerDown() throws {
        try writeConfig("", channels: emailChannel(9))
        let result = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        CLIProcess.expectFailure(result, status: 1, mentioning: ["email: failed (temporary):", "127.0.0.1"])
    }

    @Test("email: STARTTLS with login and a private CA; the password file must be private; TLS is never silently skipped")
    func emailStartTLS() throws {
        let (cert, key) = try SMTPServer.certificate(in: folder)
        let smtp = try SMTPServer(folder: folder, mode: "accept", login: .init(cert: cert, key: key, user: "me", password: "s3cret"))
        let passwordFile = folder.path("smtp-password")
        try "s3cret\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)
        try writeConfig("", channels: emailChannel(smtp.port, "user: \"me\", passwordFile: \"\(passwordFile)\", caFile: \"\(cert)\""))
        let sent = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "email: delivered to me@example.org\n")
        #expect(try smtp.messages().map { $0["subject"] as? String } == ["Dawnlet test reminder"])
        let doctor = try CLIProcess.run(["--db", db, "--config", config, "doctor"])
        #expect(doctor.stdout.contains("ok   email: smtp://127.0.0.1:\(smtp.port) answers, STARTTLS, logged in as me\n"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("s3cret") && !doctor.stderr.contains("s3cret"))

        chmod(passwordFile, 0o644)
        let open = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        CLIProcess.expectFailure(open, status: 1, mentioning: ["must be yours and private", "chmod 600"])
        chmod(passwordFile, 0o600)

        // A systemd credential instead of the file (which is then not needed at all).
        let credentials = folder.path("credentials")
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try "s3cret".write(toFile: credentials + "/smtp-password", atomically: true, encoding: .utf8)
        try writeConfig("", channels: emailChannel(smtp.port, "user: \"me\", passwordFile: \"\(folder.path("absent"))\", caFile: \"\(cert)\""))
        let credential = try CLIProcess.run(
            ["--db", db, "--config", config, "notify-test", "--channel", "email"],
            environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(credential.status == 0, "\(credential.stderr)")
        #expect(try smtp.messages().count == 2)

        // The system's CAs do not know this certificate: refused, not sent in clear.
        try writeConfig("", channels: emailChannel(smtp.port, "user: \"me\", passwordFile: \"\(passwordFile)\""))
        let untrusted = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        CLIProcess.expectFailure(untrusted, status: 1, mentioning: ["email: failed: SSL certificate problem"])

        // A server without STARTTLS, with STARTTLS required (the default).
        let plain = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig("", channels: emailChannel(plain.port, "tls: \"starttls\""))
        let noTLS = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        CLIProcess.expectFailure(noTLS, status: 1, mentioning: ["does not offer STARTTLS"])
        #expect(try plain.messages().isEmpty)
        #expect(try smtp.messages().count == 2)
    }

    @Test("email through a sendmail-compatible command (msmtp -t): the same message arrives")
    func emailThroughSendmail() throws {
        try Repository.require("/usr/bin/msmtp", "msmtp")
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig(
            "",
            channels: """
                email: { sendmail: ["msmtp", "-t", "--host=127.0.0.1", "--port=\(smtp.port)", "--tls=off", "--auth=off", "--from=dawnlet@example.org"],
                         from: "dawnlet@example.org", to: ["me@example.org"] }
                """)
        let sent = try CLIProcess.run(["--db", db, "--config", config, "notify-test", "--channel", "email"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let got = try smtp.waitForMessages(1, seconds: 5)
        #expect(got.map { $0["subject"] as? String } == ["Dawnlet test reminder"])
        #expect((got.first?["message_id"] as? String)?.hasPrefix("<dawnlet.test.") == true)
    }

    @Test("the morning digest is one email listing the day's items")
    func emailDigest() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig("route: { default: [\"email\"] },", channels: emailChannel(smtp.port))
        for title in ["Bins out", "Library books", "Water plants"] { try cli("todo", "add", title, "--due", "2026-12-01") }
        let server = try Server(db: db, config: config, start: "2026-12-01 06:59:58")
        let got = try smtp.waitForMessages(1, seconds: 10)
        #expect(try stop(server, after: "delivered digest:2026-12-01@email").0 == 0)
        #expect(try smtp.messages().count == 1)
        #expect(got.first?["subject"] as? String == "Tuesday 2026-12-01: 3 items")
        #expect((got.first?["body"] as? String)?.hasPrefix("todo: Bins out\ntodo: Library books\ntodo: Water plants\n") == true, "\(got)")
        #expect(got.first?["x_dawnlet_key"] as? String == "digest:2026-12-01")
    }
}
