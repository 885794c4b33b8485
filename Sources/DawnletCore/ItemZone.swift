/// An item's own zone: a todo or event whose wall time is read in a named zone (`America/New_York`)
/// keeps its instant whatever zone the machine or the viewer is in, and the DST changes of its
/// zone, not the viewer's, decide. An item without one is floating: its wall time is read in the
/// viewer's zone. Pure: the zones are values the caller loaded (`ZoneDatabase`).
public enum ItemZone {
    /// The instant of `time` on `date` in `zone` (a gap's time moved on, a repeated hour's first).
    public static func instant(_ time: WallTime, on date: CivilDate, in zone: Zone) -> Instant {
        zone.resolve(time, on: date).instant
    }

    /// Where an item's wall time falls for a viewer: the viewer's date and time, and the item's own
    /// time and zone (`16:00 America/New_York`) when the viewer's differ from them (another zone's
    /// name, another time); nil `own` when they read the same.
    public struct Shown: Hashable, Sendable {
        public let date: CivilDate
        public let time: WallTime
        /// `16:00 America/New_York`, or `Tue 16:00 America/New_York` when its day is not the
        /// viewer's; nil when the viewer's reading is the item's own.
        public let own: String?
    }

    /// How `time` on `date` in `zone` reads in `viewer`.
    public static func shown(_ time: WallTime, on date: CivilDate, in zone: Zone, viewer: Zone) -> Shown {
        let instant = instant(time, on: date, in: zone)
        let local = ISO8601.localDate(of: instant, in: viewer)
        let wall = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)!
        // The same wall time at the same offset reads the same: nothing to add.
        if local.date == date && wall == time && zone.utcOffset(at: instant) == viewer.utcOffset(at: instant) {
            return Shown(date: date, time: time, own: nil)
        }
        let weekday = date.weekday.shortName.prefix(1).uppercased() + date.weekday.shortName.dropFirst()
        return Shown(date: local.date, time: wall, own: (local.date == date ? "" : "\(weekday) ") + "\(time) \(zone.identifier)")
    }

    /// `22:00 (16:00 America/New_York)`: the viewer's time, and the item's own when it differs.
    public static func text(_ shown: Shown) -> String {
        shown.own.map { "\(shown.time) (\($0))" } ?? shown.time.description
    }
}
