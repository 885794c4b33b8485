/// The later statements, from the delivery log keeping who posted a notification and how each
/// reminder was answered on, in the order they were applied (appended to `Migrations.all`; never
/// reordered or edited once released).
extension Migrations {
    static let deliveryLogLater: [String] = [
        // Which process posted the notification a desktop delivery shows (`PID:START`): a later
        // serve takes over what an earlier one left on screen, so that a button pressed after a
        // restart reaches it.
        "ALTER TABLE deliveries ADD COLUMN posted_by TEXT;",
        // Money starts when it exists (`MoneyStart`); before, a debt was due in every month, so a
        // closed month's kept figures could count a payment due before the debt was added (its
        // day that month before the day it was added, and no payment logged for the month), or
        // keep a balance at the end of a month it was added after. Such a row is dropped, not
        // worked out again: what a month's figures were made of then (a minimum edited since, a
        // balance then) is not known now, and a wrong record is worse than none. Last month's is
        // made again, from what is stored, when `dashboard` or `serve` next needs it, as for a
        // month that closed without one. Judged by each debt's payment day now; a row naming a
        // debt deleted since cannot be judged, and stays.
        """
        DELETE FROM month_snapshots WHERE EXISTS (
            SELECT 1 FROM debts
            WHERE instr(',' || month_snapshots.debts || ',', ',' || debts.id || ':') > 0
            AND (
                debts.created > date(month_snapshots.month || '-01', '+1 month', '-1 day')
                OR (
                    debts.created > min(
                        date(month_snapshots.month || '-01', '+' || (debts.payment_day - 1) || ' days'),
                        date(month_snapshots.month || '-01', '+1 month', '-1 day'))
                    AND NOT EXISTS (
                        SELECT 1 FROM payments
                        WHERE payments.kind = 'debt' AND payments.source_id = debts.id AND payments.period_start = month_snapshots.month || '-01')
                )
            )
        );
        """,
        // What became of a delivered reminder as a code (`Answer.code`: `done`, `snoozed:INSTANT`,
        // `expired`, `elsewhere:device`) and where the answer came from (`AnswerOrigin`);
        // `response` keeps the words shown. Rows answered before are read from their words; an
        // answer written back to a calendar file, or taken from another device, reads as answered
        // elsewhere.
        "ALTER TABLE deliveries ADD COLUMN answer TEXT;",
        "ALTER TABLE deliveries ADD COLUMN answered_from TEXT;",
        """
        UPDATE deliveries SET answer = CASE
            WHEN response IN ('done', 'skipped', 'dismissed', 'expired', 'closed') THEN response
            WHEN snoozed_until IS NOT NULL THEN 'snoozed:' || snoozed_until
            WHEN response LIKE 'paid %' THEN 'paid'
            WHEN response LIKE 'logged payment%' THEN 'logged'
            ELSE 'elsewhere:device' END,
        answered_from = CASE
            WHEN response IN ('expired', 'closed') THEN 'server'
            WHEN response LIKE '%on another device%' THEN 'device'
            ELSE 'button' END
        WHERE response IS NOT NULL AND state = 'delivered';
        """,
        // Why a reminder was missed, as the runner decided it (`ReminderLife.MissedReason.rawValue`:
        // `grace-window`, `late-policy`, `gave-up`). Rows recorded before keep none: `missed`
        // tells theirs from when they were recorded, as it did.
        "ALTER TABLE deliveries ADD COLUMN missed_reason TEXT;",
        // When this machine first saw each calendar item, by its calendar's name and UID: a
        // reminder of a time before is neither sent late nor recorded missed. A row with an empty
        // name marks the first look, at which what was there is taken as seen always (so a
        // database from before still catches up what it missed while the machine was off).
        """
        CREATE TABLE calendar_seen (
            calendar TEXT NOT NULL,
            uid TEXT NOT NULL,
            first_seen INTEGER NOT NULL,
            PRIMARY KEY (calendar, uid)
        ) WITHOUT ROWID;
        """,
        // Our exported files deleted on another device: the item deleted here is kept for 30 days
        // (its row and its occurrences' as JSON, so that a restore puts back exactly what was
        // there, under its own id); and a file held, not written, while many of ours went at once
        // (since when), until it is restored, is there again, or its item is deleted here.
        """
        ALTER TABLE calendar_exports ADD COLUMN held_since INTEGER;
        CREATE TABLE deleted_elsewhere (
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            title TEXT NOT NULL,
            folder TEXT NOT NULL,
            deleted_at INTEGER NOT NULL,
            item TEXT NOT NULL,
            occurrences TEXT NOT NULL,
            PRIMARY KEY (kind, item_id)
        ) WITHOUT ROWID;
        """,
        // When a delivered reminder was last answered, by SQLite's clock as `item_changes` is
        // stamped: a snooze another device made before an answer given here does not undo it.
        // Rows answered before keep none.
        "ALTER TABLE deliveries ADD COLUMN answered_at INTEGER;",
        """
        CREATE TRIGGER deliveries_answered_insert AFTER INSERT ON deliveries WHEN NEW.answer IS NOT NULL
        BEGIN UPDATE deliveries SET answered_at = unixepoch() WHERE key = NEW.key AND channel = NEW.channel; END;
        CREATE TRIGGER deliveries_answered_update AFTER UPDATE OF answer, snoozed_until ON deliveries
        WHEN NEW.answer IS NOT NULL AND (NEW.answer IS NOT OLD.answer OR NEW.snoozed_until IS NOT OLD.snoozed_until)
        BEGIN UPDATE deliveries SET answered_at = unixepoch() WHERE key = NEW.key AND channel = NEW.channel; END;
        """,
        // A closed month's one rating (`MonthHealth`, 0 to 100), kept as its figures are: the
        // dashboard's "last month" is read, never worked out again. Months kept before have none.
        "ALTER TABLE month_snapshots ADD COLUMN health INTEGER;",
        // What a todo or event holds beside its title and time (`ItemDetails`): a note, a
        // location, a link, a priority (1 to 9) and its tags ("work,home"). NULL: none.
        """
        ALTER TABLE todos ADD COLUMN note TEXT;
        ALTER TABLE todos ADD COLUMN location TEXT;
        ALTER TABLE todos ADD COLUMN url TEXT;
        ALTER TABLE todos ADD COLUMN priority INTEGER;
        ALTER TABLE todos ADD COLUMN tags TEXT;
        ALTER TABLE events ADD COLUMN note TEXT;
        ALTER TABLE events ADD COLUMN location TEXT;
        ALTER TABLE events ADD COLUMN url TEXT;
        ALTER TABLE events ADD COLUMN priority INTEGER;
        ALTER TABLE events ADD COLUMN tags TEXT;
        """,
        // A todo's or event's own zone (`America/New_York`): its wall times are read there, so it
        // keeps its instant whatever the machine's zone. NULL: floating, read in the viewer's zone.
        """
        ALTER TABLE todos ADD COLUMN zone TEXT;
        ALTER TABLE events ADD COLUMN zone TEXT;
        """,
        // Where an imported todo or event came from (`import`): its source (icalendar,
        // taskwarrior, todo.txt) and its identifier there (a UID, a uuid, a todo.txt line's id or
        // hash), so that importing again updates the item instead of making a second one. An
        // item deleted since keeps its row until an import makes it again.
        """
        CREATE TABLE imports (
            source TEXT NOT NULL,
            source_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            item_id INTEGER NOT NULL,
            PRIMARY KEY (source, source_id)
        ) WITHOUT ROWID;
        """,
        // A todo's checklist: its entries in order (an entry's id stays when others come and go),
        // and which are checked on each occurrence (`occurrence`: a repeating todo's date, ''
        // for a one-off's one state) and when, so that the next occurrence starts all unchecked. Deleting
        // the todo deletes both; a change to either re-plans the todo (its reminder counts them)
        // and marks it changed for the export.
        """
        CREATE TABLE todo_checklist (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            text TEXT NOT NULL
        );
        CREATE INDEX todo_checklist_todo ON todo_checklist(todo_id, position);
        CREATE TABLE todo_checklist_checks (
            entry_id INTEGER NOT NULL REFERENCES todo_checklist(id) ON DELETE CASCADE,
            todo_id INTEGER NOT NULL,
            occurrence TEXT NOT NULL,
            checked_at INTEGER NOT NULL,
            PRIMARY KEY (entry_id, occurrence)
        ) WITHOUT ROWID;
        CREATE INDEX todo_checklist_checks_todo ON todo_checklist_checks(todo_id);

        """
            + changeTriggers("todo_checklist", kind: "'todo'", id: "todo_id") + changeTriggers("todo_checklist_checks", kind: "'todo'", id: "todo_id")
            + changedAtTriggers("todo_checklist", kind: "todo", id: "todo_id")
            + changedAtTriggers("todo_checklist_checks", kind: "todo", id: "todo_id"),
        // What an export pass needs to leave an item's file without reading it: a count of each
        // item's changes (`item_changes.version`, kept by the triggers), and for each file written
        // the count, the file's stamp and what else its text came from, as they were when it was
        // last found the same as ours (`calendar_exports.kept`; NULL: read it at the next pass).
        """
        ALTER TABLE item_changes ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE calendar_exports ADD COLUMN kept TEXT;

        """
            + versionedChangedAtTriggers("todos", kind: "todo", id: "id")
            + versionedChangedAtTriggers("todo_occurrences", kind: "todo", id: "definition_id")
            + versionedChangedAtTriggers("events", kind: "event", id: "id")
            + versionedChangedAtTriggers("event_occurrences", kind: "event", id: "definition_id")
            + versionedChangedAtTriggers("todo_checklist", kind: "todo", id: "todo_id")
            + versionedChangedAtTriggers("todo_checklist_checks", kind: "todo", id: "todo_id"),
    ]
}
