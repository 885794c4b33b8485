/// A zone's rules read from a TZif file (RFC 8536), as glibc, Python's zoneinfo and systemd read
/// /usr/share/zoneinfo: the 64-bit transition table of versions 2–4 (the 32-bit one of version 1
/// when that is all there is), and the POSIX TZ footer for instants past the table. Leap-second
/// records are skipped, as glibc does for the `right/`-less zones. Pure: bytes in, rules out.
public struct ZoneRules: Hashable, Sendable, ZoneOffsets {
    /// Transition instants, ascending, and the offset (seconds east of UTC) from each on.
    let transitions: [Int64]
    let offsets: [Int32]
    /// The offset before the first transition (time type 0, RFC 8536 §3.2).
    let initial: Int32
    /// The rule after the last transition, when the file has one.
    let footer: PosixTZ?

    public func utcOffset(at instant: Instant) -> Int {
        let t = instant.secondsSinceEpoch
        guard let last = transitions.last, t >= transitions[0] else { return Int(initial) }
        if t >= last, let footer { return footer.utcOffset(at: t) }
        // The last transition at or before t.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= t { low = middle } else { high = middle - 1 }
        }
        return Int(offsets[low])
    }
}

public struct TZifError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ZoneRules {
    /// One offset for all time (UTC, `Etc/GMT-3`).
    public init(fixedOffset: Int) {
        transitions = []
        offsets = []
        initial = Int32(fixedOffset)
        footer = nil
    }

    /// Reads a TZif file's bytes.
    public init(tzif bytes: [UInt8]) throws(TZifError) {
        var reader = TZifReader(bytes: bytes)
        let first = try reader.header()
        if first.version == 0 {
            let block = try reader.block(first, timeSize: 4)
            self.init(block: block, footer: nil)
            return
        }
        // Versions 2 and later: skip the 32-bit block, read the 64-bit one and the footer.
        try reader.skip(first.size(timeSize: 4))
        let second = try reader.header()
        let block = try reader.block(second, timeSize: 8)
        let footer = try reader.footer()
        self.init(
            block: block,
            footer: try footer.map { (text) throws(TZifError) in
                guard let rule = PosixTZ(text) else { throw TZifError("its POSIX TZ footer \"\(DisplayText.escaped(text))\" cannot be read") }
                return rule
            })
    }

    private init(block: TZifReader.Block, footer: PosixTZ?) {
        transitions = block.times
        offsets = block.indices.map { block.types[Int($0)] }
        initial = block.types.first ?? 0
        self.footer = footer
    }
}

/// Walks a TZif file's bytes.
private struct TZifReader {
    let bytes: [UInt8]
    var position = 0

    struct Header {
        let version: UInt8
        let isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        func size(timeSize: Int) -> Int {
            timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
        }
    }

    struct Block {
        let times: [Int64]
        let indices: [UInt8]
        /// Each time type's offset.
        let types: [Int32]
    }

