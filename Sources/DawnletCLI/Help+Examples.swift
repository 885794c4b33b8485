/// The examples `--help` and the man page show for each command.
extension Help {
    /// Two or three command lines per command, each one the command accepts (a test runs the
    /// parser on every one).
    static let examples: [String: [String]] = {
        let name = CommandLineTool.name
        var table: [String: [String]] = [
            "todo add": [
                "\"Renew passport\" --due 2027-03-01", "\"Call mum\" --due \"fri 18:30\" --remind 0m --remind 1h",
                "\"Water plants\" --every \"weekly on mon,thu at 08:00\"", "\"Take the pills\" --due \"today 09:00\" --nag 5m",
                "\"Course\" --every \"weekly on tue at 18:00\" --until \"dec 22\"", "\"Trip\" --due \"dec 24\" --note \"tickets\" --tag travel --priority high",
                "\"Pack\" --due fri --check passport --check charger",
            ],
            "todo check": ["3 2", "3 passport", "5 1 --on 2026-12-14"],
            "todo uncheck": ["3 2", "5 passport --on 2026-12-14"],
            "todo list": ["", "--overdue", "--json"],
            "todo done": ["4", "2 --on yesterday"],
            "todo reopen": ["4", "2 --on 2026-12-01"],
            "todo edit": [
                "4 --due \"next mon 10:00\"", "2 --every \"weekdays at 07:30\" --no-remind", "2 --on 2026-12-24 --title \"Water plants (short)\"",
                "4 --channel desktop,command", "4 --nag off --urgency critical", "3 --check socks --no-check 2",
            ],
            "event add": [
                "\"Dentist\" --start 2027-01-12T14:30 --duration 45m --remind 1d --remind 1h",
                "\"Team call\" --start 2026-12-07T10:00 --every \"weekly on mon\"", "\"Holiday\" --start 2026-12-24",
                "\"Talk\" --start \"fri 10:00\" --urgency critical --sound bell",
                "\"Call with Boston\" --start \"mon 16:00\" --zone America/New_York --every \"weekly on mon\"",
            ],
            "todo show": ["3", "3 --json"],
            "event show": ["2", "2 --json"],
            "event edit": ["3 --start 2027-01-13T09:00", "3 --all-day", "5 --on 2026-12-14 --at 11:00"],
            "habit add": ["\"Meds\" --days mon,tue,wed,thu,fri,sat,sun --at 08:30", "\"Run\" --days mon,wed,fri --at 07:00 --from +1w"],
            "habit done": ["1", "1 --on yesterday"],
            "habit edit": ["1 --days tue,thu", "1 --at 19:00", "1 --no-time"],
            "money add": [
                "\"Rent\" --amount -950 --every \"monthly on day 1\"", "\"Salary\" --amount 3200 --every \"monthly on last fri\"",
                "\"New bike\" --amount -480 --on 2027-03-15",
            ],
            "money list": ["", "--json"],
            "money month": ["", "2027-01", "2027-01 --json"],
            "money skip": ["2 --on 2027-01-01", "2 --on 2027-02-01"],
            "money unskip": ["2 --on 2027-01-01", "--db ~/household.sqlite 1 --on 2027-03-01"],
            "money paid": ["2", "2 --on 2027-01-01"],
            "money unpaid": ["2", "2 --on 2027-01-01"],
            "money edit": ["2 --amount -980", "2 --every \"monthly on day 3\"", "3 --on 2027-03-20"],
            "subscription add": ["\"Music\" --amount -10.99 --every \"monthly on day 14\"", "\"Domain\" --amount -15 --every \"yearly from 2027-03-02\""],
            "subscription pause": ["1", "--db ~/household.sqlite 2"],
            "subscription resume": ["1", "--db ~/household.sqlite 2"],
            "subscription log": ["1", "1 --on 2026-11-14 --amount 9.99"],
            "subscription edit": ["1 --amount -11.99", "1 --name \"Music (family)\""],
            "debt add": ["\"Car loan\" --balance 4200 --minimum 180 --day 15", "\"Card\" --balance 900 --minimum 25 --day 31"],
            "debt log": ["1", "1 --amount 250 --on yesterday"],
            "goal log": ["1 --amount 150", "1 --amount 50 --on yesterday"],
            "debt pay-off": ["1", "--db ~/household.sqlite 2"],
            "debt edit": ["1 --minimum 200", "1 --day 20"],
            "goal add": ["\"Bike\" --target 1200 --by 2027-06-01", "\"Rainy day\" --target 5000"],
            "goal edit": ["1 --target 1500", "1 --by 2027-09-01"],
            "income add": ["\"Salary\" --amount 3200 --every \"monthly on day 25\"", "\"Tutoring\" --amount 60 --every \"weekly on thu\""],
            "income edit": ["1 --amount 3350", "1 --every \"monthly on last fri\""],
            "payment list": ["", "--json"],
            "payment delete": ["7", "--db ~/household.sqlite 3"],
            "calendar": ["", "2027-02", "--json"],
            "today": ["", "--date tomorrow", "--json"],
            "agenda": ["", "--days 14", "--from mon --days 5 --json", "--tag work"],
            "dashboard": ["", "--json"],
            "find": ["passport", "\"dentist\" --json"],
            "preview": ["", "--days 1 --all", "--from 2027-01-01 --to 2027-02-01 --json"],
            "next": ["", "--json", "--format waybar"],
            "occurrences": [
                "--schedule \"monthly on 5th fri\" --from 2026-01-01 --to 2026-12-31",
                "--schedule \"daily at 02:30\" --from 2026-03-28 --to 2026-03-30 --tz Europe/Berlin --json",
            ],
            "export": ["--to ~/.local/share/vdirsyncer/dawnlet", "--to /tmp/todos --todos"],
            "import": ["~/calendar.ics --dry-run", "tasks.json --from taskwarrior", "~/todo.txt --from todo.txt --json"],
            "deleted": ["", "--json"],
            "todo restore": ["3", "--db ~/household.sqlite 5"],
            "event restore": ["2", "--config ~/.config/dawnlet/work.json5 4"],
            "serve": ["", "--db ~/other.sqlite"],
            "missed": ["", "--json", "--clear"],
            "reminder list": ["", "--waiting", "--snoozed --json"],
            "reminder done": ["", "todo:3:2026-12-04:0m"],
            "reminder skip": ["", "habit:1:2026-12-04:0m"],
            "reminder dismiss": ["", "event:2:2026-12-04:15m"],
            "reminder paid": ["", "bill:1:2026-12-01:0m"],
            "reminder log": ["", "subscription:2:2026-12-14:1d"],
            "reminder snooze": ["", "--for 1h", "todo:3:2026-12-04:0m --until \"tomorrow 09:00\""],
            "reminder unsnooze": ["", "todo:3:2026-12-04:0m"],
            "notify-test": ["", "--channel email"],
            "completions": ["bash", "fish", "ids todo"],
            "man-page": ["", "5"],
            "doctor": ["", "--config ~/.config/dawnlet/work.json5"],
            "mail-send": ["< message.eml", "--config ~/.config/dawnlet/work.json5 < message.eml"],
        ]
        for kind in ["todo", "event", "habit"] {
            if table["\(kind) list"] == nil { table["\(kind) list"] = ["", "--json"] }
            table["\(kind) skip"] = ["3", "3 --on tomorrow"]
            table["\(kind) unskip"] = ["3", "3 --on tomorrow"]
            table["\(kind) delete"] = ["3", "--db ~/work.sqlite 3"]
        }
        for noun in ["subscription", "debt", "goal", "income"] {
            if table["\(noun) list"] == nil { table["\(noun) list"] = ["", "--json"] }
            table["\(noun) delete"] = ["2", "--db ~/household.sqlite 1"]
        }
        table["money delete"] = ["2", "--db ~/household.sqlite 1"]
        return table.reduce(into: [:]) { result, entry in
            result[entry.key] = entry.value.map { $0.isEmpty ? "\(name) \(entry.key)" : "\(name) \(entry.key) \($0)" }
        }
    }()
}
