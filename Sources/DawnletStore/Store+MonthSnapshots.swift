import DawnletCore

// MARK: - Closed months

extension Store.Sources {
    /// What each debt payment took off its balance (it stops at zero), by payment id.
    public func balanceTaken() throws(StoreError) -> [Int64: Amount] {
        var taken: [Int64: Amount] = [:]
        for (id, minor) in try db.query(
            "SELECT id, coalesce(balance_taken_minor, abs(amount_minor)) FROM payments WHERE kind = 'debt'", [], { ($0.int(0), $0.int(1)) })
        {
            taken[id] = Amount(minorUnits: minor)
        }
        return taken
    }

    /// The snapshot kept of a closed month, if one was.
    public func snapshot(of month: YearMonth) throws(StoreError) -> MonthSnapshot? {
        try db.query("SELECT money_in, money_out, debts, health FROM month_snapshots WHERE month = ?", [.described(month)]) {
            (row) throws(StoreError) -> MonthSnapshot in
            var debts: [Int64: Amount] = [:]
            for pair in row.text(2).split(separator: ",") {
                let parts = pair.split(separator: ":")
                guard parts.count == 2, let id = Int64(parts[0]), let minor = Int64(parts[1]) else {
                    throw StoreError(.corrupt, "the snapshot of \(month) cannot be read")
                }
                debts[id] = Amount(minorUnits: minor)
            }
            guard let incoming = Int128(row.text(0)), let outgoing = Int128(row.text(1)) else {
                throw StoreError(.corrupt, "the snapshot of \(month) cannot be read")
            }
            return MonthSnapshot(
                month: month, incoming: Total(minorUnits: incoming), outgoing: Total(minorUnits: outgoing), debts: debts,
                health: row.isNull(3) ? nil : Int(row.int(3)))
        }.first
    }

    /// Keeps `snapshot` unless its month has one already (the first written stays); returns the
    /// one kept.
    @discardableResult
    public func keep(_ snapshot: MonthSnapshot, takenAt: Instant) throws(StoreError) -> MonthSnapshot {
        try db.writeTransaction { () throws(StoreError) -> MonthSnapshot in
            if let kept = try self.snapshot(of: snapshot.month) { return kept }
            let debts = snapshot.debts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.minorUnits)" }.joined(separator: ",")
            try db.run(
                "INSERT INTO month_snapshots (month, taken_at, money_in, money_out, debts, health) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .described(snapshot.month), .int(takenAt.secondsSinceEpoch), .text(String(snapshot.incoming.minorUnits)),
                    .text(String(snapshot.outgoing.minorUnits)), .text(debts), snapshot.health.map { .int(Int64($0)) } ?? .null,
                ])
            return snapshot
        }
    }
}
