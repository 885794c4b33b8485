/// What a calendar item says was done with its alarms, on any device (RFC 9074, and what
/// Thunderbird, Tasks.org and Apple's Calendar write), and the one set of rules that says which
/// alarm instants still fire: read by `CalendarReader` for every calendar, and by
/// `CalendarRoundTrip` for our own files.
extension ICalendar {
    /// An item's (a VEVENT's, a VTODO's, an override's) marks, as its component has them.
    public struct AlarmMarks: Hashable, Sendable {
        /// The properties a mark is made of, upper case: a text with none of them at the start
        /// of a line (in any case) holds no marks, and its model need not be read for them.
        static let markers: [[UInt8]] = ["ACKNOWLEDGED", "X-MOZ-", "RELATED-TO", "ACTION:NONE"].map { Array($0.utf8) }

        /// Whether `bytes` may hold a mark: a line that begins with a marker's name. Linear, and
        /// the common calendar (alarms nobody answered elsewhere) is told from one pass.
        public static func mayBeIn(_ bytes: [UInt8]) -> Bool {
            var start = 0
            while start < bytes.count {
                // A line's first byte (a continuation's leading space is no name's).
                let first = bytes[start] & 0xDF
                if first == UInt8(ascii: "A") || first == UInt8(ascii: "X") || first == UInt8(ascii: "R") {
                    for marker in markers where bytes.count - start >= marker.count {
                        var matches = true
                        for (offset, byte) in marker.enumerated() {
                            let b = bytes[start + offset]
                            // Letters compared in either case; '-' and ':' as they are.
                            if (b >= 0x61 && b <= 0x7A ? b - 0x20 : b) != byte {
                                matches = false
                                break
                            }
                        }
                        if matches { return true }
                    }
                }
                guard let newline = bytes[start...].firstIndex(of: 0x0A) else { break }
                start = newline + 1
            }
            return false
        }

        /// One VALARM, in the component's order.
        public struct Alarm: Hashable, Sendable {
            public var uid: String?
            /// Its ACKNOWLEDGED: its instants up to then were seen.
            public var acknowledged: Instant?
            /// The UID of the alarm it snoozes: its RELATED-TO with RELTYPE=SNOOZE (RFC 9074), or
            /// without RELTYPE, as Apple's Calendar writes it (in a VALARM it names the same).
            public var snoozes: String?
            /// `ACTION:NONE` (RFC 9074): it never fires, and still counts as the item's alarm.
            public var placeholder = false
            /// Its TRIGGER when an instant in UTC (an absolute one, as a snooze alarm's is).
            public var at: Instant?
        }

        /// A Thunderbird snooze: `X-MOZ-SNOOZE-TIME` (`id` nil), or `X-MOZ-SNOOZE-TIME-ID` for one
        /// instance of a repeating item.
        public struct Snooze: Hashable, Sendable {
            public var id: String?
            public var until: Instant
        }

        /// Its X-MOZ-LASTACK (the latest): every alarm up to then was seen.
        public var lastAck: Instant?
        public var snoozes: [Snooze] = []
        public var alarms: [Alarm] = []

        public init() {}

        public init(_ component: Component) {
            for property in component.properties {
                guard let at = property.utc else { continue }
                if property.name == "X-MOZ-LASTACK" { lastAck = max(lastAck ?? at, at) }
                if property.name == "X-MOZ-SNOOZE-TIME" { snoozes.append(Snooze(until: at)) }
                if property.name.hasPrefix("X-MOZ-SNOOZE-TIME-") {
                    snoozes.append(Snooze(id: String(property.name.dropFirst("X-MOZ-SNOOZE-TIME-".count)), until: at))
                }
            }
            alarms = component.alarms.map { alarm in
                Alarm(
                    uid: alarm.first("UID")?.value, acknowledged: alarm.first("ACKNOWLEDGED")?.utc, snoozes: alarm.snoozedAlarm,
                    placeholder: alarm.first("ACTION")?.value.uppercased() == "NONE", at: alarm.first("TRIGGER")?.utc)
            }
        }

        /// The latest acknowledgement of the item as a whole: its X-MOZ-LASTACK, or an alarm's
        /// ACKNOWLEDGED (a snooze alarm's aside, which says when the snooze was seen).
        public var acknowledged: Instant? {
            ([lastAck] + alarms.filter { $0.snoozes == nil }.map(\.acknowledged)).compactMap { $0 }.max()
        }

        /// The snoozes not yet seen, each with the alarm it snoozed (nil: the item's) and when it was
        /// made (the ACKNOWLEDGED the snooze wrote into the alarm it snoozed, else X-MOZ-LASTACK):
        /// a snooze alarm after its own ACKNOWLEDGED and X-MOZ-LASTACK, a Thunderbird snooze after
        /// X-MOZ-LASTACK.
        public var pending: [(until: Instant, alarm: String?, madeAt: Instant?)] {
            var found: [(until: Instant, alarm: String?, madeAt: Instant?)] = []
            for alarm in alarms {
                guard let parent = alarm.snoozes, let until = alarm.at, Self.after(until, [alarm.acknowledged, lastAck]) else { continue }
                let made = alarms.first { $0.uid == parent }?.acknowledged
                found.append((until, parent, made ?? lastAck))
            }
            for snooze in snoozes where Self.after(snooze.until, [lastAck]) && !found.contains(where: { $0.until == snooze.until }) {
                found.append((snooze.until, nil, lastAck))
            }
            return found
        }

