// A prefetch hint only (header-only, nothing linked): what is planned is the same without it.
import CLinux

extension Planner {
    /// One reminder as a plan keeps it. Most are plain — an occurrence of one of our own items, on
    /// its kind's channels, with nothing settled, snoozed, suppressed or noted — and are kept as
    /// their item's index, instant and offset, with no reminder made whole until one is asked
    /// for; any other is made whole (`PlannedReminder`) and kept by its index among those.
    @usableFromInline struct Fire: Sendable {
        @usableFromInline let at: Int64
        @usableFromInline let utcOffset: Int32
        /// The item's index among the plan's items (a plain reminder), or −1 less the index of
        /// the reminder made whole.
        @usableFromInline let index: Int32
        @usableFromInline let offset: ReminderOffset
        @usableFromInline let timing: DeliveryPolicy.Timing
    }

    /// A plan's reminders as they are made: the plain ones as `Fire`s of their items, the rest
    /// made whole.
    struct Made {
        var fires: [Fire] = []
        var whole: [PlannedReminder] = []

        init(capacity: Int) { fires.reserveCapacity(capacity) }

        mutating func append(_ reminder: PlannedReminder) {
            fires.append(
                Fire(at: reminder.fireAt.secondsSinceEpoch, utcOffset: 0, index: -1 - Int32(whole.count), offset: .minutes(0), timing: .pending))
            whole.append(reminder)
        }

        mutating func append(item: Int, at: Instant, utcOffset: Int, offset: ReminderOffset, timing: DeliveryPolicy.Timing) {
            fires.append(Fire(at: at.secondsSinceEpoch, utcOffset: Int32(utcOffset), index: Int32(item), offset: offset, timing: timing))
        }

        /// Each made whole, in the order they were made.
        func reminders(of items: [PlanItem], routes: [[Channel]]) -> [PlannedReminder] {
            fires.map { Planner.reminder($0, items: items, whole: whole, routes: routes) }
        }
    }

    /// A reminder kept as a `Fire`, made whole.
    static func reminder(_ fire: Fire, items: [PlanItem], whole: [PlannedReminder], routes: [[Channel]]) -> PlannedReminder {
        guard fire.index >= 0 else { return whole[-1 - Int(fire.index)] }
        let item = items[Int(fire.index)]
        return PlannedReminder(
            plain: item, fireAt: Instant(secondsSinceEpoch: fire.at), utcOffset: Int(fire.utcOffset), offset: fire.offset, timing: fire.timing,
            channels: routes[item.kind.ordinal])
    }

    /// A plan's reminders put in fire order but not yet visited: a value one thread can make and
    /// another go through (`preview` plans the next days while it writes these).
    public struct Ordered: Sendable {
        @usableFromInline let items: [PlanItem]
        /// In fire order.
        @usableFromInline let fires: [Fire]
        @usableFromInline let whole: [PlannedReminder]
        let routes: [[Channel]]
        /// The routes one after another, and where each kind's is among them: lent to a plain
        /// reminder without counting a reference per reminder.
        @usableFromInline let routeChannels: [Channel]
        @usableFromInline let routeSpans: [Range<Int>]

        init(items: [PlanItem], made: Made, routes: [[Channel]]) {
            let (fires, whole) = (made.fires, made.whole)
            self.items = items
            self.whole = whole
            self.routes = routes
            routeChannels = routes.flatMap { $0 }
            var spans: [Range<Int>] = []
            for route in routes { spans.append((spans.last?.upperBound ?? 0)..<((spans.last?.upperBound ?? 0) + route.count)) }
            routeSpans = spans
            self.fires = items.withUnsafeBufferPointer { items in
                Planner.fireOrder(fires.map(\.at)) { i in
                    let fire = fires[i]
                    guard fire.index >= 0 else { return whole[-1 - Int(fire.index)].key }
                    // Read where it is: a copy of the item would count references on its texts.
                    let item = items.baseAddress! + Int(fire.index)
                    return .item(item.pointee.kind, id: item.pointee.definitionID, date: item.pointee.date, offset: fire.offset)
                }.map { fires[$0] }
            }
        }

        public var count: Int { fires.count }

        /// Each reminder in fire order, made whole; false when `body` stopped it.
        public func forEach(_ body: (PlannedReminder) throws -> Bool) rethrows -> Bool {
            for fire in fires {
                guard try body(Planner.reminder(fire, items: items, whole: whole, routes: routes)) else { return false }
            }
            return true
        }

