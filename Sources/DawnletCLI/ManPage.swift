/// The manual pages, dawnlet-remind(1) and dawnlet-remind.json5(5), as roff, made from the same
/// table and words as `help` (so neither can fall behind the other); `make install` writes them.
enum ManPage {
    static let command = Command(
        path: ["man-page"], usage: "man-page [1|5]",
        summary: "Print the manual page dawnlet-remind(1), or with 5 dawnlet-remind.json5(5), as roff (make install installs both).",
        options: [], positionals: 0...1, run: run)

    static func run(_ invocation: inout Invocation) throws {
        switch invocation.arguments.positionals.first ?? "1" {
        case "1": invocation.output.line(commands())
        case "5": invocation.output.line(config())
        case let other: throw CLIError.usage("\"\(other)\" is not a section: give 1 (the commands) or 5 (the config file)", invocation.globals.usage)
        }
    }

    static let date = "2026-12-02"

    // MARK: roff

    /// Text as roff: backslashes and dashes escaped, a line never begins with a control character.
    static func text(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "`": out += "\\(ga"
            default: out.append(c)
            }
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { $0.first == "." ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    /// A usage line with its words marked: literal words bold, placeholders (CAPITALS) italic.
    static func usage(_ s: String) -> String {
        s.split(separator: " ").map { word -> String in
            let bare = word.filter { $0.isLetter || $0 == "-" }
            let escaped = text(String(word))
            if !bare.isEmpty, bare == bare.uppercased(), bare.contains(where: \.isLetter) { return "\\fI\(escaped)\\fR" }
            return word.contains(where: \.isLetter) ? "\\fB\(escaped)\\fR" : escaped
        }.joined(separator: " ")
    }

    /// A help topic's text as roff: paragraphs, indented lines kept as they are, "- " items as a list.
    static func prose(_ s: String) -> String {
        enum Mode { case none, paragraph, list, verbatim }
        var out: [String] = []
        var mode = Mode.none
        for line in s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if mode == .list && line.hasPrefix("  ") { out.append(text(line.trimmingLeadingSpaces)); continue }
            if line.hasPrefix("  ") {
                if mode != .verbatim { out += [".PP", ".nf", ".RS 2"]; mode = .verbatim }
                out.append(text(String(line.dropFirst(2))))
                continue
            }
            if mode == .verbatim { out += [".RE", ".fi"]; mode = .none }
            if line.isEmpty { mode = .none; continue }
            if line.hasPrefix("- ") {
                out += [".IP \\(bu 2", text(String(line.dropFirst(2)))]
                mode = .list
            } else if mode == .paragraph {
                out.append(text(line))
            } else {
                out += [".PP", text(line)]
                mode = .paragraph
            }
        }
        if mode == .verbatim { out += [".RE", ".fi"] }
        return out.joined(separator: "\n")
    }

    // MARK: dawnlet-remind(1)