    mutating func take(_ count: Int) throws(TZifError) -> ArraySlice<UInt8> {
        guard count >= 0, position + count <= bytes.count else { throw TZifError("it ends early (not a whole TZif file)") }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func skip(_ count: Int) throws(TZifError) { _ = try take(count) }

    func integer(_ slice: ArraySlice<UInt8>) -> Int64 {
        var value: Int64 = slice.first.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
        for byte in slice { value = value << 8 | Int64(byte) }
        return value
    }

    mutating func header() throws(TZifError) -> Header {
        let head = try take(44)
        guard head.prefix(4).elementsEqual("TZif".utf8) else { throw TZifError("it is not a TZif file") }
        let version = head[head.startIndex + 4]
        guard version == 0 || (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(version) else { throw TZifError("its TZif version is unknown") }
        let counts = (0..<6).map { i in Int(UInt32(truncatingIfNeeded: integer(head[(head.startIndex + 20 + 4 * i)..<(head.startIndex + 24 + 4 * i)]))) }
        // RFC 8536 §3.1: typecnt ≥ 1, charcnt ≥ 1; counts far past a real file's are refused.
        guard counts[4] >= 1, counts.allSatisfy({ $0 <= 1 << 20 }) else { throw TZifError("its header counts are not a zone's") }
        return Header(
            version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2], timecnt: counts[3],
            typecnt: counts[4], charcnt: counts[5])
    }

    mutating func block(_ header: Header, timeSize: Int) throws(TZifError) -> Block {
        let timeBytes = try take(header.timecnt * timeSize)
        let times = stride(from: timeBytes.startIndex, to: timeBytes.endIndex, by: timeSize).map { integer(timeBytes[$0..<($0 + timeSize)]) }
        let indices = Array(try take(header.timecnt))
        let typeBytes = try take(header.typecnt * 6)
        let types = stride(from: typeBytes.startIndex, to: typeBytes.endIndex, by: 6).map { Int32(truncatingIfNeeded: integer(typeBytes[$0..<($0 + 4)])) }
        try skip(header.charcnt + header.leapcnt * (timeSize + 4) + header.isstdcnt + header.isutcnt)
        guard indices.allSatisfy({ Int($0) < types.count }), zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw TZifError("its transitions are not in order or name no time type")
        }
        return Block(times: times, indices: indices, types: types)
    }

    /// The footer's TZ string, or nil when it is empty.
    mutating func footer() throws(TZifError) -> String? {
        guard position < bytes.count, bytes[position] == 0x0A else { throw TZifError("it has no footer") }
        guard let end = bytes[(position + 1)...].firstIndex(of: 0x0A) else { throw TZifError("its footer is not ended") }
        let text = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}

/// A POSIX TZ rule (POSIX.1-2017 §8.3, with RFC 8536's extensions: hours up to ±167, negative
/// transition times): `CET-1CEST,M3.5.0,M10.5.0/3`, `<+0330>-3:30`, `EST5EDT,M3.2.0,M11.1.0`.
public struct PosixTZ: Hashable, Sendable {
    /// Seconds east of UTC, in standard and in daylight time.
    let standard: Int
    let daylight: Int?
    let start: Rule?
    let end: Rule?

    struct Rule: Hashable, Sendable {
        enum Day: Hashable, Sendable {
            /// `Jn`: day 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0–365, counting February 29.
            case zeroBased(Int)
            /// `Mm.w.d`: the w-th (5: last) weekday d (0 Sunday) of month m.
            case month(Int, week: Int, weekday: Int)
        }
        let day: Day
        /// Seconds after local midnight (may be negative or past 24 h).
        let time: Int
    }

    init?(_ text: String) {
        var scanner = PosixScanner(Array(text.utf8))
        guard scanner.name(), let stdWest = scanner.offset() else { return nil }
        standard = -stdWest
        if scanner.atEnd {
            daylight = nil
            start = nil
            end = nil
            return
        }
        guard scanner.name() else { return nil }
        if scanner.peek != UInt8(ascii: ","), !scanner.atEnd {
            guard let west = scanner.offset() else { return nil }
            daylight = -west
        } else {
            daylight = standard + 3600
        }
        guard scanner.eat(","), let start = scanner.rule(), scanner.eat(","), let end = scanner.rule(), scanner.atEnd else { return nil }
        self.start = start
        self.end = end
    }

    func utcOffset(at t: Int64) -> Int {
        guard let daylight, let start, let end else { return standard }
        let year = CivilDate(dayNumber: Int((t / 86_400) - (t % 86_400 < 0 ? 1 : 0))).year
        // The last change at or before t, over the years around it.
        var latest: (Int64, Int)?
        for y in (year - 1)...(year + 1) {
            let on = instant(start, year: y, offset: standard)
            let off = instant(end, year: y, offset: daylight)
            for (at, offset) in [(on, daylight), (off, standard)] where at <= t {
                if latest.map({ at > $0.0 }) ?? true { latest = (at, offset) }
            }
        }
        return latest?.1 ?? standard
    }

