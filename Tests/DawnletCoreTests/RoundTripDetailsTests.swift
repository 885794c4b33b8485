import DawnletTestSupport
import Testing

@testable import DawnletCore

/// An item's note, location, link, priority and tags changed on another device: read from the
/// file as dawnlet keeps them, and told apart from what was written here.
@Suite struct RoundTripDetailsTests {
    static let berlin = Zone.named("Europe/Berlin")

    func file(_ extra: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t1@dawnlet-remind\r\nSUMMARY:Trip\r\nDUE:20261224T090000\r\n\(extra)END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test("DESCRIPTION, LOCATION, URL, PRIORITY and CATEGORIES edited elsewhere: one change with all of them; none when only ours were written")
    func details() {
        let base = CalendarRoundTrip.facts(file("DESCRIPTION:Bring tickets\r\nCATEGORIES:travel\r\n"), zone: Self.berlin)
        #expect(base.details == ItemDetails(note: "Bring tickets", tags: ["travel"]))
        let theirs = CalendarRoundTrip.facts(
            file(
                "DESCRIPTION:Bring tickets\\nand snacks\\, lots\r\nLOCATION:Berlin Hbf\\; platform 4\r\nURL:https://example.org/trip\r\n"
                    + "PRIORITY:0\r\nCATEGORIES:Travel,Family Trip\r\nCATEGORIES:travel\\,x\r\n"), zone: Self.berlin)
        let expected = ItemDetails(
            note: "Bring tickets\nand snacks, lots", location: "Berlin Hbf; platform 4", url: "https://example.org/trip", priority: nil,
            tags: ["travel", "family-trip"])
        #expect(theirs.details == expected)
        #expect(CalendarRoundTrip.changes(base: base, file: theirs).map(\.what) == [.details(expected)])
        #expect(CalendarRoundTrip.changes(base: base, file: base).isEmpty)
        // Changed here too, to something else: the two disagree.
        var ours = base
        ours.details.location = "Home"
        #expect(CalendarRoundTrip.conflicts(.init(what: .details(expected), at: nil), ours: ours, base: base))
        #expect(!CalendarRoundTrip.conflicts(.init(what: .details(expected), at: nil), ours: base, base: base))
    }
}