    static func commands() -> String {
        var page = """
            .TH DAWNLET\\-REMIND 1 \(date) "dawnlet\\-remind \(CommandLineTool.version)" "User Commands"
            .SH NAME
            dawnlet\\-remind \\- reminders for todos, events, habits and money, fired exactly on time
            .SH SYNOPSIS
            .B dawnlet\\-remind
            [\\fB\\-\\-config\\fR \\fIPATH\\fR] [\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-\\-tz\\fR \\fIZONE\\fR] [\\fB\\-\\-now\\fR \\fIISO\\fR] [\\fB\\-\\-color\\fR \\fIWHEN\\fR]
            \\fICOMMAND\\fR [\\fIOPTIONS\\fR]
            .br
            .B dawnlet\\-remind help
            [\\fICOMMAND\\fR...|\\fITOPIC\\fR]
            .SH DESCRIPTION
            dawnlet\\-remind keeps todos, events, habits and money (bills, subscriptions, debts, goals,
            income) in one SQLite database, reads calendar files (.ics and vdirs), plans the reminders
            they call for, and with
            .B serve
            (a systemd user service) sleeps until exactly the next one is due and sends it as a desktop
            notification you can act on, a command, or an email; once, however often it is restarted.
            .B preview
            shows what will fire when, and why.
            .SH GLOBAL OPTIONS
            They may stand before or after the command.

            """
        for (option, meaning) in Help.globalOptions {
            page += ".TP\n\(usage(option.replacingCommaSpace))\n\(text(meaning))\n"
        }
        page += ".SH COMMANDS\n"
        for noun in Help.nouns {
            let commands = Help.verbs(of: noun)
            page += ".SS \(text(noun))\n"
            for command in commands {
                page += ".TP\n\(usage(command.usage))\n\(text(command.summary))\n"
                if !command.options.isEmpty {
                    page += ".RS\n"
                    for option in command.options {
                        let value = Help.placeholder(of: option, in: command).map { " \\fI\(text($0))\\fR" } ?? ""
                        page += ".TP\n\\fB\\-\\-\(text(option.name))\\fR\(value)\n\(text(Help.meaning(of: option.name, in: command)))\n"
                    }
                    page += ".RE\n"
                }
                if let examples = Help.examples[command.path.joined(separator: " ")], let first = examples.first {
                    page += ".RS\n.PP\nFor example:\n.nf\n.RS 2\n\(text(first))\n.RE\n.fi\n.RE\n"
                }
            }
        }
        for topic in Help.topics where topic.name != "config" {
            page += ".SH \(text(topic.name.uppercased()))\n\(prose(topic.text))\n"
        }
        page += """
            .SH FILES
            .TP
            .I ~/.config/dawnlet/config.json5
            The configuration (\\fB$XDG_CONFIG_HOME/dawnlet/config.json5\\fR, or \\fB\\-\\-config\\fR);
            every key is in
            .BR dawnlet\\-remind.json5 (5).
            A missing file means the defaults.
            .TP
            .I ~/.local/share/dawnlet/dawnlet.sqlite
            The database (\\fB$XDG_DATA_HOME/dawnlet/dawnlet.sqlite\\fR, or \\fB\\-\\-db\\fR), readable only by
            you. A command that only reads never creates it; the first that writes does.
            .TP
            .I ~/.config/systemd/user/dawnlet\\-remind.service
            The user unit that runs \\fBdawnlet\\-remind serve\\fR (\\fBmake install\\fR writes it).
            .TP
            .I $XDG_RUNTIME_DIR/dawnlet\\-remind/next\\-*.json
            What a running \\fBserve\\fR says it sends next, one file per database, readable only by you;
            \\fBnext\\fR reads it while it still holds, else plans. Removed when \\fBserve\\fR stops.
            .TP
            .I $XDG_RUNTIME_DIR/dawnlet\\-remind/today\\-*.json, agenda\\-*.json
            What \\fBtoday\\fR and \\fBagenda\\fR last printed, readable only by you: printed again for the same
            question while the database, its WAL, the config, the calendar files and the zone's rules are as
            they were (each stamped by device, inode, size and time); else made again.
            .SH ENVIRONMENT
            .TP
            .B XDG_CONFIG_HOME, XDG_DATA_HOME, HOME
            Where the config and the database are looked for.
            .TP
            .B TZ, TZDIR
            The system's zone when the config names none, and where zone rules are read from
            (default \\fI/usr/share/zoneinfo\\fR).
            .TP
            .B NO_COLOR
            When set, output to a terminal has no colour (as \\fB\\-\\-color=never\\fR).
            .TP
            .B DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR
            The session bus desktop notifications go through; the folder \\fBserve\\fR publishes the next reminder in,
            and \\fBtoday\\fR and \\fBagenda\\fR keep their last answer in (none without it: \\fBnext\\fR then always
            plans, and the days are made each time).
            .TP
            .B NOTIFY_SOCKET, JOURNAL_STREAM
            Set by systemd: \\fBserve\\fR tells it READY and STOPPING, and logs structured journal entries.
            .TP
            .B DAWNLET_REMINDER_KEY, DAWNLET_CHANNEL
            Set for the command channel's program and the sendmail command: the key of the reminder it is
            sent, and the channel (command or email).
            .TP
            .B DAWNLET_EMAIL
            Set by \\fBserve\\fR for \\fBmail\\-send\\fR: the email settings it runs with, as a config
            document; without it, \\fBmail\\-send\\fR reads channels.email from the config.
            .SH EXIT STATUS
            .TP
            .B 0
            Success.
            .TP
            .B 1
            A runtime failure: the database locked by another process for more than 5 s, a folder that
            cannot be written, a check of \\fBdoctor\\fR that failed.
            .TP
            .B 2
            A usage error: an unknown command or option, a bad schedule, date, zone or amount.
            .TP
            .B 65
            Bad input data: an unknown id, a date the schedule does not produce, a file that is not a
            dawnlet database, a database from a newer version.
            .TP
            .B 66
            No database to read (a command that only reads never creates one).
            .TP
            .B 75
            A temporary failure, worth another try (\\fBmail\\-send\\fR: no connection, a 4xx answer, a timeout).
            .TP
            .B 78
            A bad configuration: the file, line and column, key and problem are named.
            .SH EXAMPLES
            .nf
            .RS 2
            dawnlet\\-remind todo add "Renew passport" \\-\\-due 2027\\-03\\-01 \\-\\-remind 1w
            dawnlet\\-remind event add "Dentist" \\-\\-start "fri 14:30" \\-\\-remind 1h
            dawnlet\\-remind habit add "Meds" \\-\\-days mon,tue,wed,thu,fri,sat,sun \\-\\-at 08:30
            dawnlet\\-remind subscription add "Music" \\-\\-amount \\-10.99 \\-\\-every "monthly on day 14"
            dawnlet\\-remind today
            dawnlet\\-remind preview \\-\\-days 2
            dawnlet\\-remind next \\-\\-format waybar
            systemctl \\-\\-user enable \\-\\-now dawnlet\\-remind.service
            .RE
            .fi
            .SH SEE ALSO
            .BR dawnlet\\-remind.json5 (5),
            .BR systemctl (1),
            .BR journalctl (1),
            .BR vdirsyncer (1)
            """
        return page
    }

