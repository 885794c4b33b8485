PRAGMA application_id = 1146572364;
PRAGMA user_version = 5;
BEGIN TRANSACTION;
CREATE TABLE debts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    balance_minor INTEGER NOT NULL,
    minimum_minor INTEGER NOT NULL,
    payment_day INTEGER NOT NULL CHECK (payment_day BETWEEN 1 AND 31),
    created TEXT NOT NULL
);
INSERT INTO "debts" VALUES(1,'Car loan',480000,20000,20,'2026-11-16');
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
    detail TEXT, notification_id INTEGER, snoozed_until INTEGER, response TEXT,
    PRIMARY KEY (key, channel)
);
INSERT INTO "deliveries" VALUES('todo:3:2026-11-16:0m','command','delivered','todo','Call the bank',1794819600,0,1,1794819660,1794819660,NULL,NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('todo:5:2026-11-16:0m','command','delivered','todo','Pay the plumber',1794819600,0,1,1794819660,1794819660,NULL,NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('habit:1:2026-11-09:0m','command','missed','habit','Run',1794207600,0,1,1794819660,1794819660,'outside the grace window',NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('event:3:2026-11-09:10m','command','missed','event','Standup (moved)',1794217800,0,1,1794819660,1794819660,'outside the grace window',NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('habit:1:2026-11-11:0m','command','missed','habit','Run',1794380400,0,1,1794819660,1794819660,'outside the grace window',NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('event:3:2026-11-11:10m','command','missed','event','Standup',1794388800,0,1,1794819660,1794819660,'outside the grace window',NULL,NULL,NULL);
INSERT INTO "deliveries" VALUES('habit:1:2026-11-13:0m','command','missed','habit','Run',1794553200,0,1,1794819660,1794819660,'outside the grace window',NULL,NULL,NULL);
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
CREATE TABLE goals (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    target_minor INTEGER NOT NULL,
    target_date TEXT,
    created TEXT NOT NULL
);
INSERT INTO "goals" VALUES(1,'Holiday fund',100000,'2027-06-01','2026-11-16');
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
INSERT INTO "habits" VALUES(1,'Run','weekly on mon,wed,fri from 2026-11-02 at 07:00','07:00','2026-11-16');
CREATE TABLE income_sources (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    schedule TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created TEXT NOT NULL
);
INSERT INTO "income_sources" VALUES(1,'Salary',250000,'monthly on day 25 from 2026-10-25',1,'2026-11-16');
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('subscription', 'debt')),
    source_id INTEGER NOT NULL,
    date TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    period_start TEXT NOT NULL,
    UNIQUE (kind, source_id, period_start)
);
INSERT INTO "payments" VALUES(1,'subscription',1,'2026-11-05',-1299,'2026-11-05');
INSERT INTO "payments" VALUES(2,'debt',1,'2026-11-16',20000,'2026-11-01');
INSERT INTO "payments" VALUES(3,'subscription',2,'2026-10-20',-400,'2026-10-20');
CREATE TABLE recurring_transactions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    schedule TEXT NOT NULL,
    created TEXT NOT NULL
);
INSERT INTO "recurring_transactions" VALUES(1,'Rent',-95000,'monthly on day 1 from 2026-11-01','2026-11-16');
INSERT INTO "recurring_transactions" VALUES(2,'Allowance',2000,'weekly on fri from 2026-11-06','2026-11-16');
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO "settings" VALUES('export-namespace','09a787e4d694ba8f');
CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    schedule TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created TEXT NOT NULL
);
INSERT INTO "subscriptions" VALUES(1,'Streaming',-1299,'monthly on day 5 from 2026-11-05',1,'2026-11-16');
INSERT INTO "subscriptions" VALUES(2,'Magazine',-400,'monthly on day 20 from 2026-10-20',0,'2026-11-16');
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
CREATE INDEX deliveries_fire_at ON deliveries(fire_at);
COMMIT;
