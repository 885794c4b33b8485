PRAGMA application_id = 1146572364;
PRAGMA user_version = 35;
BEGIN TRANSACTION;
CREATE TABLE "calendar_exports" (
    folder TEXT NOT NULL,
    uid TEXT NOT NULL,
    kind TEXT NOT NULL,
    item_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    body TEXT NOT NULL,
    ours TEXT NOT NULL,
    written_at INTEGER NOT NULL, held_since INTEGER, kept TEXT,
    PRIMARY KEY (folder, uid)
) WITHOUT ROWID;
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-event-1','event',1,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-event-1.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-1@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Dentist
DTSTART:20261120T143000Z
DURATION:PT45M
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-1@dawnlet-remind-alarm-1h
ACTION:DISPLAY
DESCRIPTION:Dentist
TRIGGER:-PT60M
END:VALARM
END:VEVENT
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-1@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Dentist
DTSTART:20261120T143000Z
DURATION:PT45M
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-1@dawnlet-remind-alarm-1h
ACTION:DISPLAY
DESCRIPTION:Dentist
TRIGGER:-PT60M
END:VALARM
END:VEVENT
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-event-2','event',2,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-event-2.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-2@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Holiday
DTSTART;VALUE=DATE:20261125
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-2@dawnlet-remind-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Holiday
TRIGGER:-PT10M
END:VALARM
END:VEVENT
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-2@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Holiday
DTSTART;VALUE=DATE:20261125
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-2@dawnlet-remind-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Holiday
TRIGGER:-PT10M
END:VALARM
END:VEVENT
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-event-3','event',3,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-event-3.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Standup
DTSTART:20261102T093000Z
DURATION:PT15M
RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;WKST=MO
EXDATE:20261104T093000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Standup
TRIGGER:-PT10M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind
DTSTAMP:20261116T085000Z
RECURRENCE-ID:20261109T093000Z
DTSTART:20261109T100000Z
SUMMARY:Standup (moved)
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind-20261109-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Standup (moved)
TRIGGER:-PT10M
END:VALARM
END:VEVENT
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Standup
DTSTART:20261102T093000Z
DURATION:PT15M
RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;WKST=MO
EXDATE:20261104T093000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Standup
TRIGGER:-PT10M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind
DTSTAMP:20261116T085000Z
RECURRENCE-ID:20261109T093000Z
DTSTART:20261109T100000Z
SUMMARY:Standup (moved)
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-event-3@dawnlet-remind-20261109-alarm-10m
ACTION:DISPLAY
DESCRIPTION:Standup (moved)
TRIGGER:-PT10M
END:VALARM
END:VEVENT
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-todo-1','todo',1,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-todo-1.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-1@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Renew passport
DUE;VALUE=DATE:20261110
STATUS:COMPLETED
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-1@dawnlet-remind-alarm-1d
ACTION:DISPLAY
DESCRIPTION:Renew passport
TRIGGER:-P1D
END:VALARM
END:VTODO
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-1@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Renew passport
DUE;VALUE=DATE:20261110
STATUS:COMPLETED
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-1@dawnlet-remind-alarm-1d
ACTION:DISPLAY
DESCRIPTION:Renew passport
TRIGGER:-P1D
END:VALARM
END:VTODO
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-todo-2','todo',2,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-todo-2.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Water plants
DTSTART:20261102T180000Z
RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO;WKST=MO
EXDATE:20261102T180000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Water plants
TRIGGER:PT0S
END:VALARM
END:VTODO
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind
DTSTAMP:20261116T085000Z
RECURRENCE-ID:20261109T180000Z
DTSTART:20261109T180000Z
SUMMARY:Water plants
STATUS:COMPLETED
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind-20261109-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Water plants
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Water plants
DTSTART:20261102T180000Z
RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO;WKST=MO
EXDATE:20261102T180000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Water plants
TRIGGER:PT0S
END:VALARM
END:VTODO
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind
DTSTAMP:20261116T085000Z
RECURRENCE-ID:20261109T180000Z
DTSTART:20261109T180000Z
SUMMARY:Water plants
STATUS:COMPLETED
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-2@dawnlet-remind-20261109-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Water plants
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-todo-3','todo',3,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-todo-3.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-3@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Call the bank
DUE:20261116T090000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-3@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Call the bank
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-3@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Call the bank
DUE:20261116T090000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-3@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Call the bank
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-todo-4','todo',4,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-todo-4.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-4@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Buy stamps
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-4@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Buy stamps
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-4@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Buy stamps
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-4@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Buy stamps
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
',1794819000,NULL,NULL);
INSERT INTO "calendar_exports" VALUES('/tmp/dawnlet-schema-fixture/export','dawnlet-848d8999440d4fef-todo-6','todo',6,'/tmp/dawnlet-schema-fixture/export/dawnlet-848d8999440d4fef-todo-6.ics','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-6@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Pay the plumber
DUE:20261116T090000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-6@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Pay the plumber
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
','BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Dawnlet//dawnlet-remind//EN
BEGIN:VTODO
UID:dawnlet-848d8999440d4fef-todo-6@dawnlet-remind
DTSTAMP:20261116T085000Z
SUMMARY:Pay the plumber
DUE:20261116T090000Z
BEGIN:VALARM
UID:dawnlet-848d8999440d4fef-todo-6@dawnlet-remind-alarm-0m
ACTION:DISPLAY
DESCRIPTION:Pay the plumber
TRIGGER:PT0S
END:VALARM
END:VTODO
END:VCALENDAR
',1794819000,NULL,NULL);
CREATE TABLE calendar_seen (
    calendar TEXT NOT NULL,
    uid TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    PRIMARY KEY (calendar, uid)
) WITHOUT ROWID;
INSERT INTO "calendar_seen" VALUES('','',1794819660);
CREATE TABLE "debts" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, balance_minor INTEGER NOT NULL, minimum_minor INTEGER NOT NULL,
payment_day INTEGER NOT NULL CHECK (payment_day BETWEEN 1 AND 31), created TEXT NOT NULL);
INSERT INTO "debts" VALUES(1,'Car loan',475000,20000,20,'2026-11-16');
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
    detail TEXT, notification_id INTEGER, snoozed_until INTEGER, response TEXT, item_id INTEGER, first_delivered_at INTEGER, repeats INTEGER NOT NULL DEFAULT 0, posted_by TEXT, answer TEXT, answered_from TEXT, missed_reason TEXT, answered_at INTEGER,
    PRIMARY KEY (key, channel)
);
INSERT INTO "deliveries" VALUES('todo:3:2026-11-16:0m','command','delivered','todo','Call the bank',1794819600,0,1,1794819660,1794819660,NULL,NULL,NULL,'done',3,1794819660,0,NULL,'done','terminal',NULL,1794819720);
INSERT INTO "deliveries" VALUES('todo:6:2026-11-16:0m','command','delivered','todo','Pay the plumber',1794819600,0,1,1794819660,1794819660,NULL,NULL,1794823320,'snoozed until 2026-11-16T10:02:00+00:00',6,1794819660,0,NULL,'snoozed:1794823320','terminal',NULL,1794819720);
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
CREATE TABLE "events" (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, start_date TEXT NOT NULL, start_time TEXT, duration_minutes INTEGER, schedule TEXT,
reminders TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, reminds_from INTEGER, channels TEXT, style TEXT, note TEXT, location TEXT, url TEXT, priority INTEGER, tags TEXT, zone TEXT);
INSERT INTO "events" VALUES(1,'Dentist','2026-11-20','14:30',45,NULL,'1h','2026-11-16',1794819001,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "events" VALUES(2,'Holiday','2026-11-25',NULL,NULL,NULL,'','2026-11-16',1794819001,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "events" VALUES(3,'Standup','2026-11-02','09:30',15,'weekly on mon,wed from 2026-11-02','','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE "goals" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, target_minor INTEGER NOT NULL, target_date TEXT, created TEXT NOT NULL);
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
CREATE TABLE "habits" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, schedule TEXT NOT NULL, time TEXT, created TEXT NOT NULL, reminds_from INTEGER, channels TEXT, style TEXT);
INSERT INTO "habits" VALUES(1,'Run','weekly on mon,wed,fri from 2026-11-02 at 07:00','07:00','2026-11-16',1794819000,NULL,NULL);
CREATE TABLE imports (
    source TEXT NOT NULL,
    source_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    item_id INTEGER NOT NULL,
    PRIMARY KEY (source, source_id)
) WITHOUT ROWID;
CREATE TABLE "income_sources" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL,
active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)), created TEXT NOT NULL);
INSERT INTO "income_sources" VALUES(1,'Salary',250000,'monthly on day 25 from 2026-10-25',1,'2026-11-16');
CREATE TABLE item_changes (
    kind TEXT NOT NULL,
    item_id INTEGER NOT NULL,
    changed_at INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, item_id)
) WITHOUT ROWID;
INSERT INTO "item_changes" VALUES('event',1,1794819001,1);
INSERT INTO "item_changes" VALUES('event',2,1794819001,1);
INSERT INTO "item_changes" VALUES('event',3,1794819000,3);
INSERT INTO "item_changes" VALUES('todo',1,1794819000,2);
INSERT INTO "item_changes" VALUES('todo',2,1794819000,3);
INSERT INTO "item_changes" VALUES('todo',3,1794819720,2);
INSERT INTO "item_changes" VALUES('todo',4,1794819000,1);
INSERT INTO "item_changes" VALUES('todo',5,1794819000,2);
INSERT INTO "item_changes" VALUES('todo',6,1794819000,1);
CREATE TABLE month_snapshots (
    month TEXT PRIMARY KEY,
    taken_at INTEGER NOT NULL,
    money_in TEXT NOT NULL,
    money_out TEXT NOT NULL,
    debts TEXT NOT NULL
, health INTEGER);
INSERT INTO "month_snapshots" VALUES('2026-11',1796299200,'256000','-124849','1:475000',66);
CREATE TABLE "payments" (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL CHECK (kind IN ('subscription', 'debt', 'goal')), source_id INTEGER NOT NULL, date TEXT NOT NULL,
amount_minor INTEGER NOT NULL, period_start TEXT NOT NULL, balance_taken_minor INTEGER);
INSERT INTO "payments" VALUES(1,'subscription',1,'2026-11-05',1299,'2026-11-05',NULL);
INSERT INTO "payments" VALUES(2,'debt',1,'2026-11-16',20000,'2026-11-01',20000);
INSERT INTO "payments" VALUES(3,'debt',1,'2026-11-16',5000,'2026-11-01',5000);
INSERT INTO "payments" VALUES(4,'goal',1,'2026-11-16',10000,'2026-11-16',NULL);
CREATE TABLE plan_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    source_id INTEGER
);
INSERT INTO "plan_changes" VALUES(1,'settings',NULL);
INSERT INTO "plan_changes" VALUES(2,'settings',NULL);
INSERT INTO "plan_changes" VALUES(3,'todo',1);
INSERT INTO "plan_changes" VALUES(4,'todo',1);
INSERT INTO "plan_changes" VALUES(5,'todo',2);
INSERT INTO "plan_changes" VALUES(6,'todo',2);
INSERT INTO "plan_changes" VALUES(7,'todo',2);
INSERT INTO "plan_changes" VALUES(8,'todo',3);
INSERT INTO "plan_changes" VALUES(9,'todo',4);
INSERT INTO "plan_changes" VALUES(10,'todo',5);
INSERT INTO "plan_changes" VALUES(11,'todo',5);
INSERT INTO "plan_changes" VALUES(12,'todo',6);
INSERT INTO "plan_changes" VALUES(13,'event',1);
INSERT INTO "plan_changes" VALUES(14,'event',2);
INSERT INTO "plan_changes" VALUES(15,'event',3);
INSERT INTO "plan_changes" VALUES(16,'event',3);
INSERT INTO "plan_changes" VALUES(17,'event',3);
INSERT INTO "plan_changes" VALUES(18,'habit',1);
INSERT INTO "plan_changes" VALUES(19,'habit',1);
INSERT INTO "plan_changes" VALUES(20,'habit',1);
INSERT INTO "plan_changes" VALUES(21,'bill',1);
INSERT INTO "plan_changes" VALUES(22,'bill',2);
INSERT INTO "plan_changes" VALUES(23,'bill',2);
INSERT INTO "plan_changes" VALUES(24,'bill',3);
INSERT INTO "plan_changes" VALUES(25,'bill',1);
INSERT INTO "plan_changes" VALUES(26,'subscription',1);
INSERT INTO "plan_changes" VALUES(27,'subscription',2);
INSERT INTO "plan_changes" VALUES(28,'subscription',1);
INSERT INTO "plan_changes" VALUES(29,'debt',1);
INSERT INTO "plan_changes" VALUES(30,'debt',1);
INSERT INTO "plan_changes" VALUES(31,'debt',1);
INSERT INTO "plan_changes" VALUES(32,'debt',1);
INSERT INTO "plan_changes" VALUES(33,'debt',1);
INSERT INTO "plan_changes" VALUES(34,'debt',1);
INSERT INTO "plan_changes" VALUES(35,'debt',1);
INSERT INTO "plan_changes" VALUES(36,'debt',1);
INSERT INTO "plan_changes" VALUES(37,'debt',1);
INSERT INTO "plan_changes" VALUES(38,'debt',1);
INSERT INTO "plan_changes" VALUES(39,'debt',1);
INSERT INTO "plan_changes" VALUES(40,'goal',1);
INSERT INTO "plan_changes" VALUES(41,'goal',1);
INSERT INTO "plan_changes" VALUES(42,'income',1);
INSERT INTO "plan_changes" VALUES(43,'subscription',2);
INSERT INTO "plan_changes" VALUES(44,'subscription',2);
INSERT INTO "plan_changes" VALUES(45,'subscription',2);
INSERT INTO "plan_changes" VALUES(46,'subscription',2);
INSERT INTO "plan_changes" VALUES(47,'settings',NULL);
INSERT INTO "plan_changes" VALUES(48,'bill',2);
INSERT INTO "plan_changes" VALUES(49,'bill',2);
INSERT INTO "plan_changes" VALUES(50,'bill',2);
INSERT INTO "plan_changes" VALUES(51,'bill',3);
INSERT INTO "plan_changes" VALUES(52,'settings',NULL);
INSERT INTO "plan_changes" VALUES(53,'todo',3);
INSERT INTO "plan_changes" VALUES(54,'todo',3);
INSERT INTO "plan_changes" VALUES(55,'todo',6);
INSERT INTO "plan_changes" VALUES(56,'bill',1);
INSERT INTO "plan_changes" VALUES(57,'bill',2);
INSERT INTO "plan_changes" VALUES(58,'bill',2);
INSERT INTO "plan_changes" VALUES(59,'bill',2);
INSERT INTO "plan_changes" VALUES(60,'bill',2);
CREATE TABLE "recurring_transactions" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL, created TEXT NOT NULL, once TEXT);
INSERT INTO "recurring_transactions" VALUES(1,'Rent',-95000,'monthly on day 1 from 2026-11-01','2026-11-16',NULL);
INSERT INTO "recurring_transactions" VALUES(2,'Allowance',2000,'weekly on fri from 2026-11-06','2026-11-16',NULL);
INSERT INTO "recurring_transactions" VALUES(3,'Birthday gift',-3550,'monthly from 2026-11-21','2026-11-16','2026-11-21');
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO "settings" VALUES('created','1794819000');
INSERT INTO "settings" VALUES('export-namespace','848d8999440d4fef');
INSERT INTO "settings" VALUES('runner-started','1794819660');
CREATE TABLE "subscriptions" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, amount_minor INTEGER NOT NULL, schedule TEXT NOT NULL,
active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)), created TEXT NOT NULL);
INSERT INTO "subscriptions" VALUES(1,'Streaming',-1299,'monthly on day 5 from 2026-11-05',1,'2026-11-16');
INSERT INTO "subscriptions" VALUES(2,'Magazine',-400,'monthly on day 20 from 2026-10-20',0,'2026-11-16');
CREATE TABLE todo_checklist (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE TABLE todo_checklist_checks (
    entry_id INTEGER NOT NULL REFERENCES todo_checklist(id) ON DELETE CASCADE,
    todo_id INTEGER NOT NULL,
    occurrence TEXT NOT NULL,
    checked_at INTEGER NOT NULL,
    PRIMARY KEY (entry_id, occurrence)
) WITHOUT ROWID;
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
INSERT INTO "todo_occurrences" VALUES(4,3,'2026-11-16','done',NULL,NULL);
CREATE TABLE "todos" (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, due_date TEXT, due_time TEXT, schedule TEXT, reminders TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, reminds_from INTEGER, channels TEXT, style TEXT, note TEXT, location TEXT, url TEXT, priority INTEGER, tags TEXT, zone TEXT);
INSERT INTO "todos" VALUES(1,'Renew passport','2026-11-10',NULL,NULL,'1d','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "todos" VALUES(2,'Water plants',NULL,'18:00','weekly on mon from 2026-11-02 at 18:00','0m','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "todos" VALUES(3,'Call the bank','2026-11-16','09:00',NULL,'0m','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "todos" VALUES(4,'Buy stamps',NULL,NULL,NULL,'','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "todos" VALUES(6,'Pay the plumber','2026-11-16','09:00',NULL,'0m','2026-11-16',1794819000,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE "transactions" (
    id INTEGER PRIMARY KEY,
    definition_id INTEGER REFERENCES recurring_transactions(id) ON DELETE SET NULL,
    date TEXT NOT NULL,
    name TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('posted', 'skipped', 'paid')),
    UNIQUE (definition_id, date)
);
INSERT INTO "transactions" VALUES(1,2,'2026-11-13','Allowance',2000,'skipped');
INSERT INTO "transactions" VALUES(2,1,'2026-11-01','Rent',-95000,'paid');
INSERT INTO "transactions" VALUES(3,2,'2026-11-06','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(4,2,'2026-11-20','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(5,2,'2026-11-27','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(6,3,'2026-11-21','Birthday gift',-3550,'posted');
INSERT INTO "transactions" VALUES(7,1,'2026-12-01','Rent',-95000,'posted');
INSERT INTO "transactions" VALUES(8,2,'2026-12-04','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(9,2,'2026-12-11','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(10,2,'2026-12-18','Allowance',2000,'posted');
INSERT INTO "transactions" VALUES(11,2,'2026-12-25','Allowance',2000,'posted');
CREATE INDEX todo_occurrences_date ON todo_occurrences(date);
CREATE INDEX event_occurrences_date ON event_occurrences(date);
CREATE INDEX habit_entries_date ON habit_entries(date);
CREATE INDEX deliveries_fire_at ON deliveries(fire_at);
CREATE INDEX transactions_date ON transactions(date);
CREATE TRIGGER plan_changes_kept AFTER INSERT ON plan_changes WHEN NEW.seq % 1000 = 0
BEGIN DELETE FROM plan_changes WHERE seq <= NEW.seq - 1000; END;
CREATE TRIGGER todos_insert_changes AFTER INSERT ON todos
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', NEW.id); END;
CREATE TRIGGER todos_update_changes AFTER UPDATE ON todos
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.id), ('todo', NEW.id); END;
CREATE TRIGGER todos_delete_changes AFTER DELETE ON todos
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.id); END;
CREATE TRIGGER todo_occurrences_insert_changes AFTER INSERT ON todo_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', NEW.definition_id); END;
CREATE TRIGGER todo_occurrences_update_changes AFTER UPDATE ON todo_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.definition_id), ('todo', NEW.definition_id); END;
CREATE TRIGGER todo_occurrences_delete_changes AFTER DELETE ON todo_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.definition_id); END;
CREATE TRIGGER events_insert_changes AFTER INSERT ON events
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', NEW.id); END;
CREATE TRIGGER events_update_changes AFTER UPDATE ON events
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', OLD.id), ('event', NEW.id); END;
CREATE TRIGGER events_delete_changes AFTER DELETE ON events
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', OLD.id); END;
CREATE TRIGGER event_occurrences_insert_changes AFTER INSERT ON event_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', NEW.definition_id); END;
CREATE TRIGGER event_occurrences_update_changes AFTER UPDATE ON event_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', OLD.definition_id), ('event', NEW.definition_id); END;
CREATE TRIGGER event_occurrences_delete_changes AFTER DELETE ON event_occurrences
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('event', OLD.definition_id); END;
CREATE TRIGGER habits_insert_changes AFTER INSERT ON habits
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', NEW.id); END;
CREATE TRIGGER habits_update_changes AFTER UPDATE ON habits
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', OLD.id), ('habit', NEW.id); END;
CREATE TRIGGER habits_delete_changes AFTER DELETE ON habits
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', OLD.id); END;
CREATE TRIGGER habit_entries_insert_changes AFTER INSERT ON habit_entries
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', NEW.definition_id); END;
CREATE TRIGGER habit_entries_update_changes AFTER UPDATE ON habit_entries
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', OLD.definition_id), ('habit', NEW.definition_id); END;
CREATE TRIGGER habit_entries_delete_changes AFTER DELETE ON habit_entries
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('habit', OLD.definition_id); END;
CREATE TRIGGER recurring_transactions_insert_changes AFTER INSERT ON recurring_transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', NEW.id); END;
CREATE TRIGGER recurring_transactions_update_changes AFTER UPDATE ON recurring_transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', OLD.id), ('bill', NEW.id); END;
CREATE TRIGGER recurring_transactions_delete_changes AFTER DELETE ON recurring_transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', OLD.id); END;
CREATE TRIGGER transactions_insert_changes AFTER INSERT ON transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', NEW.definition_id); END;
CREATE TRIGGER transactions_update_changes AFTER UPDATE ON transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', OLD.definition_id), ('bill', NEW.definition_id); END;
CREATE TRIGGER transactions_delete_changes AFTER DELETE ON transactions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('bill', OLD.definition_id); END;
CREATE TRIGGER subscriptions_insert_changes AFTER INSERT ON subscriptions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('subscription', NEW.id); END;
CREATE TRIGGER subscriptions_update_changes AFTER UPDATE ON subscriptions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('subscription', OLD.id), ('subscription', NEW.id); END;
CREATE TRIGGER subscriptions_delete_changes AFTER DELETE ON subscriptions
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('subscription', OLD.id); END;
CREATE TRIGGER debts_insert_changes AFTER INSERT ON debts
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('debt', NEW.id); END;
CREATE TRIGGER debts_update_changes AFTER UPDATE ON debts
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('debt', OLD.id), ('debt', NEW.id); END;
CREATE TRIGGER debts_delete_changes AFTER DELETE ON debts
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('debt', OLD.id); END;
CREATE TRIGGER goals_insert_changes AFTER INSERT ON goals
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('goal', NEW.id); END;
CREATE TRIGGER goals_update_changes AFTER UPDATE ON goals
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('goal', OLD.id), ('goal', NEW.id); END;
CREATE TRIGGER goals_delete_changes AFTER DELETE ON goals
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('goal', OLD.id); END;
CREATE TRIGGER income_sources_insert_changes AFTER INSERT ON income_sources
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('income', NEW.id); END;
CREATE TRIGGER income_sources_update_changes AFTER UPDATE ON income_sources
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('income', OLD.id), ('income', NEW.id); END;
CREATE TRIGGER income_sources_delete_changes AFTER DELETE ON income_sources
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('income', OLD.id); END;
CREATE TRIGGER settings_insert_changes AFTER INSERT ON settings
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('settings', NULL); END;
CREATE TRIGGER settings_update_changes AFTER UPDATE ON settings
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('settings', NULL), ('settings', NULL); END;
CREATE TRIGGER settings_delete_changes AFTER DELETE ON settings
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('settings', NULL); END;
CREATE INDEX deliveries_item ON deliveries(kind, item_id);
CREATE INDEX payments_period ON payments(kind, source_id, period_start);
CREATE TRIGGER payments_insert_changes AFTER INSERT ON payments
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES (NEW.kind, NEW.source_id); END;
CREATE TRIGGER payments_update_changes AFTER UPDATE ON payments
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES (OLD.kind, OLD.source_id), (NEW.kind, NEW.source_id); END;
CREATE TRIGGER payments_delete_changes AFTER DELETE ON payments
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES (OLD.kind, OLD.source_id); END;
CREATE TRIGGER deliveries_answered_insert AFTER INSERT ON deliveries WHEN NEW.answer IS NOT NULL
BEGIN UPDATE deliveries SET answered_at = unixepoch() WHERE key = NEW.key AND channel = NEW.channel; END;
CREATE TRIGGER deliveries_answered_update AFTER UPDATE OF answer, snoozed_until ON deliveries
WHEN NEW.answer IS NOT NULL AND (NEW.answer IS NOT OLD.answer OR NEW.snoozed_until IS NOT OLD.snoozed_until)
BEGIN UPDATE deliveries SET answered_at = unixepoch() WHERE key = NEW.key AND channel = NEW.channel; END;
CREATE INDEX todo_checklist_todo ON todo_checklist(todo_id, position);
CREATE INDEX todo_checklist_checks_todo ON todo_checklist_checks(todo_id);
CREATE TRIGGER todo_checklist_insert_changes AFTER INSERT ON todo_checklist
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', NEW.todo_id); END;
CREATE TRIGGER todo_checklist_update_changes AFTER UPDATE ON todo_checklist
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.todo_id), ('todo', NEW.todo_id); END;
CREATE TRIGGER todo_checklist_delete_changes AFTER DELETE ON todo_checklist
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.todo_id); END;
CREATE TRIGGER todo_checklist_checks_insert_changes AFTER INSERT ON todo_checklist_checks
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', NEW.todo_id); END;
CREATE TRIGGER todo_checklist_checks_update_changes AFTER UPDATE ON todo_checklist_checks
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.todo_id), ('todo', NEW.todo_id); END;
CREATE TRIGGER todo_checklist_checks_delete_changes AFTER DELETE ON todo_checklist_checks
BEGIN INSERT INTO plan_changes (kind, source_id) VALUES ('todo', OLD.todo_id); END;
CREATE TRIGGER todos_insert_changed_at AFTER INSERT ON todos
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todos_update_changed_at AFTER UPDATE ON todos
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todos_delete_changed_at AFTER DELETE ON todos
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', OLD.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_occurrences_insert_changed_at AFTER INSERT ON todo_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_occurrences_update_changed_at AFTER UPDATE ON todo_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_occurrences_delete_changed_at AFTER DELETE ON todo_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', OLD.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER events_insert_changed_at AFTER INSERT ON events
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', NEW.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER events_update_changed_at AFTER UPDATE ON events
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', NEW.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER events_delete_changed_at AFTER DELETE ON events
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', OLD.id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER event_occurrences_insert_changed_at AFTER INSERT ON event_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', NEW.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER event_occurrences_update_changed_at AFTER UPDATE ON event_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', NEW.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER event_occurrences_delete_changed_at AFTER DELETE ON event_occurrences
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('event', OLD.definition_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_insert_changed_at AFTER INSERT ON todo_checklist
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_update_changed_at AFTER UPDATE ON todo_checklist
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_delete_changed_at AFTER DELETE ON todo_checklist
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', OLD.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_checks_insert_changed_at AFTER INSERT ON todo_checklist_checks
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_checks_update_changed_at AFTER UPDATE ON todo_checklist_checks
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', NEW.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
CREATE TRIGGER todo_checklist_checks_delete_changed_at AFTER DELETE ON todo_checklist_checks
BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('todo', OLD.todo_id, unixepoch(), 1)
ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('todos',6);
INSERT INTO "sqlite_sequence" VALUES('events',3);
INSERT INTO "sqlite_sequence" VALUES('habits',1);
INSERT INTO "sqlite_sequence" VALUES('recurring_transactions',3);
INSERT INTO "sqlite_sequence" VALUES('subscriptions',2);
INSERT INTO "sqlite_sequence" VALUES('debts',1);
INSERT INTO "sqlite_sequence" VALUES('goals',1);
INSERT INTO "sqlite_sequence" VALUES('income_sources',1);
INSERT INTO "sqlite_sequence" VALUES('payments',5);
INSERT INTO "sqlite_sequence" VALUES('plan_changes',60);
COMMIT;
