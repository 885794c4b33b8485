extension CalendarWriteBack {
    /// Whether a calendar file says a reminder that went out here at `firedAt`, of the item `uid`
    /// (its `instance`, for one of a repeating item), was answered on another device since: its
    /// occurrence completed or cancelled (the item's or its override's `STATUS`, an `EXDATE` of
    /// the instance), or its alarms seen up to then (`X-MOZ-LASTACK`, a `VALARM`'s `ACKNOWLEDGED`,
    /// at or after `firedAt`). The words said of it, or nil when the file says nothing of the kind.
    public static func answeredElsewhere(_ text: String, uid: String, instance: String?, firedAt: Instant) -> String? {
        let (lines, _) = Self.lines(text)
        var master: [Line]?
        var override: [Line]?
        var index = 0
        while index < lines.count {
            guard lines[index].name == "BEGIN", ["VEVENT", "VTODO"].contains(lines[index].value.uppercased()) else {
                index += 1
                continue
            }
            var close = index + 1
            var depth = 0
            while close < lines.count {
                if lines[close].name == "BEGIN" { depth += 1 }
                if lines[close].name == "END" {
                    if depth == 0 { break }
                    depth -= 1
                }
                close += 1
            }
            let body = Array(lines[(index + 1)..<close])
            if Self.own(body).contains(where: { $0.name == "UID" && $0.value == uid }) {
                let recurrence = Self.own(body).first { $0.name == "RECURRENCE-ID" }?.value
                if recurrence == nil { master = body } else if recurrence == instance { override = body }
            }
            index = close + 1
        }
        guard let master else { return nil }
        let target = override ?? master
        let status = { (body: [Line]) in Self.own(body).first { $0.name == "STATUS" }?.value.uppercased() }
        // The occurrence closed there: the series, or this instance.
        for body in [master, target] {
            if status(body) == "COMPLETED" { return "completed on another device" }
            if status(body) == "CANCELLED" { return "cancelled on another device" }
        }
        if let instance, Self.own(master).contains(where: { $0.name == "EXDATE" && $0.value.split(separator: ",").contains(Substring(instance)) }) {
            return "taken out on another device"
        }
        // Its alarms seen there up to then.
        let seen = { (line: Line) -> Bool in
            guard case .utc(let at)? = RecurrenceRule.until(line.value) else { return false }
            return at >= firedAt
        }
        if Self.own(master).contains(where: { $0.name == "X-MOZ-LASTACK" && seen($0) })
            || target.contains(where: { $0.name == "X-MOZ-LASTACK" && seen($0) })
            || target.contains(where: { $0.name == "ACKNOWLEDGED" && seen($0) })
        {
            return "acknowledged on another device"
        }
        return nil
    }
}
