import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// Wall-clock times on transition days: a time in a gap fires as far after the gap as
/// it was into it; a repeated time fires at its first instance. Every case names its zone.
@Suite struct LocalTimeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let zone: String
        let date: String
        let time: String
        /// The instant, in UTC.
        let utc: String
        /// The instant as ISO 8601 with the zone's offset.
        let local: String
        let resolution: LocalTimeResolution
        var testDescription: String { "\(date) \(time) \(zone)" }
    }

    static let cases: [Case] = [
        // America/New_York: 2026-03-08 02:00 EST → 03:00 EDT; 2026-11-01 02:00 EDT → 01:00 EST.
        Case(
            zone: "America/New_York", date: "2026-03-08", time: "02:30", utc: "2026-03-08T07:30:00+00:00",
            local: "2026-03-08T03:30:00-04:00", resolution: .skippedByGap(seconds: 3600)),
        Case(
            zone: "America/New_York", date: "2026-03-08", time: "01:30", utc: "2026-03-08T06:30:00+00:00",
            local: "2026-03-08T01:30:00-05:00", resolution: .exact),
        Case(
            zone: "America/New_York", date: "2026-11-01", time: "01:30", utc: "2026-11-01T05:30:00+00:00",
            local: "2026-11-01T01:30:00-04:00", resolution: .repeatedTakeFirst),
        Case(
            zone: "America/New_York", date: "2026-11-01", time: "02:30", utc: "2026-11-01T07:30:00+00:00",
            local: "2026-11-01T02:30:00-05:00", resolution: .exact),
        // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
        Case(
            zone: "Europe/Berlin", date: "2026-03-29", time: "02:30", utc: "2026-03-29T01:30:00+00:00",
            local: "2026-03-29T03:30:00+02:00", resolution: .skippedByGap(seconds: 3600)),
        Case(
            zone: "Europe/Berlin", date: "2026-03-29", time: "01:30", utc: "2026-03-29T00:30:00+00:00",
            local: "2026-03-29T01:30:00+01:00", resolution: .exact),
        Case(
            zone: "Europe/Berlin", date: "2026-10-25", time: "02:30", utc: "2026-10-25T00:30:00+00:00",
            local: "2026-10-25T02:30:00+02:00", resolution: .repeatedTakeFirst),
        Case(
            zone: "Europe/Berlin", date: "2026-10-25", time: "01:30", utc: "2026-10-24T23:30:00+00:00",
            local: "2026-10-25T01:30:00+02:00", resolution: .exact),
        // Australia/Lord_Howe shifts by 30 minutes: 2026-10-04 02:00 (+10:30) → 02:30 (+11:00);
        // 2026-04-05 02:00 (+11:00) → 01:30 (+10:30).
        Case(
            zone: "Australia/Lord_Howe", date: "2026-10-04", time: "02:15", utc: "2026-10-03T15:45:00+00:00",
            local: "2026-10-04T02:45:00+11:00", resolution: .skippedByGap(seconds: 1800)),
        Case(
            zone: "Australia/Lord_Howe", date: "2026-10-04", time: "02:30", utc: "2026-10-03T15:30:00+00:00",
            local: "2026-10-04T02:30:00+11:00", resolution: .exact),
        Case(
            zone: "Australia/Lord_Howe", date: "2026-10-04", time: "01:30", utc: "2026-10-03T15:00:00+00:00",
            local: "2026-10-04T01:30:00+10:30", resolution: .exact),
        Case(
            zone: "Australia/Lord_Howe", date: "2026-04-05", time: "01:30", utc: "2026-04-04T14:30:00+00:00",
            local: "2026-04-05T01:30:00+11:00", resolution: .repeatedTakeFirst),
        Case(
            zone: "Australia/Lord_Howe", date: "2026-04-05", time: "02:30", utc: "2026-04-04T16:00:00+00:00",
            local: "2026-04-05T02:30:00+10:30", resolution: .exact),
        // Asia/Kolkata has no transitions: the same offset on the days others change.
        Case(
            zone: "Asia/Kolkata", date: "2026-03-29", time: "02:30", utc: "2026-03-28T21:00:00+00:00",
            local: "2026-03-29T02:30:00+05:30", resolution: .exact),
        Case(
            zone: "Asia/Kolkata", date: "2026-10-25", time: "01:30", utc: "2026-10-24T20:00:00+00:00",
            local: "2026-10-25T01:30:00+05:30", resolution: .exact),
    ]

    @Test(arguments: cases)
    func resolve(_ c: Case) throws {
        let zone = Zone.named(c.zone)
        let zoned = zone.resolve(try #require(WallTime(c.time)), on: date(c.date))
        #expect(ISO8601.format(zoned.instant, utcOffset: 0) == c.utc)
        #expect(ISO8601.format(zoned.instant, utcOffset: zoned.utcOffset) == c.local)
        #expect(ISO8601.format(zoned.instant, in: zone) == c.local)
        #expect(zoned.resolution == c.resolution)
    }

    @Test("every minute of a transition day in Europe/Berlin resolves to an instant on that day")
    func everyMinute() throws {
        let zone = Zone.named("Europe/Berlin")
        for day in ["2026-03-29", "2026-10-25"] {
            for minute in 0..<(24 * 60) {
                let wall = try #require(WallTime(hour: minute / 60, minute: minute % 60))
                let zoned = zone.resolve(wall, on: date(day))
                #expect(zoned.utcOffset == zone.utcOffset(at: zoned.instant))
                // Gap times move forward by the gap; every other time keeps its wall-clock reading.
                let expectedSeconds = wall.secondsOfDay + (wall.hour == 2 && day == "2026-03-29" ? 3600 : 0)
                let (shownDay, seconds) = ISO8601.localDate(of: zoned.instant, in: zone)
                #expect(shownDay == date(day))
                #expect(seconds == expectedSeconds, "\(day) \(wall)")
                #expect((zoned.resolution == .skippedByGap(seconds: 3600)) == (expectedSeconds != wall.secondsOfDay))
                #expect((zoned.resolution == .repeatedTakeFirst) == (wall.hour == 2 && day == "2026-10-25"))
            }
        }
    }

    @Test("ISO 8601 text before 1970 and with negative offsets")
    func formatting() {
        #expect(ISO8601.format(Instant(secondsSinceEpoch: -1), utcOffset: 0) == "1969-12-31T23:59:59+00:00")
        #expect(ISO8601.format(Instant(secondsSinceEpoch: 0), utcOffset: -(3 * 3600 + 30 * 60)) == "1969-12-31T20:30:00-03:30")
    }
}
