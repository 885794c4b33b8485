"""Python's zoneinfo as the oracle for dawnlet's TZif reader: for each zone, every offset change
from 1970 to 2040 (found day by day, then to the second), the offsets either side, and how a wall
time inside each gap or fold resolves (fold=0: a gap's time read with the offset before it, a
fold's first instance). Prints JSON: {zone: {"offsets": [[t, off]...], "locals": [[y,m,d,H,M,t]...]}}."""
import datetime, json, multiprocessing, signal, sys, zoneinfo

UTC = datetime.timezone.utc
START = int(datetime.datetime(1970, 1, 1, tzinfo=UTC).timestamp())
END = int(datetime.datetime(2040, 1, 1, tzinfo=UTC).timestamp())

STEP = 2 * 86400  # offset changes closer than this that undo each other are not looked for

def zone_checks(name):
        zone = zoneinfo.ZoneInfo(name)
        def off(t):
            return int(datetime.datetime.fromtimestamp(t, tz=zone).utcoffset().total_seconds())
        offsets, locals_ = [[START, off(START)]], []
        prev_t, prev = START, off(START)
        for t in range(START + STEP, END, STEP):
            o = off(t)
            if o == prev:
                prev_t = t
                continue
            low, high = prev_t, t  # off(low) == prev, off(high) == o
            while high - low > 1:
                mid = (low + high) // 2
                if off(mid) == prev: low = mid
                else: high = mid
            offsets += [[high - 1, prev], [high, o], [high + 1, off(high + 1)]]
            # A wall time inside the gap (o > prev) or the fold (o < prev), on a whole minute.
            local = high + min(prev, o) + abs(o - prev) // 2
            local -= local % 60
            wall = datetime.datetime.fromtimestamp(local, tz=UTC).replace(tzinfo=zone, fold=0)
            locals_.append([wall.year, wall.month, wall.day, wall.hour, wall.minute, int(wall.timestamp())])
            prev_t, prev = t, o
        return name, {"offsets": offsets, "locals": locals_}

def main(names):
    # Started by Foundation's Process, this inherits the test runner's blocked signals: a pool
    # whose workers cannot get SIGTERM waits for them for ever. Unblocked first, and the pool
    # closed and joined (its workers leave on their own), never terminated.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
    # Every Area/City and Etc/* zone when none is named.
    names = names or sorted(n for n in zoneinfo.available_timezones() if "/" in n)
    pool = multiprocessing.Pool()
    results = pool.map(zone_checks, names, chunksize=8)
    pool.close()
    pool.join()
    json.dump(dict(results), sys.stdout)

if __name__ == "__main__":
    main(sys.argv[1:])
