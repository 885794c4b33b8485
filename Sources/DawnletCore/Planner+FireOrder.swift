import FoundationEssentials

extension Planner {
    /// `base` on `date` in `zone`, less the offset: minutes and hours exactly, days and weeks on the
    /// calendar (the same wall time N days earlier). Returns a note when a DST change touched it.
    // Inline in `timed`, once per reminder: a call here costs the year's plan 2%.
    @inline(__always)
    static func fireInstant(base: WallTime, date: CivilDate, offset: ReminderOffset, days: ZoneDayCache)
        -> (Instant, Int, String?)
    {
        let day = date.adding(days: -(offset.wholeDays ?? 0))
        let resolved = days.resolve(base, on: day)
        var gap: String?
        switch resolved.resolution {
        case .exact: break
        case .skippedByGap(let seconds): gap = "\(base) does not exist on \(day): moved \(seconds / 60) min by the DST gap"
        case .repeatedTakeFirst: gap = "\(base) happens twice on \(day) (clocks go back): the first"
        }
        guard offset.wholeDays == nil else { return (resolved.instant, resolved.utcOffset, gap) }
        let instant = resolved.instant.adding(seconds: -Int64(offset.exactSeconds))
        return (instant, days.utcOffset(at: instant), gap)
    }

    /// An instant less the offset: minutes and hours exactly, days and weeks on the calendar
    /// (the same wall time, to the second, N days earlier).
    @inline(__always)
    static func fireInstant(start: Instant, offset: ReminderOffset, days: ZoneDayCache) -> (Instant, Int, String?) {
        guard let whole = offset.wholeDays else {
            let instant = start.adding(seconds: -Int64(offset.exactSeconds))
            return (instant, days.utcOffset(at: instant), nil)
        }
        let local = ISO8601.localDate(of: start, in: days.zone)
        let wall = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)!
        let (instant, utcOffset, gap) = fireInstant(base: wall, date: local.date, offset: offset, days: days)
        return (whole == 0 ? start : instant.adding(seconds: Int64(local.secondsOfDay % 60)), utcOffset, gap)
    }

    /// The indices of reminders firing at `fires` (seconds) by fire time, then `key`. Only
    /// (instant, index) pairs are sorted, and keys are asked for only for reminders that share
    /// their instant with another.
    static func fireOrder(_ fires: [Int64], key: (Int) -> ReminderKey) -> [Int] {
        var order: [Int]
        var sorted: [Int64]
        let first = fires.min() ?? 0
        let last = fires.max() ?? 0
        if last - first < 1 << 32 && fires.count < 1 << 32 {
            // Seconds from the first and the index in one word: one sort of plain integers, all
            // different, so the order among equal instants is the reminders' own.
            var packed = fires.indices.map { UInt64(fires[$0] - first) << 32 | UInt64($0) }
            radixSort(&packed, spanning: UInt64(last - first))
            order = packed.map { Int($0 & 0xFFFF_FFFF) }
            sorted = packed.map { Int64($0 >> 32) }
        } else {
            var pairs = fires.indices.map { (fire: fires[$0], index: $0) }
            pairs.sort { $0 < $1 }
            order = pairs.map(\.index)
            sorted = pairs.map(\.fire)
        }
        var scratch = KeyScratch()
        // Groups put in order where they are: a slice of the array per group would count a
        // reference and check for a unique buffer each time.
        order.withUnsafeMutableBufferPointer { order in
            var run = 0
            while run < sorted.count {
                var end = run + 1
                while end < sorted.count && sorted[end] == sorted[run] { end += 1 }
                if end - run > 1 { orderByKey(UnsafeMutableBufferPointer(rebasing: order[run..<end]), key, &scratch) }
                run = end
            }
        }
        return order
    }

    /// Sorts words by their upper halves, which are at most `span`, keeping the order of equal
    /// ones (their lower halves are their indices, already in order): least significant digit
    /// first, 11 bits a pass, as many passes as `span` has bits (two for a slice of days).
    static func radixSort(_ keys: inout [UInt64], spanning span: UInt64) {
        let bits = 64 - span.leadingZeroBitCount
        guard bits > 0 && keys.count > 1 else { return }
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 2049)
        var shift: UInt64 = 32
        while shift < UInt64(32 + bits) {
            keys.withUnsafeBufferPointer { from in
                scratch.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in counts.indices { counts[i] = 0 }
                        for key in from { counts[Int((key >> shift) & 2047) + 1] += 1 }
                        for digit in 1..<counts.count { counts[digit] += counts[digit - 1] }
                        for key in from {
                            let digit = Int((key >> shift) & 2047)
                            to[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
            shift += 11
        }
    }

    /// Buffers the key comparisons of one plan reuse from group to group.
    struct KeyScratch {
        let bytes = ByteBuffer()
        var spans: [Range<Int>] = []
        var members: [Int] = []
    }

    /// Orders reminders that share an instant by their keys' text. The keys' bytes go into one
    /// buffer and are compared there (for ASCII, byte order is String order); only a group with a
    /// non-ASCII key (a calendar UID) compares Strings, which order by normalised scalars.
    static func orderByKey(_ group: UnsafeMutableBufferPointer<Int>, _ key: (Int) -> ReminderKey, _ scratch: inout KeyScratch) {
        // A few (most instants shared are shared by two or three): in place, by `precedes`,
        // which compares our own keys by their parts.
        if group.count <= 16 {
            for i in group.indices.dropFirst() {
                let member = group[i]
                let memberKey = key(member)
                var j = i
                while j > group.startIndex && memberKey.precedes(key(group[j - 1])) {
                    group[j] = group[j - 1]
                    j -= 1
                }
                group[j] = member
            }
            return
        }
        scratch.bytes.removeAll()
        scratch.spans.removeAll(keepingCapacity: true)
        scratch.members.removeAll(keepingCapacity: true)
        scratch.members.append(contentsOf: group)
        for index in group {
            let start = scratch.bytes.count
            key(index).write(to: scratch.bytes)
            scratch.spans.append(start..<scratch.bytes.count)
        }
        let members = scratch.members
        let ranked: [Int]
        if scratch.bytes.withBytes({ $0.allSatisfy { $0 < 0x80 } }) {
            let bytes = scratch.bytes, spans = scratch.spans
            ranked = members.indices.sorted { bytes.slice(spans[$0]).lexicographicallyPrecedes(bytes.slice(spans[$1])) }
        } else {
            let keys = members.map { key($0).description }
            ranked = members.indices.sorted { keys[$0] < keys[$1] }
        }
        for (position, rank) in zip(group.indices, ranked) { group[position] = members[rank] }
    }
}
