import DawnletCore

extension CalendarReader {
    /// A calendar file of the shapes most files are, read without libical, in the compact form
    /// kept between plans: one VCALENDAR of VEVENTs, each with a UID, a DTSTART (UTC, floating,
    /// a date, or a TZID the system's zone data knows), at most one plain RRULE, and properties
    /// that change nothing planned (DTEND, DESCRIPTION, DTSTAMP…); VTIMEZONEs of IANA names.
    /// Anything else (an alarm, an override, EXDATE, RDATE, a todo, a custom zone, an escape or a
    /// line libical might read otherwise, invalid UTF-8, a NUL, a long line, a duplicate UID, a
    /// property it does not know) makes it nil, and libical reads the file: the occurrences
    /// are the same either way.
    struct SimpleFile: Sendable {
        enum Clock: Equatable, Sendable {
            case floating, utc
            case named(String)
        }

        /// DTSTART: a date, or a wall time on a clock.
        struct Time: Sendable {
            var date: CivilDate
            var secondsOfDay: Int
            let isDate: Bool
            let clock: Clock
        }

        struct Event: Sendable {
            let uid: String
            let title: String
            let start: Time
            let rule: RecurrenceRule?
            let cancelled: Bool
            /// Its VALARMs' TRIGGERs, each relative to the start.
            let alarms: [Lead]
        }

        /// An iCalendar duration (`-PT15M`, `P1DT2H`): nominal days and weeks, exact hours,
        /// minutes and seconds.
        struct Lead: Sendable {
            let negative: Bool
            let days: Int
            let seconds: Int

            /// As libical counts it (`icaldurationtype_as_int`): a day as 86,400 s.
            var asSeconds: Int64 { Int64(negative ? -1 : 1) * (Int64(days) * 86_400 + Int64(seconds)) }
        }

        var events: [Event] = []

        /// Nil unless every line is of the shapes read here; `knows` says whether the system's zone
        /// data knows a TZID, `builtin` whether libical does without a VTIMEZONE of it in the file.
        init?(_ bytes: [UInt8], knows: (String) -> Bool, builtin: (String) -> Bool) {
            guard !bytes.isEmpty, !ICalendar.AlarmMarks.mayBeIn(bytes), Self.isCleanText(bytes),
                let events = bytes.withUnsafeBufferPointer({ Self.events($0, knows: knows, builtin: builtin) })
            else { return nil }
            self.events = events
        }

        /// The events of a file's bytes, or nil.
        static func events(_ bytes: UnsafeBufferPointer<UInt8>, knows: (String) -> Bool, builtin: (String) -> Bool) -> [Event]? {
            var lines = Lines(bytes)
            defer { lines.release() }
            var events: [Event] = []
            guard let first = lines.next(), first.name == "BEGIN", first.value == "VCALENDAR" else { return nil }
            var vtimezones = Set<String>()
            var tzids = Set<String>()
            var uids = Set<String>()
            var ended = false
            while let line = lines.next() {
                if ended { return nil }
                switch line.name {
                case "END":
                    guard line.value == "VCALENDAR" else { return nil }
                    ended = true
                case "BEGIN":
                    switch line.value {
                    case "VTIMEZONE": guard let tzid = Self.timezone(&lines, knows: knows) else { return nil }; vtimezones.insert(tzid)
                    case "VEVENT":
                        guard let event = Self.event(&lines, tzids: &tzids), uids.insert(event.uid).inserted else { return nil }
                        events.append(event)
                    default: return nil
                    }
                case "VERSION", "PRODID": guard line.params.isEmpty else { return nil }
                case "CALSCALE": guard line.params.isEmpty, line.value == "GREGORIAN" else { return nil }
                case "METHOD": guard line.params.isEmpty, line.value == "PUBLISH" else { return nil }
                default: guard Self.isExtension(line.name) else { return nil }
                }
            }
            guard ended, !lines.failed else { return nil }
            for tzid in tzids where !knows(tzid) || !(vtimezones.contains(tzid) || builtin(tzid)) { return nil }
            return events
        }

        /// No NUL, no BOM, no bare CR, valid UTF-8.
        static func isCleanText(_ bytes: [UInt8]) -> Bool {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return false }
            var ascii = true
            for (i, byte) in bytes.enumerated() {
                if byte == 0 { return false }
                if byte == 13, i + 1 < bytes.count, bytes[i + 1] != 10 { return false }
                if byte >= 0x80 { ascii = false }
            }
            return ascii || String(validating: bytes, as: UTF8.self) != nil
        }

