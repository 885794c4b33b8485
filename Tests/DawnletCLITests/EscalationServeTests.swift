import DawnletTestSupport
import Foundation
import Testing

/// Lists that remind their own way, end to end: the real binary under libfaketime (at the real
/// speed: an SMTP exchange is timed by the real clock), the command channel writing `fired`,
/// and a real SMTP server (aiosmtpd) as the rung a reminder left unanswered goes on to.
extension ServeTests {
    @Test("a work list: by command, on to email after ten seconds unanswered, not once answered in a terminal; a list muted on Tuesdays sends nothing")
    func escalation() throws {
        let smtp = try SMTPServer(folder: folder, mode: "accept")
        try writeConfig(
            """
            lists: { work: { route: ["command"], escalate: [{ after: "10s", to: ["email"] }] }, garden: { mute: { days: ["tue"] } } },
            route: { default: ["command"] },
            """, channels: emailChannel(smtp.port))
        try cli("todo", "add", "Report", "--due", "2026-12-01T09:00", "--tag", "work", "--note", "Figures for Q3\nfrom the shared folder")
        try cli("todo", "add", "Memo", "--due", "2026-12-01T09:00", "--tag", "work")
        // 2026-12-01 is a Tuesday.
        try cli("todo", "add", "Weed", "--due", "2026-12-01T09:00", "--tag", "garden")
        // Before it goes out, preview shows the ladder, and the muted one only with --all.
        let preview = try cli("--now", "2026-12-01T08:00:00+01:00", "preview", "--json", "--all").stdout
        #expect(preview.contains("if unanswered, on to email after 10s") && preview.contains("muted by list garden"), "\(preview)")
        // 07:59:58 UTC is 08:59:58 in Berlin.
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        let first = waitForLines(2, seconds: 20)
        #expect(first.map { $0.split(separator: " ", maxSplits: 2)[2] }.sorted() == ["Memo|", "Report|"], "\(first)")
        // Memo is answered a second or so after it went out; Report is left.
        try cli("reminder", "done", "todo:2:2026-12-01:0m")
        let got = try smtp.waitForMessages(1, seconds: 20)
        // Weed, muted, was due at 09:00 too: by the time the mail is out, it would have gone.
        let (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@email")
        #expect(status == 0)
        #expect(try smtp.messages().map { $0["subject"] as? String } == ["Report"], "\(got)")
        #expect(log.contains("delivered todo:1:2026-12-01:0m@email"), "\(log)")
        // Its body says the note after when it is due.
        let body = try #require(got.first?["body"] as? String)
        #expect(body.hasPrefix("Todo due at 09:00\nFigures for Q3\nfrom the shared folder\n"), "\(body)")
        #expect(!log.contains("todo:3:2026-12-01"), "the muted one is neither sent nor recorded: \(log)")
        #expect(lines().count == 2, "\(lines())")
    }
}