    /// The instant a rule's local day and time name, read with `offset` (the offset in force before it).
    private func instant(_ rule: Rule, year: Int, offset: Int) -> Int64 {
        Int64(rule.day.date(in: year).dayNumber) * 86_400 + Int64(rule.time) - Int64(offset)
    }
}

extension PosixTZ.Rule.Day {
    /// The day the rule names in `year`.
    func date(in year: Int) -> CivilDate {
        switch self {
        case .julian(let n):
            let jan1 = CivilDate.clamped(year: year, month: 1, day: 1)
            let leapShift = CivilDate.daysInMonth(year: year, month: 2) == 29 && n >= 60 ? 1 : 0
            return jan1.adding(days: n - 1 + leapShift)
        case .zeroBased(let n):
            return CivilDate.clamped(year: year, month: 1, day: 1).adding(days: n)
        case .month(let month, let week, let weekday):
            let first = CivilDate.clamped(year: year, month: month, day: 1)
            // ISO weekdays are 1 (Monday) … 7 (Sunday); POSIX 0 is Sunday.
            let target = weekday == 0 ? 7 : weekday
            var day = first.adding(days: (target - first.weekday.isoNumber + 7) % 7).adding(days: 7 * (week - 1))
            let last = CivilDate.daysInMonth(year: year, month: month)
            while day.month != month || day.day > last { day = day.adding(days: -7) }
            return day
        }
    }
}

extension PosixTZ.Rule {
    /// The RFC 5545 RRULE of a `Mm.w.d` rule at a time within its day (`FREQ=YEARLY;BYMONTH=3;
    /// BYDAY=-1SU`); nil for the other forms, which no RRULE says as simply.
    var rrule: String? {
        guard case .month(let month, let week, let weekday) = day, (0..<86_400).contains(time),
            let code = Weekday(isoNumber: weekday == 0 ? 7 : weekday)?.icalCode
        else { return nil }
        return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(code)"
    }
}

/// Reads the parts of a POSIX TZ string.
private struct PosixScanner {
    let text: [UInt8]
    var i = 0

    init(_ text: [UInt8]) { self.text = text }

    var atEnd: Bool { i >= text.count }
    var peek: UInt8? { atEnd ? nil : text[i] }

    mutating func eat(_ character: Character) -> Bool {
        guard peek == character.asciiValue else { return false }
        i += 1
        return true
    }

    /// `CET` (three or more letters) or `<+0330>`.
    mutating func name() -> Bool {
        if eat("<") {
            let begin = i
            while let c = peek, c != UInt8(ascii: ">") { i += 1; _ = c }
            guard i - begin >= 3, eat(">") else { return false }
            return true
        }
        let begin = i
        while let c = peek, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) { i += 1 }
        return i - begin >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds (a POSIX offset is west-positive; the caller flips it).
    mutating func offset() -> Int? {
        var sign = 1
        if eat("-") { sign = -1 } else { _ = eat("+") }
        guard let hours = number(max: 167) else { return nil }
        var seconds = hours * 3600
        if eat(":") {
            guard let minutes = number(max: 59) else { return nil }
            seconds += minutes * 60
            if eat(":") {
                guard let s = number(max: 59) else { return nil }
                seconds += s
            }
        }
        return sign * seconds
    }

    mutating func number(max: Int) -> Int? {
        let begin = i
        var value = 0
        while let c = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c), i - begin < 3 {
            value = value * 10 + Int(c - UInt8(ascii: "0"))
            i += 1
        }
        return i > begin && value <= max ? value : nil
    }

