"""recurring-ical-events on icalendar as the oracle for dawnlet's calendar reader: reads
a JSON list of cases [{"file": PATH, "from": "20260101T000000Z", "to": "20270101T000000Z"}] from
the file named by its argument and prints, for each (a file's VCALENDARs read as one set of
components), the VEVENT instances starting in [from, to) as sorted ["UID 20260302T080000Z",
"UID 20260310" (a date), ...], or an error string where the oracle cannot read the file."""
import datetime, json, signal, sys, warnings
import icalendar, recurring_ical_events

signal.pthread_sigmask(signal.SIG_SETMASK, [])  # the test runner's blocked signals are inherited
UTC = datetime.timezone.utc
warnings.simplefilter("ignore")  # icalendar's deprecation notes would mix with the answer

def parse(text):
    return datetime.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)

def name(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)  # floating: the tests plan in UTC
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return value.strftime("%Y%m%d")

out = []
for case in json.load(open(sys.argv[1])):
    start, stop = parse(case["from"]), parse(case["to"])
    try:
        with open(case["file"], "rb") as f:
            components = icalendar.Calendar.from_ical(f.read(), multiple=True)
        # A file of several VCALENDARs (an iTIP stream, exports run together) is one set of
        # components, as dawnlet reads it; what stands outside them is no part of it.
        calendar = components[0]
        if len(components) > 1:
            calendar = icalendar.Calendar()
            for part in components:
                if part.name == "VCALENDAR":
                    for component in part.subcomponents:
                        calendar.add_component(component)
        found = []
        # An event without a UID is named as dawnlet names it: the file, # and its place in it.
        events = [c for c in calendar.subcomponents if c.name == "VEVENT"]
        for i, event in enumerate(events):
            if "UID" not in event:
                event.add("UID", f"{case['file'].rsplit('/', 1)[-1]}#{i}")
        for event in recurring_ical_events.of(calendar, components=["VEVENT"]).between(start, stop):
            begin = event.get("DTSTART").dt
            key = begin if isinstance(begin, datetime.datetime) else datetime.datetime(begin.year, begin.month, begin.day, tzinfo=UTC)
            if key.tzinfo is None:
                key = key.replace(tzinfo=UTC)
            if start <= key < stop and event.get("STATUS", "") != "CANCELLED":
                found.append(f"{event.get('UID', '')} {name(begin)}")
        out.append(sorted(found))
    except Exception as error:
        out.append(f"{type(error).__name__}: {error}")
print()
print(json.dumps(out))  # the answer is the last line