        static func after(_ at: Instant, _ marks: [Instant?]) -> Bool { marks.compactMap { $0 }.max().map { at > $0 } ?? true }
    }

    /// The marks that apply to one occurrence: the item's, and (an override's) its series', where
    /// Thunderbird keeps an instance's acknowledgement and snooze.
    public struct OccurrenceMarks: Sendable {
        /// X-MOZ-LASTACK of the item or its series.
        public let lastAck: Instant?
        /// The Thunderbird snoozes of this occurrence: the plain one of a single item (`single`:
        /// DTSTART's instance), or X-MOZ-SNOOZE-TIME-ID on the series or the override, ID naming
        /// this instance (`instance`, its RECURRENCE-ID value, as `snoozeNames` reads it).
        public let snoozes: [Instant]
        /// The times of every instance's X-MOZ-SNOOZE-TIME-ID, whichever instance it names: a
        /// snooze alarm on the series at one of them is that instance's, not DTSTART's.
        public let instanceSnoozes: Set<Instant>
        public let alarms: [AlarmMarks.Alarm]

        public init(item: AlarmMarks, series: AlarmMarks?, instance: String?, single: Bool) {
            let names = instance.map(Self.snoozeNames) ?? []
            var snoozes: [Instant] = []
            var instanceSnoozes: Set<Instant> = []
            for (marks, own) in [(item, true)] + (series.map { [($0, false)] } ?? []) {
                for snooze in marks.snoozes {
                    if let id = snooze.id {
                        instanceSnoozes.insert(snooze.until)
                        if names.contains(id) { snoozes.append(snooze.until) }
                    } else if single && own {
                        snoozes.append(snooze.until)
                    }
                }
            }
            lastAck = [item.lastAck, series?.lastAck].compactMap { $0 }.max()
            (self.snoozes, self.instanceSnoozes, alarms) = (snoozes, instanceSnoozes, item.alarms)
        }

        /// The instants that fire, of each alarm's (`fired`, in the order of `alarms`: its first
        /// instant, then its repetitions; none for one that does not fire for this occurrence) and
        /// of the snoozes: one at or before its alarm's ACKNOWLEDGED, X-MOZ-LASTACK, or (a snoozed
        /// alarm) the time of a snooze of it is left out. Sorted, each once.
        public func due(_ fired: [[Instant]]) -> [Instant] {
            // An alarm without marks (none read for it) is unmarked: it fires as it is.
            let alarms = fired.indices.map { $0 < self.alarms.count ? self.alarms[$0] : .unmarked }
            var snoozedUntil: [String: Instant] = [:]
            for (alarm, instants) in zip(alarms, fired) {
                if let parent = alarm.snoozes, let first = instants.first { snoozedUntil[parent] = max(snoozedUntil[parent] ?? first, first) }
            }
            var result = snoozes.filter { AlarmMarks.after($0, [lastAck]) }
            for (alarm, instants) in zip(alarms, fired) {
                let marks = [alarm.acknowledged, lastAck, alarm.uid.flatMap { snoozedUntil[$0] }]
                result += instants.filter { AlarmMarks.after($0, marks) }
            }
            return Array(Set(result)).sorted()
        }

        /// The IDs an X-MOZ-SNOOZE-TIME-ID for the instance named `instance` (`20261201T090000Z`,
        /// `20261201`) may have: its RECURRENCE-ID in microseconds since 1970, as Thunderbird writes
        /// it (a date's at its midnight in UTC), in milliseconds or seconds, or the value itself.
        public static func snoozeNames(_ instance: String) -> Set<String> {
            var ids: Set<String> = [instance.uppercased()]
            let seconds: Int64? =
                switch RecurrenceRule.until(instance) {
                case .utc(let at)?: at.secondsSinceEpoch
                case .date(let date)?: Zone.utc.resolve(WallTime.midnight, on: date).instant.secondsSinceEpoch
                default: nil
                }
            if let seconds { ids.formUnion(["\(seconds * 1_000_000)", "\(seconds * 1000)", "\(seconds)"]) }
            return ids
        }
    }
}

extension ICalendar.AlarmMarks.Alarm {
    /// An alarm with no marks.
    public static let unmarked = Self()
}

extension ICalendar.Component {
    /// A VALARM's RELATED-TO naming the alarm it snoozes: with RELTYPE=SNOOZE (RFC 9074), or
    /// without RELTYPE, as Apple's Calendar writes it (in a VALARM it names the same). Its value.
    public var snoozedAlarm: String? {
        properties.first { $0.name == "RELATED-TO" && ($0.parameter("RELTYPE").map { $0.uppercased() == "SNOOZE" } ?? true) }?.value
    }
}
