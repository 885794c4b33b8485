/// The schema, as numbered migrations. Migration N brings `PRAGMA user_version` from N-1 to N in
/// one transaction. Never edit a released migration: add the next one.
enum Migrations {
    /// Marks a file as ours (`PRAGMA application_id`), so another program's SQLite file is refused.
    static let applicationID: Int32 = 0x4457_4E4C  // "DWNL"

    static let organizerAndMoney: [String] = [
        // 1: the day organizer — definitions apart from occurrences.
        """
        PRAGMA application_id = \(applicationID);
        CREATE TABLE todos (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            due_date TEXT,
            due_time TEXT,
            schedule TEXT,
            reminders TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL
        );
        CREATE TABLE todo_occurrences (
            id INTEGER PRIMARY KEY,
            definition_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'done', 'skipped')),
            title TEXT,
            time TEXT,
            UNIQUE (definition_id, date)
        );
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            start_date TEXT NOT NULL,
            start_time TEXT,
            duration_minutes INTEGER,
            schedule TEXT,
            reminders TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL
        );
        CREATE TABLE event_occurrences (
            id INTEGER PRIMARY KEY,
            definition_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'skipped')),
            title TEXT,
            time TEXT,
            UNIQUE (definition_id, date)
        );
        CREATE TABLE habits (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            schedule TEXT NOT NULL,
            time TEXT,
            created TEXT NOT NULL
        );
        CREATE TABLE habit_entries (
            id INTEGER PRIMARY KEY,
            definition_id INTEGER NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('done', 'skipped')),
            title TEXT,
            time TEXT,
            UNIQUE (definition_id, date)
        );
        CREATE TABLE recurring_transactions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            schedule TEXT NOT NULL,
            created TEXT NOT NULL
        );
        CREATE TABLE transactions (
            id INTEGER PRIMARY KEY,
            definition_id INTEGER REFERENCES recurring_transactions(id) ON DELETE SET NULL,
            date TEXT NOT NULL,
            name TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('posted', 'skipped')),
            UNIQUE (definition_id, date)
        );
        CREATE INDEX todo_occurrences_date ON todo_occurrences(date);
        CREATE INDEX event_occurrences_date ON event_occurrences(date);
        CREATE INDEX habit_entries_date ON habit_entries(date);
        CREATE INDEX transactions_date ON transactions(date);
        """,
        // 2: the money calendar's four sources and their period-bound payments.
        """
        CREATE TABLE subscriptions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            schedule TEXT NOT NULL,
            active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
            created TEXT NOT NULL
        );
        CREATE TABLE debts (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            balance_minor INTEGER NOT NULL,
            minimum_minor INTEGER NOT NULL,
            payment_day INTEGER NOT NULL CHECK (payment_day BETWEEN 1 AND 31),
            created TEXT NOT NULL
        );
        CREATE TABLE goals (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            target_minor INTEGER NOT NULL,
            target_date TEXT,
            created TEXT NOT NULL
        );
        CREATE TABLE income_sources (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            schedule TEXT NOT NULL,
            active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
            created TEXT NOT NULL
        );
        CREATE TABLE payments (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('subscription', 'debt')),
            source_id INTEGER NOT NULL,
            date TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            period_start TEXT NOT NULL,
            UNIQUE (kind, source_id, period_start)
        );
        """,
        // 3: the delivery log: one row per reminder key and channel.
        """
        CREATE TABLE deliveries (
            key TEXT NOT NULL,
            channel TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('claimed', 'delivered', 'failed', 'missed')),
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            fire_at INTEGER NOT NULL,
            late INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 1,
            claimed_at INTEGER NOT NULL,
            finished_at INTEGER,
            detail TEXT,
            PRIMARY KEY (key, channel)
        );
        CREATE INDEX deliveries_fire_at ON deliveries(fire_at);
        """,
        // 4: desktop notifications: the server's id (a repeat replaces it), a snooze's new instant
        // (the row stops being settled until then), and what the person did with it.
        """
        ALTER TABLE deliveries ADD COLUMN notification_id INTEGER;
        ALTER TABLE deliveries ADD COLUMN snoozed_until INTEGER;
        ALTER TABLE deliveries ADD COLUMN response TEXT;
        """,
        // 5: values the database keeps about itself (the namespace of exported calendar UIDs).
        """
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """,
        // 6: an id names one item for ever: every table whose ids a reminder key, a
        // delivery row, an export UID or a person can name becomes AUTOINCREMENT, keeping its ids.
        // Its sequence starts past the highest id it has, and past the highest id the delivery
        // log has seen for its kind (an item deleted before this migration is not named again).
        neverReused(
            "todos", kind: "todo",
            columns: """
                title TEXT NOT NULL, due_date TEXT, due_time TEXT, schedule TEXT, reminders TEXT NOT NULL DEFAULT '', created TEXT NOT NULL
                """)
            + neverReused(
                "events", kind: "event",
                columns: """
                    title TEXT NOT NULL, start_date TEXT NOT NULL, start_time TEXT, duration_minutes INTEGER, schedule TEXT,
                    reminders TEXT NOT NULL DEFAULT '', created TEXT NOT NULL
                    """)
            + neverReused("habits", kind: "habit", columns: "name TEXT NOT NULL, schedule TEXT NOT NULL, time TEXT, created TEXT NOT NULL")
            + neverReused(
                "recurring_transactions", kind: "bill",
                columns: """
                    name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL, created TEXT NOT NULL
                    """)
            + neverReused(
                "subscriptions", kind: "subscription",
                columns: """
                    name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL,
                    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)), created TEXT NOT NULL
                    """)
            + neverReused(
                "debts", kind: "debt",
                columns: """
                    name TEXT NOT NULL, balance_minor INTEGER NOT NULL, minimum_minor INTEGER NOT NULL,
                    payment_day INTEGER NOT NULL CHECK (payment_day BETWEEN 1 AND 31), created TEXT NOT NULL
                    """)
            + neverReused("goals", kind: "goal", columns: "name TEXT NOT NULL, target_minor INTEGER NOT NULL, target_date TEXT, created TEXT NOT NULL")
            + neverReused(
                "income_sources", kind: "income",
                columns: """
                    name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL,
                    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)), created TEXT NOT NULL
                    """)
            + neverReused(
                "payments", kind: nil,
                columns: """
                    kind TEXT NOT NULL CHECK (kind IN ('subscription', 'debt')), source_id INTEGER NOT NULL, date TEXT NOT NULL,
                    amount_minor INTEGER NOT NULL, period_start TEXT NOT NULL, UNIQUE (kind, source_id, period_start)
                    """),
        // 7: what a debt payment took off the balance (it stops at zero), so deleting the payment
        // gives back exactly that. NULL for older rows: their amount.
        """
        ALTER TABLE payments ADD COLUMN balance_taken_minor INTEGER;
        """,
        // 8: when the database began (seconds since the epoch): nothing due before it is recorded
        // missed. An older database began at its first delivery, if it had one.
        """
        INSERT OR IGNORE INTO settings (key, value)
        VALUES ('created', CAST(coalesce((SELECT min(claimed_at) FROM deliveries), CAST(strftime('%s', 'now') AS INTEGER)) AS TEXT));
        """,
        // 9: a bill's row can be marked paid (from its notification); it counts as posted does.
        """
        CREATE TABLE transactions_new (
            id INTEGER PRIMARY KEY,
            definition_id INTEGER REFERENCES recurring_transactions(id) ON DELETE SET NULL,
            date TEXT NOT NULL,
            name TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('posted', 'skipped', 'paid')),
            UNIQUE (definition_id, date)
        );
        INSERT INTO transactions_new SELECT id, definition_id, date, name, amount_minor, status FROM transactions;
        DROP TABLE transactions;
        ALTER TABLE transactions_new RENAME TO transactions;
        CREATE INDEX transactions_date ON transactions(date);
        """,
        // 10: what changed, for the runner to re-plan only that: a row per write to a
        // table a plan reads, naming the reminder kind and the definition or source it touches
        // (NULL: no one item, such as a transaction without a bill). The delivery log is not
        // in it: its writes that matter are the runner's own. At most 2,000 rows are kept.
        """
        CREATE TABLE plan_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            source_id INTEGER
        );
        CREATE TRIGGER plan_changes_kept AFTER INSERT ON plan_changes WHEN NEW.seq % 1000 = 0
        BEGIN DELETE FROM plan_changes WHERE seq <= NEW.seq - 1000; END;

        """
            + changeTriggers("todos", kind: "'todo'", id: "id") + changeTriggers("todo_occurrences", kind: "'todo'", id: "definition_id")
            + changeTriggers("events", kind: "'event'", id: "id") + changeTriggers("event_occurrences", kind: "'event'", id: "definition_id")
            + changeTriggers("habits", kind: "'habit'", id: "id") + changeTriggers("habit_entries", kind: "'habit'", id: "definition_id")
            + changeTriggers("recurring_transactions", kind: "'bill'", id: "id") + changeTriggers("transactions", kind: "'bill'", id: "definition_id")
            + changeTriggers("subscriptions", kind: "'subscription'", id: "id") + changeTriggers("debts", kind: "'debt'", id: "id")
            + changeTriggers("goals", kind: "'goal'", id: "id") + changeTriggers("income_sources", kind: "'income'", id: "id")
            + changeTriggers("payments", kind: "kind", id: "source_id") + changeTriggers("settings", kind: "'settings'", id: "NULL"),
        // The item a delivery is about (its key's `kind:id:`), as a value: the log of a few items
        // is found through an index on it, not by ranges of key text. Rows already logged get it
        // from their keys; digests and calendar items have none.
        """
        ALTER TABLE deliveries ADD COLUMN item_id INTEGER;
        UPDATE deliveries SET item_id = CAST(substr(key, length(kind) + 2) AS INTEGER)
        WHERE kind IN ('todo', 'event', 'habit', 'bill', 'subscription', 'debt', 'goal', 'income') AND substr(key, 1, length(kind) + 1) = kind || ':';
        CREATE INDEX deliveries_item ON deliveries(kind, item_id);
        """,
        // The instant (seconds since the epoch) from which an item reminds: when it was made, or
        // when its date, time or schedule last changed. A reminder of an instant before it is
        // neither sent late nor recorded missed. NULL for items made before: no bound.
        """
        ALTER TABLE todos ADD COLUMN reminds_from INTEGER;
        ALTER TABLE events ADD COLUMN reminds_from INTEGER;
        ALTER TABLE habits ADD COLUMN reminds_from INTEGER;
        """,
        // The channels an item's reminders go to, over its kind's route: names joined by commas
        // ("desktop,email"); NULL for the route.
        """
        ALTER TABLE todos ADD COLUMN channels TEXT;
        ALTER TABLE events ADD COLUMN channels TEXT;
        ALTER TABLE habits ADD COLUMN channels TEXT;
        """,
        // An item's own way of reminding over its kind's ("nag=5m urgency=critical sound=bell");
        // NULL for its kind's. A delivery's first delivery (a nag's repeats count from it, and
        // end a bound after it) and how many repeats went out since.
        """
        ALTER TABLE todos ADD COLUMN style TEXT;
        ALTER TABLE events ADD COLUMN style TEXT;
        ALTER TABLE habits ADD COLUMN style TEXT;
        ALTER TABLE deliveries ADD COLUMN first_delivered_at INTEGER;
        ALTER TABLE deliveries ADD COLUMN repeats INTEGER NOT NULL DEFAULT 0;
        """,
        // A one-off transaction: a recurring transaction's row that falls on this date alone
        // (its schedule column then holds a schedule from that date, not used).
        """
        ALTER TABLE recurring_transactions ADD COLUMN once TEXT;
        """,
        // Payments towards a goal (saved), and more than one payment of a debt in a month (an
        // extra one): the table without its one-per-period constraint, which the store keeps
        // for subscriptions alone. Its change triggers go with the old table: made again. Its
        // sequence too (dropping the table drops it): kept, so that no id is ever used twice.
        "CREATE TEMP TABLE payments_sequence AS SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'payments'), 0) AS seq;\n"
            + neverReused(
                "payments", kind: nil,
                columns: """
                    kind TEXT NOT NULL CHECK (kind IN ('subscription', 'debt', 'goal')), source_id INTEGER NOT NULL, date TEXT NOT NULL,
                    amount_minor INTEGER NOT NULL, period_start TEXT NOT NULL, balance_taken_minor INTEGER
                    """)
                + """
                UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM payments_sequence)) WHERE name = 'payments';
                DROP TABLE payments_sequence;
                CREATE INDEX payments_period ON payments(kind, source_id, period_start);

                """
            + changeTriggers("payments", kind: "kind", id: "source_id"),
        // A closed month as it stood: its money in and out (minor units, as decimal text: a
        // month's total may pass 64 bits) and each debt's balance at its end ("id:minor,…"),
        // written once, so that editing a series later never rewrites last month's figures.
        """
        CREATE TABLE month_snapshots (
            month TEXT PRIMARY KEY,
            taken_at INTEGER NOT NULL,
            money_in TEXT NOT NULL,
            money_out TEXT NOT NULL,
            debts TEXT NOT NULL
        );
        """,
        // Exported items met again: each file as it was last written (what another device changed
        // since is told from it), and when a todo or event last changed here (of two changes to one
        // thing, the later wins). A trigger keeps the time; the writes it makes are no plan's.
        """
        CREATE TABLE calendar_exports (
            uid TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            path TEXT NOT NULL,
            body TEXT NOT NULL,
            ours TEXT NOT NULL,
            written_at INTEGER NOT NULL
        );
        CREATE TABLE item_changes (
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            changed_at INTEGER NOT NULL,
            PRIMARY KEY (kind, item_id)
        ) WITHOUT ROWID;

        """
            + changedAtTriggers("todos", kind: "todo", id: "id") + changedAtTriggers("todo_occurrences", kind: "todo", id: "definition_id")
            + changedAtTriggers("events", kind: "event", id: "id") + changedAtTriggers("event_occurrences", kind: "event", id: "definition_id"),
        // What was last written is kept per folder: an export into another folder no longer
        // stands for the file in the one serve keeps, so nothing another device did there is
        // applied twice. A row's folder is its path's (links were not resolved then).
        """
        CREATE TABLE calendar_exports_new (
            folder TEXT NOT NULL,
            uid TEXT NOT NULL,
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            path TEXT NOT NULL,
            body TEXT NOT NULL,
            ours TEXT NOT NULL,
            written_at INTEGER NOT NULL,
            PRIMARY KEY (folder, uid)
        ) WITHOUT ROWID;
        INSERT INTO calendar_exports_new
            SELECT rtrim(rtrim(path, replace(path, '/', '')), '/'), uid, kind, item_id, path, body, ours, written_at FROM calendar_exports;
        DROP TABLE calendar_exports;
        ALTER TABLE calendar_exports_new RENAME TO calendar_exports;

        """,
    ]

    /// Every statement, in the order applied: a database at version N has had the first N.
    static let all = organizerAndMoney + deliveryLogLater

    static var latest: Int { all.count }
}