    /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (default 02:00).
    mutating func rule() -> PosixTZ.Rule? {
        let day: PosixTZ.Rule.Day
        if eat("J") {
            guard let n = number(max: 365), n >= 1 else { return nil }
            day = .julian(n)
        } else if eat("M") {
            guard let m = number(max: 12), m >= 1, eat("."), let w = number(max: 5), w >= 1, eat("."), let d = number(max: 6) else { return nil }
            day = .month(m, week: w, weekday: d)
        } else {
            guard let n = number(max: 365) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if eat("/") {
            guard let t = offset() else { return nil }
            time = t
        }
        return PosixTZ.Rule(day: day, time: time)
    }
}

/// What resolving wall times needs of a zone: its offset at each instant.
public protocol ZoneOffsets {
    /// The zone's offset from UTC at `instant`, in seconds east of Greenwich.
    func utcOffset(at instant: Instant) -> Int
}

extension ZoneOffsets {
    /// The first instant after `instant`, within `seconds`, at which the offset changes; nil if it
    /// stays. Zones change at most once a day, so days are stepped, then the second bisected.
    public func nextChange(after instant: Instant, within seconds: Int64) -> Instant? {
        let offset = utcOffset(at: instant)
        var low = instant.secondsSinceEpoch
        var step: Int64 = 0
        while step < seconds {
            step = min(seconds, step + 86_400)
            if utcOffset(at: instant.adding(seconds: step)) != offset { break }
            low = instant.secondsSinceEpoch + step
            if step == seconds { return nil }
        }
        // The offset is `offset` at low and differs at high.
        var high = instant.secondsSinceEpoch + step
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if utcOffset(at: Instant(secondsSinceEpoch: middle)) == offset { low = middle } else { high = middle }
        }
        return Instant(secondsSinceEpoch: high)
    }

    /// The instant a wall-clock time names on a date in this zone.
    ///
    /// - A time that does not exist (spring-forward gap) is read with the offset in force before the
    ///   gap, so it lands as far after the gap as it was into it: 02:30 on 2026-03-29 in Europe/Berlin
    ///   is 03:30 CEST (01:30Z); 02:30 on 2026-03-08 in America/New_York is 03:30 EDT (07:30Z).
    /// - A time that happens twice (fall back) is its first instance: 02:30 on 2026-10-25 in
    ///   Europe/Berlin is 02:30 CEST (00:30Z), not 02:30 CET.
    public func resolve(_ time: WallTime, on date: CivilDate) -> ZonedInstant {
        let local = Int64(date.dayNumber) * 86_400 + Int64(time.secondsOfDay)
        // Offsets a day either side bracket any transition near this wall time (offsets stay within
        // ±14 h); zones do not change twice within two days.
        let before = utcOffset(at: Instant(secondsSinceEpoch: local - 86_400))
        let after = utcOffset(at: Instant(secondsSinceEpoch: local + 86_400))
        let earlier = Instant(secondsSinceEpoch: local - Int64(before))
        if before == after {
            return ZonedInstant(instant: earlier, utcOffset: before, resolution: .exact)
        }
        let later = Instant(secondsSinceEpoch: local - Int64(after))
        let earlierValid = utcOffset(at: earlier) == before
        let laterValid = utcOffset(at: later) == after
        switch (earlierValid, laterValid) {
        case (true, true):
            // Both readings exist: the hour repeats. Take the one that happens first.
            let first = min(earlier, later)
            return ZonedInstant(
                instant: first, utcOffset: first == earlier ? before : after,
                resolution: .repeatedTakeFirst)
        case (true, false):
            return ZonedInstant(instant: earlier, utcOffset: before, resolution: .exact)
        case (false, true):
            return ZonedInstant(instant: later, utcOffset: after, resolution: .exact)
        case (false, false):
            // The gap: read with the offset before it, then say how far that moved the clock time.
            return ZonedInstant(instant: earlier, utcOffset: after, resolution: .skippedByGap(seconds: after - before))
        }
    }
}
