/// The topics of `help TOPIC`: schedules, dates, offsets, config.
extension Help {
    struct Topic {
        let name: String
        let summary: String
        /// The options whose value it explains: a command with one names the topic under "see also".
        let options: Set<String>
        let text: String
    }

    static func topic(_ name: String) -> Topic? { topics.first { $0.name == name } }

    static let topics: [Topic] = [
        Topic(
            name: "schedules", summary: "how repeating things are written (--every, --schedule)", options: ["every", "schedule"],
            text: """
                Every repeating thing (todos, events, bills, subscriptions, income) uses one schedule text,
                case-insensitive, with full or short weekday names:

                  daily                      weekdays
                  weekly on tue,thu          every 2 weeks on mon       every other week on fri
                  monthly on day 31          every 3 months on day 15   yearly
                  monthly on 2nd tue         monthly on last fri        every 2 months on 1st mon

                then optionally `from YYYY-MM-DD` (the anchor), `until YYYY-MM-DD` (the last day) and
                `at HH:MM` (a wall-clock time):

                  weekly on mon,thu from 2027-01-04 until 2027-03-29 at 07:30

                - The anchor is the first day the schedule may produce; intervals count from it: weeks from
                  the Monday-started week that holds it, months from its month. Without one, a new item
                  anchors at today (`occurrences` at --from).
                - `until` ends the series: nothing after it; the day itself only if the pattern gives it.
                  `--until DATE` on add and edit sets it as people type dates; `--no-until` takes it away.
                - Day 29-31 falls on the month's last day when the month is shorter: `monthly on day 31`
                  gives Jan 31, Feb 28 (29 in leap years), Mar 31, Apr 30.
                - A 5th weekday a month does not have gives nothing that month.
                - `yearly`, `monthly` and `every N months` without a day take the anchor's day (and, for
                  yearly, month); `weekly` without `on` takes the anchor's weekday.
                - Times are wall-clock times in your zone. A time a spring-forward gap skips fires as far
                  after the gap as it was into it (02:30 -> 03:30); a time that happens twice on a
                  fall-back day fires the first time.

                Try one: dawnlet-remind occurrences --schedule "monthly on last fri" --from 2027-01-01 --to 2027-06-30
                """),
        Topic(
            name: "dates", summary: "how dates and times are written (--due, --on, --from, --date)", options: ["due", "on", "date", "start", "by"],
            text: """
                DATE is YYYY-MM-DD or as people say it, read in the configured zone at --now (default: the
                clock):

                  today  tomorrow  yesterday
                  fri              the next Friday, never today (`next fri` says the same)
                  dec 24  24 dec   the next 24 December on or after today; `december 24th`,
                                   `24 dec 2027` and `dec 24, 2027` name a year
                  in 3 days        also in 2 weeks, in 1 month, in a year (a month's day clamped)
                  next week        its Monday; `next month` its first day, `next year` 1 January
                  end of month     the month's last day; `end of week` its Sunday
                  +3d  -1w         days or weeks from today
                  +2m  +1y         months or years from today (a month's day clamped to its length)

                A numeric date with slashes or dots (03/04, 3.4.2027) is refused: whether the day or the
                month comes first is a guess. Write 2027-04-03, 3 apr or apr 3.

                A DATE may carry a time: 2026-12-24T18:00, `tomorrow 09:00`, `fri 6:30pm`, `dec 24 at
                noon`, `9am tomorrow`; a time alone is today's. TIME is HH:MM on the 24-hour clock, or
                9am, 9:30pm, 12am (midnight), 12pm, noon, midnight. `preview --from/--to` and `--now`
                also take an ISO 8601 instant: 2026-12-01T09:00 (in your zone) or 2026-12-01T09:00:00+01:00.

                A command that read a word says on stderr what it made of it (`todo 4: due Fri 2026-12-04`);
                stdout keeps just the answer.
                """),
        Topic(
            name: "offsets", summary: "how long before an item its reminders fire (--remind, reminders)", options: ["remind"],
            text: """
                An OFFSET is how long before an item a reminder fires: 0m (at its time), 10m, 2h, 1d, 1w,
                or combined like 1h30m. Give --remind several times for several reminders.

                - Minutes and hours are exact durations before the item's time.
                - Days and weeks are calendar days: 1d before a 09:00 event is 09:00 the day before, across
                  a DST change.
                - Date-only items (todos due on a day, all-day events, bills, subscriptions, debts, goals)
                  have no time: 0m and whole days put them in the morning digest (default 08:00) of that
                  day or of N days before.
                - Items without --remind get the config's defaults for their kind (`help config`:
                  reminders); an empty list there turns a kind's reminders off.
                """),
        Topic(
            name: "config", summary: "the settings file and every key in it", options: [],
            text: """
                ~/.config/dawnlet/config.json5 ($XDG_CONFIG_HOME/dawnlet/config.json5, or --config PATH) is
                JSON5: comments, unquoted keys and trailing commas are allowed. Every key is optional; a
                missing file means the defaults. An unknown key, a key given twice, a wrong type or a value
                out of range is exit 78 with the file, the line and column, the key path and the problem.

                  timeZone        the IANA zone wall times are read in (default: the system's)
                  morningDigest   when the digest of date-only items goes out, HH:MM (08:00)
                  horizon         how far ahead the runner plans, 1h to 366d (14d)
                  graceWindow     how late a missed reminder may still go out, at most 7d (12h)
                  late            per kind and default: send (the default), summary or drop a late reminder
                  nag             how often an unanswered reminder comes back, per kind ("off"; "5m")
                  nagFor          for how long at most after it first went out (1h)
                  escalate        [{ after: "15m", to: ["email"] }]: where an unanswered reminder goes
                                  on to, rung by rung, per kind or for all (default: none)
                  lists           per tag: route, urgency, nag, sound, quietHours, mute ({ days,
                                  from, to }: nothing sent) and escalate for the items of that list
                  quietHours      { from: "22:00", to: "07:00", days, kinds, critical }: what falls due
                                  inside goes out when they end (default: none)
                  reminders       default offsets per kind: event, todo, habit, bill, subscription,
                                  debt, goal, income, calendar (lists like ["10m"]; [] is off)
                  route           channels per kind, and default: desktop, command, email
                  channels.desktop  expire, snooze (presets: "10m", "tomorrow 09:00", "15m before start"),
                                    fallback (command, email or null), urgency, sound, persistence,
                                    whilePaused (hold or fallback, while the server is paused),
                                    criticalPassesDoNotDisturb (true or false; default true)
                  channels.command  argv (run without a shell; {title} {body} {kind} {key} {when}
                                    {due} {offset} {late} {repeat} {urgency} in its words), timeout (1s to 1h)
                  channels.email    url (smtp:// with STARTTLS, or smtps://), tls, from, to, user,
                                    passwordFile (0600), sendmail (instead of url), timeout, caFile
                  calendars       a list of { name, path (an .ics file or a vdir), readOnly, channels }
                  export          { to: a folder }: serve keeps your todos' and events' files there, and
                                  reads back what other devices write into them

                The commented example is config/config.example.json5; every key is in
                dawnlet-remind.json5(5). `dawnlet-remind doctor` checks the file.
                """),
    ]
}