        /// The same, each as it is kept: a plain one as its parts, the others where they are. The
        /// pointers are good only while `body` runs. What writes a few fields of each is spared
        /// a copy of every reminder, and of every item. Inlinable: `preview` writes its
        /// hundreds of thousands in one loop of its own, `body` in it.
        @inlinable
        public func forEachEntry(_ body: (Entry) throws -> Bool) rethrows -> Bool {
            try items.withUnsafeBufferPointer { items in
                try whole.withUnsafeBufferPointer { whole in
                    try routeChannels.withUnsafeBufferPointer { channels in
                        for (n, fire) in fires.enumerated() {
                            // In fire order, items are visited out of their own: the item of the
                            // reminder 8 ahead is asked for now, so it is in cache when its turn comes.
                            if n + 8 < fires.count, fires[n + 8].index >= 0 { dawnlet_prefetch(items.baseAddress! + Int(fires[n + 8].index)) }
                            guard fire.index >= 0 else {
                                guard try body(.whole(whole.baseAddress! + (-1 - Int(fire.index)))) else { return false }
                                continue
                            }
                            let item = items.baseAddress! + Int(fire.index)
                            let plain = PlainReminder(
                                item: item, fireAt: Instant(secondsSinceEpoch: fire.at), utcOffset: Int(fire.utcOffset), offset: fire.offset,
                                timing: fire.timing, channels: UnsafeBufferPointer(rebasing: channels[routeSpans[item.pointee.kind.ordinal]]))
                            guard try body(.plain(plain)) else { return false }
                        }
                        return true
                    }
                }
            }
        }
    }

    /// A reminder of an `Ordered` plan as it is kept.
    public enum Entry {
        case plain(PlainReminder)
        case whole(UnsafePointer<PlannedReminder>)

        public var fireAt: Instant {
            switch self {
            case .plain(let r): r.fireAt
            case .whole(let p): p.pointee.fireAt
            }
        }

        /// The item it is about, by kind and id; nil for a digest or summary and a calendar's.
        public var item: (kind: ReminderKind, id: Int64)? {
            switch self {
            case .plain(let r): (r.item.pointee.kind, r.item.pointee.definitionID)
            case .whole(let p): p.pointee.key.item.map { ($0.kind, $0.id) }
            }
        }

        /// Still to go out: pending, or due or late now (`PlannedReminder.isToGoOut`).
        public var isToGoOut: Bool {
            switch self {
            case .plain(let r): r.timing != .missed
            case .whole(let p): p.pointee.isToGoOut
            }
        }
    }

    /// A plain reminder's parts (see `Fire`): made whole, it is the `PlannedReminder` with these,
    /// the item's key, its date as the occurrence's, and nothing settled, snoozed or noted.
    public struct PlainReminder {
        public let item: UnsafePointer<PlanItem>
        public let fireAt: Instant
        public let utcOffset: Int
        public let offset: ReminderOffset
        public let timing: DeliveryPolicy.Timing
        /// The kind's route.
        public let channels: UnsafeBufferPointer<Channel>

        @usableFromInline
        init(
            item: UnsafePointer<PlanItem>, fireAt: Instant, utcOffset: Int, offset: ReminderOffset, timing: DeliveryPolicy.Timing,
            channels: UnsafeBufferPointer<Channel>
        ) {
            (self.item, self.fireAt, self.utcOffset, self.offset, self.timing, self.channels) = (item, fireAt, utcOffset, offset, timing, channels)
        }

        @inlinable
        public var key: ReminderKey { .item(item.pointee.kind, id: item.pointee.definitionID, date: item.pointee.date, offset: offset) }

        /// Made whole, to be kept.
        public var reminder: PlannedReminder {
            PlannedReminder(plain: item.pointee, fireAt: fireAt, utcOffset: utcOffset, offset: offset, timing: timing, channels: Array(channels))
        }
    }
}

extension PlannedReminder {
    /// A plain reminder (see `Planner.Fire`) of `item`, `offset` ahead, on `channels`.
    init(plain item: PlanItem, fireAt: Instant, utcOffset: Int, offset: ReminderOffset, timing: DeliveryPolicy.Timing, channels: [Channel]) {
        self.init(
            key: .item(item.kind, id: item.definitionID, date: item.date, offset: offset), fireAt: fireAt, utcOffset: utcOffset, channels: channels,
            status: Status(timing), settled: [:], snoozed: false, item: item, offset: offset, notes: [], items: [], overdueCount: 0,
            occurrenceDate: item.date)
    }
}
