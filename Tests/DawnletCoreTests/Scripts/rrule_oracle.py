"""python-dateutil as the oracle for dawnlet's RRULE expansion (RecurrenceRule): reads a JSON
list of cases [{"rule": "FREQ=...", "start": "20260302T090000", "through": "20290302T090000",
"limit": 60}] from the file named by its argument and prints, for each, the instances (at most
`limit`, none after `through`) as ["20260302T090000", ...], or null where dateutil cannot answer:
it fails (an IndexError on some ordinals), or takes over 0.1 s (it searches to year 9999 for an
instance that never comes)."""
import datetime, json, signal, sys
from dateutil import rrule

class Slow(Exception):
    pass

def slow(signum, frame):
    raise Slow()

signal.pthread_sigmask(signal.SIG_SETMASK, [])  # the test runner's blocked signals are inherited
signal.signal(signal.SIGALRM, slow)

def parse(text):
    return datetime.datetime.strptime(text, "%Y%m%dT%H%M%S")

out = []
for case in json.load(open(sys.argv[1])):
    start, through = parse(case["start"]), parse(case["through"])
    result = []
    signal.setitimer(signal.ITIMER_REAL, 0.1)
    try:
        for t in rrule.rrulestr(case["rule"], dtstart=start):
            if t > through or len(result) == case["limit"]:
                break
            result.append(t.strftime("%Y%m%dT%H%M%S"))
    except ValueError as error:
        # An HOURLY rule whose INTERVAL never reaches its BYHOUR: dateutil refuses it; no instances.
        result = [] if "empty set" in str(error) else None
    except (Slow, IndexError):
        result = None
    signal.setitimer(signal.ITIMER_REAL, 0)
    out.append(result)
json.dump(out, sys.stdout)