    // MARK: dawnlet-remind.json5(5)

    /// Every key of the config, by path, with what it means; a test asks the binary for every key
    /// it accepts and finds each here.
    static let configKeys: [(String, String)] = [
        (
            "timeZone",
            "The IANA zone wall-clock times are read in, such as \"Europe/Berlin\", with the rules of the system's tzdata ($TZDIR, else /usr/share/zoneinfo). Default: the system's zone (TZ, else /etc/localtime), followed when it changes."
        ),
        (
            "morningDigest",
            "When the digest of date-only items (todos due on a day, all-day events, bills, subscriptions, debt due dates, goals) goes out: \"HH:MM\", 24-hour. Default \"08:00\"."
        ),
        ("horizon", "How far ahead the runner plans at most: a duration from \"1h\" to \"366d\". Default \"14d\"."),
        (
            "graceWindow",
            "How late a reminder missed while the machine was off or asleep may still go out, marked late; older ones are recorded as missed. At most \"7d\". Default \"12h\"."
        ),
        (
            "late",
            "What becomes of a reminder that can only go out late, per kind (keys as in reminders) and default for the kinds not named: \"send\" (the default: marked late, inside the grace window), \"summary\" (two or more late ones of such kinds go out as one summary), \"drop\" (not sent: recorded missed at once)."
        ),
        (
            "nag",
            "How often a reminder not yet answered comes back, replacing the last one (a desktop notification's return is critical): \"off\" or a duration from \"5s\" to \"1d\", for every kind, or an object of kinds (keys as in reminders) and default. An item's --nag goes over it. Answered means Done, Skip, Snooze, Paid or dismissed by you, on any channel or device, or the item's own command (todo done, money paid, subscription log, a delete); a notification that expired or that the server closed still waits. Default \"off\"."
        ),
        (
            "quietHours",
            "Hours in which reminders are held: { from: \"22:00\", to: \"07:00\" } (overnight when to is earlier), with days (the weekdays a stretch begins on; default every day), kinds (default every kind) and critical (\"pass\", the default: a reminder asking for critical urgency, its item's or its kind's, goes out all the same; or \"hold\"). A reminder due inside goes out when they end, marked held for quiet hours; several at once as one summary. A nag's returns wait too; a snooze does not (you asked for it); the morning digest goes out at its time. Not set by default."
        ),
        ("nagFor", "How long after a reminder first went out it stops coming back: \"5s\" to \"12h\". Default \"1h\"."),
        (
            "escalate",
            "Where a reminder still unanswered goes on to: a list of rungs { after: \"15m\", to: [\"email\"] }, each after (\"5s\" to \"12h\", counted from when it first went out, each later than the one before) with the channels it adds; one ladder for every kind, or an object of kinds and default. An answer anywhere (as for nag) stops it; each rung goes out once. Not set by default."
        ),
        (
            "lists",
            "How the items of a list (a tag, as todo add --tag gives it) remind: an object of tags, each with any of route, urgency, nag, sound, quietHours (as above, without kinds; instead of the config's own), mute (a stretch in which nothing of the list is sent, not even recorded: days, and from and to, whole days when left out) and escalate. An item's own setting goes over its list's, and a list's over its kind's; an item of several lists reminds as the first of its tags named here."
        ),
        (
            "reminders",
            "Default reminder offsets per kind, for items without --remind of their own: an object of lists of offsets (\"0m\", \"10m\", \"2h\", \"1d\", \"1w\"); an empty list turns a kind's reminders off. Keys: event ([\"10m\"]), todo ([\"0m\"]), habit ([\"0m\"]), bill ([\"0m\"]), subscription ([\"0m\"]), debt ([\"0m\"]), goal ([\"7d\", \"0d\"]), income ([]) and calendar ([\"10m\"], for calendar items without VALARMs)."
        ),
        (
            "route",
            "Which channels each kind's reminders go to: an object of lists of channel names (desktop, command, email), by kind as in reminders, and default for every kind not named. Default: { default: [\"desktop\"] }."
        ),
        ("channels", "How each channel delivers: an object with desktop, command and email."),
        ("channels.desktop", "Desktop notifications (org.freedesktop.Notifications on the session bus)."),
        ("channels.desktop.expire", "How long a notification stays: a duration; \"0s\" until dismissed (the default)."),
        (
            "channels.desktop.snooze",
            "The snoozes a notification offers, one or a list of up to six: a duration from the press (\"10m\", at least \"5s\"), a day and time (\"tomorrow 09:00\"), or a duration before the item starts (\"15m before start\", offered while still to come). reminder snooze without --for or --until takes the first. Default [\"10m\", \"1h\", \"tomorrow 09:00\", \"15m before start\"]."
        ),
        (
            "channels.desktop.urgency",
            "The urgency asked for: \"low\", \"normal\" or \"critical\" (a server keeps a critical notification on screen), for every kind or an object of kinds and default. Not set: critical for an overdue todo and a bill due today, normal else. An item's --urgency goes over it."
        ),
        (
            "channels.desktop.sound",
            "A freedesktop sound name (such as \"message-new-instant\" or \"bell\") played where the server plays sounds, for every kind or an object of kinds and default; \"none\" for none. An item's --sound goes over it."
        ),
        (
            "channels.desktop.whilePaused",
            "While the notification server says it is paused (dunst's paused property, or Inhibited where a server has it; learned from its signals, never polled): \"hold\" (the default: desktop reminders wait, unseen and not recorded delivered, and go out when it resumes) or \"fallback\" (they go through channels.desktop.fallback)."
        ),
        (
            "channels.desktop.criticalPassesDoNotDisturb",
            "While the server's Do Not Disturb is on (swaync's, xfce4-notifyd's, mako's do-not-disturb mode, GNOME's show-banners set false; learned from their signals, mako's read when a reminder is due), desktop reminders are held as for a paused server (or go through the fallback, as whilePaused says) and go out when it ends. true (the default, as quiet hours let them pass): a reminder asking for critical urgency goes out all the same; false: it waits too."
        ),
        (
            "channels.desktop.persistence",
            "Whether the server keeps a notification once it is answered or gone from the screen: \"default\", \"resident\" or \"transient\", for every kind or an object of kinds and default."
        ),
        (
            "channels.desktop.fallback",
            "The channel used when there is no session bus, no notification server, or an error reply: \"command\", \"email\", or null (then the reminder is recorded failed). Default \"command\"."
        ),
        ("channels.command", "A program run without a shell for each reminder."),
        (
            "channels.command.argv",
            "The program and its arguments, each of which may hold {title}, {body}, {kind}, {key}, {when} (the reminder's time, ISO 8601; for one held for quiet hours, when it was due), {due} (the item's own time, or its date), {offset} (how long before it, such as 10m), {late} (\"late\" when it goes out after its time), {repeat} (a nag's how manyeth return, empty the first time) and {urgency} (low, normal or critical). Default [\"notify-send\", \"--app-name=Dawnlet\", \"{title}\", \"{body}\"]."
        ),
        ("channels.command.timeout", "How long the program may run before it is killed: \"1s\" to \"1h\". Default \"10s\"."),
        ("channels.email", "Email through SMTP (libcurl) or a sendmail-compatible program. Not set up by default."),
        ("channels.email.url", "The server: smtp://HOST:PORT (STARTTLS required) or smtps://HOST:PORT."),
        ("channels.email.tls", "\"starttls\" (the default for smtp://) or \"none\", which is refused unless the host is loopback."),
        ("channels.email.from", "The sender address."),
        ("channels.email.to", "The recipient addresses, a list."),
        ("channels.email.user", "The user name to log in with."),
        (
            "channels.email.passwordFile",
            "A file holding the password, readable only by you (0600); or a systemd credential named smtp-password. The password is never written in the config."
        ),
        ("channels.email.sendmail", "Instead of url: a sendmail-compatible program and its arguments, such as [\"msmtp\", \"-t\"]."),
        (
            "channels.email.timeout",
            "How long one exchange may take before it counts as a temporary failure and is retried: \"1s\" to \"10m\". Default \"30s\"."
        ),
        ("channels.email.caFile", "A CA certificate to trust instead of the system's (a private server)."),
        ("calendars", "External calendars, read on each plan and watched by serve, never copied in: a list of objects."),
        ("calendars[].name", "The calendar's name, unique: its reminders' keys and the agenda's source (ics:NAME) carry it."),
        ("calendars[].path", "An .ics file or a vdir folder of them (~ is your home)."),
        ("calendars[].readOnly", "true (the default) or false: whether Done, Snooze and export may write into it."),
        ("calendars[].channels", "Where its reminders go. Default: the route of kind calendar."),
        ("export", "Your todos and events kept as calendar files by serve: an object."),
        (
            "export.to",
            "A folder (~ is your home) serve keeps a file of each todo and event in, as export --to writes them, after each change; what other devices write into those files (done, skipped, moved, acknowledged, snoozed) is applied here. Not a calendar marked readOnly."
        ),
    ]

