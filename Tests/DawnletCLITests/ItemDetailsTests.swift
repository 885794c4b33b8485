import DawnletTestSupport
import Foundation
import Testing

/// What a todo or event holds beside its title and time: a note (from a file too), a location, a
/// link, a priority and tags — set, shown, found, changed, exported, and refused when malformed.
@Suite struct ItemDetailsTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("d.sqlite")
    }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--now", "2026-12-01T12:00:00+00:00"] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    @Test("a note from a file, a location, a link, a priority and tags: shown whole, found by the note, taken away by edit, exported as iCalendar")
    func details() throws {
        let note = folder.path("note.txt")
        try "Bring:\n- tickets\n- snacks\n\n".write(toFile: note, atomically: true, encoding: .utf8)
        try cli(
            "todo", "add", "Trip", "--due", "2026-12-24", "--note-file", note, "--location", "Berlin Hbf", "--url", "https://example.org/trip",
            "--priority", "high", "--tag", "travel,Family", "--tag", "travel")
        #expect(
            try cli("todo", "show", "1").stdout == """
                todo #1  Trip
                  due: 2026-12-24
                  priority: high (1)
                  tags: travel, family
                  location: Berlin Hbf
                  link: https://example.org/trip
                  note:
                    Bring:
                    - tickets
                    - snacks

                """)
        #expect(try cli("find", "SNACKS").stdout == "todo #1  Trip  (2026-12-24)\n", "the note is searched")
        #expect(try cli("find", "family").stdout.hasPrefix("todo #1  Trip"), "and the tags")
        try cli("export", "--to", folder.path("out"))
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).first)
        let text = try String(contentsOfFile: folder.path("out/\(file)"), encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        for line in [
            "DESCRIPTION:Bring:\\n- tickets\\n- snacks\r\n", "LOCATION:Berlin Hbf\r\n", "URL:https://example.org/trip\r\n", "PRIORITY:1\r\n",
            "CATEGORIES:travel,family\r\n",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        try cli("todo", "edit", "1", "--no-tags", "--priority", "none", "--url", "", "--note", "Just tickets")
        #expect(
            try cli("todo", "show", "1", "--json").stdout
                == #"{"kind":"todo","id":1,"title":"Trip","when":"2026-12-24","reminders":[],"channels":null,"note":"Just tickets","location":"Berlin Hbf","url":null,"priority":null,"tags":[],"zone":null,"checklist":{"occurrence":null,"done":0,"total":0,"items":[]}}"#
                + "\n")
        try cli("event", "add", "Standup", "--start", "2026-12-02T09:00", "--priority", "7", "--tag", "work")
        #expect(try cli("event", "show", "1").stdout.contains("  priority: low (7)\n  tags: work\n"))
    }

    @Test(
        "malformed details are 2 with why, and nothing is written",
        arguments: [
            (["--url", "not a link"], "is not a link"), (["--url", "https://a b"], "is not a link"), (["--priority", "urgent"], "--priority"),
            (["--priority", "0"], "--priority"), (["--tag", "two words"], "a tag is"), (["--tag", "a,,b"], "a tag is"),
            (["--note", "bad\u{202E}text"], "not text"), (["--note", "x", "--note-file", "/etc/hostname"], "not both"),
        ])
    func refused(_ arguments: [String], _ words: String) throws {
        let result = try CLIProcess.run(["--db", db, "todo", "add", "X"] + arguments)
        CLIProcess.expectFailure(result, status: 2, mentioning: [words])
        let listed = FileManager.default.fileExists(atPath: db) ? try cli("todo", "list").stdout : ""
        #expect(!listed.contains("X"), "nothing written: \(listed)")
    }
}
