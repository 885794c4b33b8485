import DawnletCore

/// A `SimpleFile`'s events made instances as the libical path makes them (`instances`, `add`):
/// the same instants, names, days and budget taken, for the shapes it reads.
extension CalendarReader.FileReader {
    /// How far outside the window an instance of an item without alarms can remind inside it.
    static let simpleReach: Int64 = 8 * 86_400

    /// The system's zone a time's nominal days follow (as `dayZone`): its TZID's, UTC's, else the
    /// planning zone's.
    func dayZone(_ t: CalendarReader.SimpleFile.Time) -> ZoneDayCache? {
        guard !t.isDate else { return zones.planning }
        switch t.clock {
        case .floating: return zones.planning
        case .utc: return zones.named("UTC")
        case .named(let tzid): return zones.named(tzid)
        }
    }

    /// `base` moved by an alarm's lead, as `shift` moves it: days on the calendar of `t`'s zone,
    /// then hours, minutes and seconds exactly.
    func shift(_ base: Instant, by lead: CalendarReader.SimpleFile.Lead, like t: CalendarReader.SimpleFile.Time) -> Instant {
        let sign = lead.negative ? -1 : 1
        var moved = base
        if lead.days != 0 {
            if let zone = dayZone(t) {
                let local = ISO8601.localDate(of: base, in: zone.zone)
                let wall = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)!
                moved = zone.resolve(wall, on: local.date.adding(days: sign * lead.days)).instant.adding(seconds: Int64(local.secondsOfDay % 60))
            } else {
                moved = base.adding(seconds: Int64(sign * lead.days) * 86_400)
            }
        }
        return moved.adding(seconds: Int64(sign * lead.seconds))
    }

    mutating func expand(_ file: CalendarReader.SimpleFile) {
        for event in file.events { expand(event) }
    }

    func instant(_ t: CalendarReader.SimpleFile.Time) -> Instant? {
        if t.isDate { return dayStart(t.date) }
        guard let wall = WallTime(hour: t.secondsOfDay / 3600, minute: t.secondsOfDay / 60 % 60) else { return nil }
        let second = Int64(t.secondsOfDay % 60)
        switch t.clock {
        case .utc: return Instant(secondsSinceEpoch: Int64(t.date.dayNumber) * 86_400 + Int64(t.secondsOfDay))
        case .floating: return zones.planning.resolve(wall, on: t.date).instant.adding(seconds: second)
        case .named(let tzid): return zones.named(tzid)?.resolve(wall, on: t.date).instant.adding(seconds: second)
        }
    }

    func instanceName(_ t: CalendarReader.SimpleFile.Time, at: Instant?) -> String {
        t.isDate ? CalendarExport.basic(t.date) : at.map(CalendarExport.basic) ?? "invalid"
    }

    mutating func expand(_ event: CalendarReader.SimpleFile.Event) {
        let start = event.start
        let startInstant = instant(start)
        var instances: [(at: Instant?, date: CivilDate, name: String?)] = []
        // How far before and after its start an instance can remind: its alarms' leads, and the
        // days the kind's default reminders may reach.
        var (before, after) = (Self.simpleReach, Self.simpleReach)
        for lead in event.alarms {
            before = max(before, -lead.asSeconds + 86_400)
            after = max(after, lead.asSeconds + 86_400)
        }
        if let rule = event.rule {
            let begin = window.lowerBound.adding(seconds: -after)
            let end = window.upperBound.adding(seconds: before)
            var seen = Set<String>()
            func consider(_ t: CalendarReader.SimpleFile.Time, at: Instant?) {
                guard let at, at >= begin && at <= end else { return }
                let name = instanceName(t, at: at)
                guard seen.insert(name).inserted else { return }
                instances.append((at, t.date, name))
            }
            let local = LocalDateTime(date: start.date, secondsOfDay: start.isDate ? 0 : start.secondsOfDay)
            // Wall times a day either side of the instants: no zone is further than that from UTC.
            let from = LocalDateTime(localSeconds: begin.secondsSinceEpoch - 2 * 86_400)
            let through = LocalDateTime(localSeconds: end.secondsSinceEpoch + 2 * 86_400)
            var spent = false
            rule.forEach(start: local, from: from, through: through) { wall in
                var t = start
                t.date = wall.date
                if !start.isDate { t.secondsOfDay = wall.secondsOfDay }
                let at = instant(t)
                if rule.until?.passed(by: wall, at: at) == true { return false }
                guard budget.take() else {
                    spent = true
                    return false
                }
                consider(t, at: at)
                return true
            }
            if spent, budget.ruleCut == nil { budget.ruleCut = (calendar, event.uid) }
            if spent, let report = budget.report() {
                problem("\(event.uid): \(report): the rest of this rule, and of the calendars after it, is skipped")
            }
            consider(start, at: startInstant)
        } else {
            instances = [(startInstant, start.date, nil)]
        }
        guard !event.cancelled else { return }
        for instance in instances {
            guard let from = start.isDate ? dayStart(instance.date) : instance.at else { continue }
            var (at, time, day) = (Instant?.none, WallTime?.none, instance.date)
            if !start.isDate {
                at = from
                let local = ISO8601.localDate(of: from, in: zone)
                day = local.date
                time = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)
            }
            // What `ICalendar.OccurrenceMarks.due` gives for alarms without marks: each instant, once, sorted.
            var alarms: [Instant]?
            if !event.alarms.isEmpty {
                let instants = event.alarms.map { shift(from, by: $0, like: start) }
                alarms = instants.count == 1 ? instants : Array(Set(instants)).sorted()
            }
            let shown = at ?? from
            let inWindow = shown >= window.lowerBound.adding(seconds: -after) && shown <= window.upperBound.adding(seconds: before)
            guard inWindow || alarms?.contains(where: window.contains) == true else { continue }
            occurrences.append(
                CalendarOccurrence(
                    calendar: calendar, uid: event.uid, kind: .event, title: event.title, date: day, start: at, time: time, alarms: alarms,
                    instance: instance.name))
        }
    }
}
