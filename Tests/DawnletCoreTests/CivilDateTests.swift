import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

@Suite struct CivilDateTests {
    @Test("day numbers agree with Foundation's Gregorian calendar from 1600 to 2400")
    func dayNumbersMatchFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var rng = SeededRandom(seed: 1)
        for _ in 0..<3000 {
            let n = Int.random(in: -135_000...157_000, using: &rng)
            let d = CivilDate(dayNumber: n)
            let foundation = calendar.dateComponents(
                [.year, .month, .day, .weekday],
                from: Date(timeIntervalSince1970: Double(n) * 86_400 + 43_200))
            #expect(d.year == foundation.year && d.month == foundation.month && d.day == foundation.day, "day \(n)")
            #expect(d.weekday.isoNumber == (foundation.weekday! + 5) % 7 + 1, "day \(n)")
            #expect(CivilDate(year: d.year, month: d.month, day: d.day)?.dayNumber == n)
        }
    }

    @Test("known days")
    func knownDays() {
        #expect(date("1970-01-01").dayNumber == 0)
        #expect(date("1970-01-01").weekday == .thursday)
        #expect(date("2026-11-30").weekday == .monday)
        #expect(date("2000-02-29").dayNumber == 11_016)
        #expect(date("1969-12-31").dayNumber == -1)
        #expect(date("1969-12-31").weekday == .wednesday)
        #expect(date("2026-03-04").mondayOfWeek == date("2026-03-02"))
        #expect(date("2026-03-08").mondayOfWeek == date("2026-03-02"))
    }

    @Test(
        "text that is not an existing YYYY-MM-DD is refused",
        arguments: [
            "2026-02-30", "2025-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
            "2026-1-05", "26-01-05", "2026/01/05", "", "abcd-ef-gh", "2026-01-05T10:00", "+2026-01-05",
            "0000-01-01", "2026-01-5", " 2026-01-05",
        ])
    func invalidText(_ text: String) {
        #expect(CivilDate(text) == nil)
    }

    @Test("leap days exist only in leap years")
    func leapDays() {
        #expect(CivilDate("2024-02-29") != nil)
        #expect(CivilDate("2000-02-29") != nil)
        #expect(CivilDate("2100-02-29") == nil)
        #expect(CivilDate.clamped(year: 2026, month: 2, day: 31) == date("2026-02-28"))
        #expect(CivilDate.clamped(year: 2028, month: 2, day: 30) == date("2028-02-29"))
        #expect(CivilDate.clamped(year: 2026, month: 4, day: 31) == date("2026-04-30"))
    }

    @Test("text round-trips")
    func roundTrip() {
        for text in ["0001-01-01", "1999-12-31", "2026-03-29", "9999-12-31"] {
            #expect(CivilDate(text)?.description == text)
        }
    }

    @Test("digits and dates written as bytes are the text Swift gives: any integer, any padding; a date cached or not")
    func digitsAndDatesAsBytes() {
        var rng = SeededRandom(seed: 3)
        let edges: [Int] = [0, 1, 9, 10, 99, 100, 999, 1_000, -1, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var wrong: [String] = []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDigits) { buffer in
            for n in edges + (0..<5_000).map({ _ in Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 0...63, using: &rng) }) {
                for width in [0, 1, 2, 4, 7, 20] {
                    let written = String(
                        decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: writeDigits(n, width, to: buffer.baseAddress!)), as: UTF8.self)
                    let digits = String(n.magnitude)
                    let expected = (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
                    if written != expected { wrong.append("\(n) width \(width): \(written)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        // The cache gives each date its own text, whichever came before it.
        var cache = CivilDate.TextCache()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CivilDate.maximumASCII) { buffer in
            for day in [20_000, 20_000, 20_001, 20_000, -719_468, 2_932_896, 2_932_896, 20_001] {
                let date = CivilDate(dayNumber: day)
                let text = String(decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: cache.write(date, to: buffer.baseAddress!)), as: UTF8.self)
                #expect(text == date.description)
            }
        }
    }
}
