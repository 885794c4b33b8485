import DawnletCore
import Foundation
import Testing

/// The one model of iCalendar text (`ICalendar`): every file read and written back unchanged is
/// the same bytes; a changed property is rendered folded, with the file's line end; what no
/// calendar program writes is still one document, read in bounded time.
@Suite struct ICalendarTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// Every file under the corpus, its path and bytes.
    static func corpusFiles() throws -> [(String, [UInt8])] {
        let paths = try #require(FileManager.default.subpaths(atPath: corpus.path)).filter { $0.hasSuffix(".ics") }.sorted()
        return try paths.map { ($0, Array(try Data(contentsOf: corpus.appendingPathComponent($0)))) }
    }

    /// How deep components nest in `items`.
    func depth(_ items: [ICalendar.Item]) -> Int {
        items.map { item in if case .component(let c) = item { 1 + depth(c.items) } else { 0 } }.max() ?? 0
    }

    @Test("every file of the corpus, parsed and written again unchanged, is the same bytes; its components are found")
    func corpusRoundTrip() throws {
        let files = try Self.corpusFiles()
        #expect(files.count > 100)
        for (path, bytes) in files {
            let document = ICalendar.Document(parsing: bytes)
            #expect(document.bytes == bytes, "\(path)")
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("BEGIN:VEVENT") && text.contains("END:VEVENT") {
                #expect(document.calendarItems().contains { $0.name == "VEVENT" && $0.end != nil }, "\(path)")
            }
        }
    }

    @Test("a property: its name, parameters quoted as written (a colon inside quotes is no end of them), its value unfolded")
    func property() throws {
        let text = "BEGIN:VCALENDAR\nATTENDEE;MEMBER=\"mailto:a@x\",\"mailto:b@x\";cn=\"Doe: J\":mailto:j@\n x.org\nEND:VCALENDAR\n"
        let document = ICalendar.Document(parsing: text)
        let attendee = try #require(document.components.first?.first("ATTENDEE"))
        #expect(attendee.value == "mailto:j@x.org")
        #expect(attendee.parameters == [.init(name: "MEMBER", values: ["\"mailto:a@x\"", "\"mailto:b@x\""]), .init(name: "CN", values: ["\"Doe: J\""])])
        #expect(attendee.parameter("CN") == "Doe: J")
        #expect(attendee.content == ";MEMBER=\"mailto:a@x\",\"mailto:b@x\";cn=\"Doe: J\":mailto:j@x.org")
        #expect(document.lineEnd == "\n")
        #expect(document.rendered == text)
    }

    @Test("a changed property is rendered folded at 75 octets (never inside a UTF-8 sequence), with the file's line end; every other line as it was")
    func changedProperty() throws {
        let before = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nSUMMARY:Old\nX-THEIRS:folded the\n  way they fold\nEND:VEVENT\nEND:VCALENDAR"
        let document = ICalendar.Document(parsing: before)
        let long = String(repeating: "Zahnärzt·in ", count: 20)
        let changed = document.replacingItems { component in
            var c = component
            c.items = c.items.map { item in
                guard case .property(let p) = item, p.name == "SUMMARY" else { return item }
                return .property(p.with(value: long))
            }
            return [.component(c)]
        }
        let text = changed.rendered
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let summary = lines.drop { !$0.hasPrefix("SUMMARY:") }.prefix { $0.hasPrefix("SUMMARY:") || $0.hasPrefix(" ") && !$0.hasPrefix("  way") }
        #expect(summary.count > 3)
        #expect(summary.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\r") })
        #expect(summary.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(text.hasPrefix("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:1\nSUMMARY:"))
        // The last line had no line end: it has none still.
        #expect(text.hasSuffix("\nX-THEIRS:folded the\n  way they fold\nEND:VEVENT\nEND:VCALENDAR"))
        #expect(ICalendar.Document(parsing: text).calendarItems().first?.first("SUMMARY")?.value == long)
        // A new property after a last line without its line end starts a line of its own.
        var added = document
        added.items.append(.property(ICalendar.Property("X-NEW:1")))
        #expect(added.rendered == before + "\nX-NEW:1\n")
    }

    @Test("hostile text is one document, in bounded time: no END, nesting 100,000 deep, a 16 MB line, NUL bytes, a lone CR")
    func hostile() throws {
        let clock = ContinuousClock()
        let start = clock.now
        // No END anywhere: the components run to the end of the file, unended; nothing is lost.
        let unended = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:cut".utf8)
        let cut = ICalendar.Document(parsing: unended)
        #expect(cut.bytes == unended)
        #expect(cut.calendarItems().isEmpty && cut.calendarItems(unended: true).count == 1)
        #expect(CalendarWriteBack.acknowledge(String(decoding: unended, as: UTF8.self), uid: "x", at: Instant(secondsSinceEpoch: 0)) == nil)
        // Deep nesting: no deeper than the model's bound; every line kept.
        let deep = Array((String(repeating: "BEGIN:X-A\n", count: 100_000) + String(repeating: "END:X-A\n", count: 100_000)).utf8)
        let nested = ICalendar.Document(parsing: deep)
        #expect(depth(nested.items) == ICalendar.deepest)
        let kept = nested.bytes == deep
        #expect(kept)
        // One line of 16 MB.
        let huge = Array(("BEGIN:VCALENDAR\r\nX-BIG;A=" + String(repeating: "a", count: 16 << 20) + "\r\nEND:VCALENDAR\r\n").utf8)
        let big = ICalendar.Document(parsing: huge)
        let same = big.bytes == huge, name = big.components.first?.properties.first?.name
        #expect(same)
        #expect(name == "X-BIG")
        // A NUL byte and a lone CR are bytes of their line, not its end.
        let odd = Array("BEGIN:VCALENDAR\nSUMMARY:a\u{0}b\rc\nEND:VCALENDAR\n".utf8)
        let read = ICalendar.Document(parsing: odd)
        #expect(read.bytes == odd)
        #expect(read.components.first?.first("SUMMARY")?.value == "a\u{0}b\rc")
        #expect(read.lineEnd == "\n")
        #expect(clock.now - start < .seconds(60))
    }

    @Test("one set of alarm rules: ACKNOWLEDGED, X-MOZ-LASTACK, a snooze alarm naming its alarm with or without RELTYPE, X-MOZ-SNOOZE-TIME-ID of one instance")
    func alarmRules() throws {
        let at = { (text: String) in ICalendar.Property("X:\(text)").utc ?? Instant(secondsSinceEpoch: 0) }
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:e", "X-MOZ-LASTACK:20261201T070000Z", "X-MOZ-SNOOZE-TIME-1796115600000000:20261201T093000Z",
            "BEGIN:VALARM", "UID:a1", "TRIGGER:-PT15M", "ACKNOWLEDGED:20261201T084500Z", "END:VALARM",
            "BEGIN:VALARM", "UID:a2", "TRIGGER:-PT5M", "END:VALARM",
            "BEGIN:VALARM", "UID:s", "RELATED-TO:a2", "TRIGGER;VALUE=DATE-TIME:20261201T090500Z", "END:VALARM",
            "BEGIN:VALARM", "RELATED-TO;RELTYPE=PARENT:a1", "TRIGGER:PT0S", "END:VALARM",
            "BEGIN:VALARM", "ACTION:NONE", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "END:VALARM", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let marks = ICalendar.AlarmMarks(try #require(ICalendar.Document(parsing: text).calendarItems().first))
        #expect(marks.lastAck == (at("20261201T070000Z")))
        // Apple's RELATED-TO without RELTYPE names the alarm it snoozed; RELTYPE=PARENT does not.
        #expect(marks.alarms.map(\.snoozes) == [nil, nil, "a2", nil, nil])
        #expect(marks.alarms.map(\.placeholder) == [false, false, false, false, true])
        #expect(marks.snoozes.map(\.id) == ["1796115600000000"] && marks.snoozes.map(\.until) == [at("20261201T093000Z")])
        // The instance the Thunderbird snooze names (2026-12-01T09:00Z in microseconds) has it; another has not.
        let instance = ICalendar.OccurrenceMarks(item: marks, series: nil, instance: "20261201T090000Z", single: false)
        let other = ICalendar.OccurrenceMarks(item: marks, series: nil, instance: "20261202T090000Z", single: false)
        #expect(instance.snoozes == [at("20261201T093000Z")] && other.snoozes.isEmpty)
        #expect(instance.instanceSnoozes == [at("20261201T093000Z")])
        // The alarms' instants: a1 at 08:45 (acknowledged then), a2 at 08:55 (snoozed to 09:05),
        // the snooze at 09:05, the fourth at 09:00; the placeholder does not fire.
        let fired = [["20261201T084500Z"], ["20261201T085500Z"], ["20261201T090500Z"], ["20261201T090000Z"], []].map { $0.map(at) }
        #expect(instance.due(fired) == ["20261201T090000Z", "20261201T090500Z", "20261201T093000Z"].map(at))
        #expect(other.due(fired) == ["20261201T090000Z", "20261201T090500Z"].map(at))
        // Acknowledged by the series (an override's): nothing up to then fires.
        var series = ICalendar.AlarmMarks()
        series.lastAck = at("20261201T090200Z")
        let override = ICalendar.OccurrenceMarks(item: marks, series: series, instance: "20261201T090000Z", single: false)
        #expect(override.due(fired) == ["20261201T090500Z", "20261201T093000Z"].map(at))
    }

    @Test("the round trip reads a snooze by the same rules as the reader: Apple's RELATED-TO without RELTYPE is a snooze of the alarm it names")
    func roundTripSnooze() throws {
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:t", "DTSTAMP:20261201T060000Z", "DUE:20261201T090000Z",
            "BEGIN:VALARM", "UID:a1", "TRIGGER:PT0S", "ACKNOWLEDGED:20261201T090100Z", "END:VALARM",
            "BEGIN:VALARM", "UID:s", "RELATED-TO:a1", "TRIGGER;VALUE=DATE-TIME:20261201T100000Z", "END:VALARM", "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let facts = CalendarRoundTrip.facts(text, zone: .utc)
        let until = try #require(ICalendar.Property("X:20261201T100000Z").utc)
        #expect(facts.snoozes == [until])
        #expect(facts.snoozedAlarms[until] == "a1")
        #expect(facts.snoozedAt[until] == ICalendar.Property("X:20261201T090100Z").utc)
        // The snooze alarm's own words are no acknowledgement of the item: a1's is.
        #expect(facts.acknowledged == ICalendar.Property("X:20261201T090100Z").utc)
    }

    @Test(
        "a file's model is read for its alarms' marks only where a line begins with one (in any case), not where the word is inside a line; an alarm with no marks read fires as it is"
    )
    func marksSeen() {
        func may(_ lines: String...) -> Bool { ICalendar.AlarmMarks.mayBeIn(Array(lines.joined(separator: "\r\n").utf8)) }
        #expect(may("BEGIN:VEVENT", "x-moz-lastack:20261201T090000Z", "END:VEVENT"))
        #expect(may("BEGIN:VALARM", "Acknowledged:20261201T090000Z"))
        #expect(may("RELATED-TO:alarm-1") && may("ACTION:NONE") && may("X-MOZ-SNOOZE-TIME-1:20261201T090000Z"))
        #expect(!may("BEGIN:VEVENT", "DESCRIPTION:ACKNOWLEDGED: RELATED-TO X-MOZ-", " ACTION:NONE", "ACTION:DISPLAY", "END:VEVENT"))
        #expect(!may(""))
        // No marks read for an item: its alarms fire as they are.
        let at = ICalendar.Property("X:20261201T090000Z").utc!
        let marks = ICalendar.OccurrenceMarks(item: ICalendar.AlarmMarks(), series: nil, instance: nil, single: true)
        #expect(marks.due([[at], [at.adding(seconds: 60)]]) == [at, at.adding(seconds: 60)])
    }
}