    static func config() -> String {
        var page = """
            .TH DAWNLET\\-REMIND.JSON5 5 \(date) "dawnlet\\-remind \(CommandLineTool.version)" "File Formats"
            .SH NAME
            dawnlet\\-remind.json5 \\- the configuration of dawnlet\\-remind
            .SH SYNOPSIS
            .I ~/.config/dawnlet/config.json5
            .SH DESCRIPTION
            The configuration of
            .BR dawnlet\\-remind (1)
            is one JSON5 object: comments (// and /* */), unquoted keys, single\\-quoted strings and trailing
            commas are allowed. Every key is optional; a missing file means the defaults. An unknown key, a
            key given twice, a wrong type or a value out of range is exit 78, with the file, the line and
            column, the key path and the problem (a range says the range). Durations are written like
            "30s", "10m", "12h", "14d" or "1h30m".
            .PP
            \\fBdawnlet\\-remind doctor\\fR checks the file; \\fBsystemctl \\-\\-user reload dawnlet\\-remind\\fR makes a
            running \\fBserve\\fR read it again (one that cannot be used is logged, and the one in use kept).
            .SH KEYS

            """
        for (key, meaning) in configKeys {
            page += ".TP\n.B \(text(key))\n\(text(meaning))\n"
        }
        page += """
            .SH EXAMPLE
            .nf
            .RS 2
            {
              timeZone: "Europe/Berlin",
              morningDigest: "07:30",
              reminders: { event: ["10m", "1d"], debt: ["0m", "3d"] },
              route: { default: ["desktop"], bill: ["desktop", "email"] },
              channels: {
                desktop: { snooze: "15m" },
                email: { url: "smtp://mail.example.org:587", from: "me@example.org",
                         to: ["me@example.org"], user: "me",
                         passwordFile: "~/.config/dawnlet/smtp\\-password" },
              },
              calendars: [ { name: "work", path: "~/.local/share/vdirsyncer/work" } ],
            }
            .RE
            .fi
            .SH SEE ALSO
            .BR dawnlet\\-remind (1)
            """
        return page
    }
}

private extension String {
    /// "-h, --help" as two words a usage line marks alike.
    var replacingCommaSpace: String { split(separator: ",").map { $0.trimmingLeadingSpaces }.joined(separator: ", ") }
}

extension StringProtocol {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