        static func isExtension(_ name: String) -> Bool {
            name.hasPrefix("X-") && !name.hasPrefix("X-LIC-") && !name.hasPrefix("X-MOZ-")
        }

        /// A VTIMEZONE of a name the system knows, whose rules repeat yearly or monthly: its TZID.
        static func timezone(_ lines: inout Lines, knows: (String) -> Bool) -> String? {
            var tzid: String?
            var depth = 0
            while let line = lines.next() {
                switch line.name {
                case "BEGIN":
                    guard depth == 0, line.value == "STANDARD" || line.value == "DAYLIGHT" else { return nil }
                    depth += 1
                case "END":
                    if depth == 1 {
                        depth = 0
                    } else {
                        guard line.value == "VTIMEZONE", let tzid, knows(tzid) else { return nil }
                        return tzid
                    }
                case "TZID": tzid = line.value
                case "RRULE": guard line.has("FREQ=YEARLY") || line.has("FREQ=MONTHLY") else { return nil }
                default: continue
                }
            }
            return nil
        }

        static func event(_ lines: inout Lines, tzids: inout Set<String>) -> Event? {
            var (uid, summary, start, rule, cancelled) = (String?.none, String?.none, Time?.none, RecurrenceRule?.none, false)
            var alarms: [Lead] = []
            // The properties seen, a bit each: each may come once.
            var seen = 0
            func once(_ bit: Int) -> Bool {
                defer { seen |= bit }
                return seen & bit == 0
            }
            while let line = lines.next() {
                if line.name == "BEGIN" {
                    guard line.value == "VALARM", let lead = alarm(&lines) else { return nil }
                    alarms.append(lead)
                    continue
                }
                if line.name == "END" {
                    guard line.value == "VEVENT", let uid, let start else { return nil }
                    let title = summary.map { DisplayText.bounded($0, to: CalendarReader.longestTitle) } ?? "(untitled)"
                    if let rule, !usable(rule, start: start) { return nil }
                    if case .named(let tzid) = start.clock { tzids.insert(tzid) }
                    return Event(uid: uid, title: title, start: start, rule: rule, cancelled: cancelled, alarms: alarms)
                }
                // Each property once: a second of one is libical's to pick and say.
                guard !line.raw.isEmpty else { return nil }
                switch line.name {
                case "UID":
                    guard once(1), line.params.isEmpty, !line.raw.contains(92) else { return nil }
                    uid = line.value
                case "SUMMARY":
                    guard once(2), line.params.isEmpty, let text = unescaped(line) else { return nil }
                    summary = text
                case "DTSTART":
                    guard once(4), let time = time(line) else { return nil }
                    start = time
                // DTEND and DURATION exclude each other.
                case "DTEND": guard once(8), time(line) != nil else { return nil }
                case "DURATION": guard once(8), line.params.isEmpty, lead(line.value) != nil else { return nil }
                case "RRULE":
                    // Capitals, digits and `+,-;=` only.
                    guard once(32), line.params.isEmpty, line.raw.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 43 && $0 <= 61 && $0 != 46 && $0 != 47) }),
                        let parsed = try? RecurrenceRule(parsing: line.value)
                    else { return nil }
                    rule = parsed
                case "STATUS":
                    guard once(64), ["CONFIRMED", "TENTATIVE", "CANCELLED"].contains(line.value) else { return nil }
                    cancelled = line.value == "CANCELLED"
                case "DTSTAMP", "CREATED", "LAST-MODIFIED":
                    let bit = line.name == "DTSTAMP" ? 128 : line.name == "CREATED" ? 256 : 512
                    guard once(bit), line.params.isEmpty, let stamp = time(line), !stamp.isDate, stamp.clock == .utc else { return nil }
                case "SEQUENCE", "PRIORITY":
                    guard once(line.name == "SEQUENCE" ? 1024 : 2048), line.params.isEmpty, line.raw.count < 9, line.raw.allSatisfy({ $0 >= 48 && $0 <= 57 })
                    else { return nil }
                case "CLASS": guard once(4096), ["PUBLIC", "PRIVATE", "CONFIDENTIAL"].contains(line.value) else { return nil }
                case "TRANSP": guard once(8192), ["OPAQUE", "TRANSPARENT"].contains(line.value) else { return nil }
                case "DESCRIPTION", "LOCATION", "COMMENT", "CATEGORIES": guard unescaped(line) != nil else { return nil }
                default: guard Self.isExtension(line.name) else { return nil }
                }
            }
            return nil
        }

        /// A rule planned as libical reads it, with nothing to say of it: the parts both read
        /// alike, no finer than MINUTELY, no times of day on a date, UNTIL of DTSTART's type.
        static func usable(_ rule: RecurrenceRule, start: Time) -> Bool {
            guard rule.frequency >= .minutely, !(rule.count != nil && rule.until != nil) else { return false }
            guard rule.bySecond.isEmpty, rule.byMinute.isEmpty, rule.byHour.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.bySetPos.isEmpty
            else { return false }
            switch (start.isDate, rule.until) {
            case (false, .date?), (true, .utc?), (true, .local?): return false
            default: return true
            }
        }

        /// TEXT as libical gives it back: `\n`, `\,`, `\;` and `\\` undone; nil for any other escape.
        static func unescaped(_ line: Line) -> String? {
            guard line.raw.contains(92) else { return line.value }
            let value = line.value
            var result = ""
            var escaping = false
            for c in value {
                if escaping {
                    switch c {
                    case "n", "N": result.append("\n")
                    case ",", ";", "\\": result.append(c)
                    default: return nil
                    }
                    escaping = false
                } else if c == "\\" {
                    escaping = true
                } else {
                    result.append(c)
                }
            }
            return escaping ? nil : result
        }

        /// `P1D`, `-PT15M`, `P2W`, `P1DT2H`; nil for anything else.
        static func lead(_ value: String) -> Lead? {
            var text = Substring(value)
            let negative = text.first == "-"
            if text.first == "+" || text.first == "-" { text = text.dropFirst() }
            guard text.first == "P" else { return nil }
            text = text.dropFirst()
            var (digits, number, any, timed) = (0, 0, false, false)
            var (days, seconds) = (0, 0)
            for c in text {
                if let digit = c.wholeNumberValue, c.isASCII {
                    (digits, number) = (digits + 1, number * 10 + digit)
                } else if c == "T", !timed, digits == 0 {
                    timed = true
                } else if digits > 0, digits < 7, (timed ? "HMS" : "WD").contains(c) {
                    switch c {
                    case "W": days += number * 7
                    case "D": days += number
                    case "H": seconds += number * 3600
                    case "M": seconds += number * 60
                    default: seconds += number
                    }
                    (digits, number, any) = (0, 0, true)
                } else {
                    return nil
                }
            }
            return any && digits == 0 ? Lead(negative: negative, days: days, seconds: seconds) : nil
        }

        /// A VALARM whose one TRIGGER is a duration from the start, without REPEAT: its lead.
        static func alarm(_ lines: inout Lines) -> Lead? {
            var (lead, seen) = (Lead?.none, (trigger: false, action: false))
            while let line = lines.next() {
                guard !line.raw.isEmpty else { return nil }
                switch line.name {
                case "END": return line.value == "VALARM" ? lead : nil
                case "TRIGGER":
                    guard !seen.trigger, line.params.allSatisfy({ $0 == "RELATED=START" || $0 == "VALUE=DURATION" }) else { return nil }
                    (lead, seen.trigger) = (Self.lead(line.value), true)
                case "ACTION":
                    guard !seen.action, ["DISPLAY", "AUDIO", "EMAIL"].contains(line.value) else { return nil }
                    seen.action = true
                case "DESCRIPTION", "SUMMARY": guard unescaped(line) != nil else { return nil }
                case "UID": continue
                default: guard Self.isExtension(line.name) else { return nil }
                }
            }
            return nil
        }

        /// A DTSTART-like value: `20261201` (VALUE=DATE or bare), `20261201T090000`, with `Z`, or with
        /// a TZID parameter.
        static func time(_ line: Line) -> Time? {
            var (tzid, valueType) = (String?.none, String?.none)
            for param in line.params {
                guard let eq = param.firstIndex(of: "=") else { return nil }
                let (name, value) = (param[..<eq], String(param[param.index(after: eq)...]))
                switch name {
                case "TZID": tzid = value
                case "VALUE": valueType = value
                default: return nil
                }
            }
            let digits = line.raw
            func at(_ i: Int) -> UInt8 { digits[digits.startIndex + i] }
            func number(_ range: Range<Int>) -> Int? {
                var n = 0
                for i in range {
                    guard at(i) >= 48 && at(i) <= 57 else { return nil }
                    n = n * 10 + Int(at(i) - 48)
                }
                return n
            }
            guard digits.count >= 8, let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
                let date = CivilDate(year: year, month: month, day: day)
            else { return nil }
            if digits.count == 8 {
                guard tzid == nil, valueType == nil || valueType == "DATE" else { return nil }
                return Time(date: date, secondsOfDay: 0, isDate: true, clock: .floating)
            }
            let utc = digits.count == 16 && at(15) == UInt8(ascii: "Z")
            guard digits.count == 15 || utc, at(8) == UInt8(ascii: "T"), valueType == nil || valueType == "DATE-TIME",
                let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15), hour < 24, minute < 60, second < 60,
                !(utc && tzid != nil)
            else { return nil }
            return Time(date: date, secondsOfDay: hour * 3600 + minute * 60 + second, isDate: false, clock: utc ? .utc : tzid.map { .named($0) } ?? .floating)
        }

        /// A content line: its name, its parameters (`TZID=Europe/Berlin`), its value.
        struct Line {
            let name: String
            let params: [Substring]
            /// The value's bytes (in the file, or in `Lines.folded`), made a String only when asked.
            let raw: UnsafeBufferPointer<UInt8>
            var value: String { String(decoding: raw, as: UTF8.self) }

            /// Whether the value holds `text`.
            func has(_ text: StaticString) -> Bool {
                let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
                guard raw.count >= pattern.count else { return false }
                return (raw.startIndex...(raw.endIndex - pattern.count)).contains { at in pattern.indices.allSatisfy { raw[at + $0] == pattern[$0] } }
            }
        }

        /// The unfolded content lines of a file; `failed` once one is not of a shape read here
        /// (a quoted parameter, a lowercase or empty name, no colon, an empty line amid others,
        /// longer than libical's reader is given here).
        struct Lines {
            let bytes: UnsafeBufferPointer<UInt8>
            var position = 0
            var failed = false
            /// Folded lines made whole, freed by `release`.
            private var folded: [UnsafeMutableBufferPointer<UInt8>] = []

            init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

            mutating func release() { for buffer in folded { buffer.deallocate() } }

            mutating func next() -> Line? {
                guard !failed, position < bytes.count else { return nil }
                // The physical line, in the file; copied only when folded.
                var start = position
                var end = bytes[position...].firstIndex(of: 10) ?? bytes.count
                var stop = end > position && bytes[end - 1] == 13 ? end - 1 : end
                position = end + 1
                var logical = UnsafeBufferPointer(rebasing: bytes[start..<stop])
                if position < bytes.count && (bytes[position] == 32 || bytes[position] == 9) {
                    var whole = Array(logical)
                    repeat {
                        // A continuation's one leading space or tab is the fold's, not the text's.
                        start = position + 1
                        end = bytes[position...].firstIndex(of: 10) ?? bytes.count
                        stop = end > position && bytes[end - 1] == 13 ? end - 1 : end
                        whole += bytes[min(start, stop)..<stop]
                        position = end + 1
                    } while position < bytes.count && (bytes[position] == 32 || bytes[position] == 9)
                    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: whole.count)
                    _ = copy.initialize(from: whole)
                    folded.append(copy)
                    logical = UnsafeBufferPointer(copy)
                }
                if logical.isEmpty {
                    // Only empty lines may follow an empty line: the end of the file.
                    while position < bytes.count {
                        guard bytes[position] == 10 || bytes[position] == 13 else { return fail() }
                        position += 1
                    }
                    return nil
                }
                guard logical.count < ContentLines.longest - 64 else { return fail() }
                // The name: capitals, digits and hyphens, up to `;` or `:`.
                var i = 0
                while i < logical.count, (logical[i] >= 65 && logical[i] <= 90) || (logical[i] >= 48 && logical[i] <= 57) || logical[i] == 45 { i += 1 }
                guard i > 0, i < logical.count, logical[i] == 58 || logical[i] == 59 else { return fail() }
                let name = String(decoding: UnsafeBufferPointer(rebasing: logical[..<i]), as: UTF8.self)
                var params: [Substring] = []
                if logical[i] == 59 {
                    guard let colon = logical[i...].firstIndex(of: 58), !logical[i..<colon].contains(34) else { return fail() }
                    params = logical[(i + 1)..<colon].split(separator: 59, omittingEmptySubsequences: false).map { Substring(decoding: $0, as: UTF8.self) }
                    i = colon
                }
                return Line(name: name, params: params, raw: UnsafeBufferPointer(rebasing: logical[(i + 1)...]))
            }

            private mutating func fail() -> Line? {
                failed = true
                return nil
            }
        }
    }
}
