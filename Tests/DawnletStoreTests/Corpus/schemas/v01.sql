PRAGMA application_id = 1146572364;
PRAGMA user_version = 1;
BEGIN TRANSACTION;
CREATE TABLE event_occurrences (
    id INTEGER PRIMARY KEY,
    definition_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'skipped')),
    title TEXT,
    time TEXT,
    UNIQUE (definition_id, date)
);
INSERT INTO "event_occurrences" VALUES(1,3,'2026-11-04','skipped',NULL,NULL);
INSERT INTO "event_occurrences" VALUES(2,3,'2026-11-09','open','Standup (moved)','10:00');
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
INSERT INTO "events" VALUES(1,'Dentist','2026-11-20','14:30',45,NULL,'1h','2026-11-16');
INSERT INTO "events" VALUES(2,'Holiday','2026-11-25',NULL,NULL,NULL,'','2026-11-16');
INSERT INTO "events" VALUES(3,'Standup','2026-11-02','09:30',15,'weekly on mon,wed from 2026-11-02','','2026-11-16');
CREATE TABLE habit_entries (
    id INTEGER PRIMARY KEY,
    definition_id INTEGER NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'skipped')),
    title TEXT,
    time TEXT,
    UNIQUE (definition_id, date)
);
INSERT INTO "habit_entries" VALUES(1,1,'2026-11-16','done',NULL,NULL);
INSERT INTO "habit_entries" VALUES(2,1,'2026-11-18','skipped',NULL,NULL);
CREATE TABLE habits (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    schedule TEXT NOT NULL,
    time TEXT,
    created TEXT NOT NULL
);
INSERT INTO "habits" VALUES(1,'Run','weekly on mon,wed,fri from 2026-11-16 at 07:00','07:00','2026-11-16');
CREATE TABLE recurring_transactions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    schedule TEXT NOT NULL,
    created TEXT NOT NULL
);
INSERT INTO "recurring_transactions" VALUES(1,'Rent',-95000,'monthly on day 1 from 2026-11-01','2026-11-16');
INSERT INTO "recurring_transactions" VALUES(2,'Allowance',2000,'weekly on fri from 2026-11-06','2026-11-16');
CREATE TABLE todo_occurrences (
    id INTEGER PRIMARY KEY,
    definition_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'done', 'skipped')),
    title TEXT,
    time TEXT,
    UNIQUE (definition_id, date)
);
INSERT INTO "todo_occurrences" VALUES(1,1,'2026-11-10','done',NULL,NULL);
INSERT INTO "todo_occurrences" VALUES(2,2,'2026-11-09','done',NULL,NULL);
INSERT INTO "todo_occurrences" VALUES(3,2,'2026-11-02','skipped',NULL,NULL);
CREATE TABLE todos (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    due_date TEXT,
    due_time TEXT,
    schedule TEXT,
    reminders TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL
);
INSERT INTO "todos" VALUES(1,'Renew passport','2026-11-10',NULL,NULL,'1d','2026-11-16');
INSERT INTO "todos" VALUES(2,'Water plants',NULL,'18:00','weekly on mon from 2026-11-02 at 18:00','0m','2026-11-16');
INSERT INTO "todos" VALUES(3,'Call the bank','2026-11-16','09:00',NULL,'0m','2026-11-16');
INSERT INTO "todos" VALUES(4,'Buy stamps',NULL,NULL,NULL,'','2026-11-16');
INSERT INTO "todos" VALUES(5,'Pay the plumber','2026-11-16','09:00',NULL,'0m','2026-11-16');
CREATE TABLE transactions (
    id INTEGER PRIMARY KEY,
    definition_id INTEGER REFERENCES recurring_transactions(id) ON DELETE SET NULL,
    date TEXT NOT NULL,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('posted', 'skipped')),
    UNIQUE (definition_id, date)
);
INSERT INTO "transactions" VALUES(1,2,'2026-11-13','Allowance',2000,'skipped');
INSERT INTO "transactions" VALUES(2,1,'2026-11-01','Rent',-95000,'posted');
INSERT INTO "transactions" VALUES(3,2,'2026-11-06','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(4,2,'2026-11-20','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(5,2,'2026-11-27','Allowance',2000,'posted');
CREATE INDEX todo_occurrences_date ON todo_occurrences(date);
CREATE INDEX event_occurrences_date ON event_occurrences(date);
CREATE INDEX habit_entries_date ON habit_entries(date);
CREATE INDEX transactions_date ON transactions(date);
COMMIT;
