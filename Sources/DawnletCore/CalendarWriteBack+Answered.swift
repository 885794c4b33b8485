extension CalendarWriteBack {
    /// Whether a calendar file says a reminder that went out here at `firedAt`, of the item `uid`
    /// (its `instance`, for one of a repeating item), was answered on another device since: its
    /// occurrence completed or cancelled (the item's or its override's `STATUS`, an `EXDATE` of
    /// the instance), or its alarms seen up to then (`X-MOZ-LASTACK`, a `VALARM`'s `ACKNOWLEDGED`,
    /// at or after `firedAt`). The words said of it, or nil when the file says nothing of the kind.
    public static func answeredElsewhere(_ text: String, uid: String, instance: String?, firedAt: Instant) -> String? {
        var master: Component?
        var override: Component?
        for component in ICalendar.Document(parsing: text).calendarItems(unended: true) where identity(component).uid == uid {
            let recurrence = identity(component).instance
            if recurrence == nil { master = component } else if recurrence == instance { override = component }
        }
        guard let master else { return nil }
        let target = override ?? master
        // The occurrence closed there: the series, or this instance.
        for component in [master, target] {
            let status = component.first("STATUS")?.value.uppercased()
            if status == "COMPLETED" { return "completed on another device" }
            if status == "CANCELLED" { return "cancelled on another device" }
        }
        if let instance, master.properties.contains(where: { $0.name == "EXDATE" && $0.value.split(separator: ",").contains(Substring(instance)) }) {
            return "taken out on another device"
        }
        // Its alarms seen there up to then.
        let seen = { (property: Property) -> Bool in property.utc.map { $0 >= firedAt } ?? false }
        if master.properties.contains(where: { $0.name == "X-MOZ-LASTACK" && seen($0) })
            || target.lines.contains(where: { ($0.name == "X-MOZ-LASTACK" || $0.name == "ACKNOWLEDGED") && seen($0) })
        {
            return "acknowledged on another device"
        }
        return nil
    }
}
