#!/bin/bash
# Zones follow the system's tzdata files, with no rebuild. Runs inside a private mount
# namespace (as: unshare -m --propagation private zone-file.sh DIR BINARY): a folder of its own is
# bind-mounted on /usr/share/zoneinfo, so the machine's zone files are never touched. Its
# Europe/Berlin is first the real one, then replaced (as dpkg does: a new file renamed over it) by
# one compiled with zic, once without DST for a command, once at +05:00 under a running `serve`.
# Prints what the test asserts, one fact a line.
set -u
dir=$1 binary=$2
mkdir -p "$dir/zoneinfo/Europe"
cp /usr/share/zoneinfo/Europe/Berlin "$dir/zoneinfo/Europe/Berlin"
mount --bind "$dir/zoneinfo" /usr/share/zoneinfo || exit 1
replace() {  # replace NAME ZIC-LINE: Europe/Berlin becomes the zone of ZIC-LINE
    echo "$2" > "$dir/$1.zi"
    /usr/sbin/zic -d "$dir/compiled-$1" "$dir/$1.zi" || exit 1
    cp "$dir/compiled-$1/Europe/Berlin" /usr/share/zoneinfo/Europe/Berlin.new
    mv -T /usr/share/zoneinfo/Europe/Berlin.new /usr/share/zoneinfo/Europe/Berlin
}
unset TZ TZDIR
july() { "$binary" occurrences --schedule 'daily at 12:00' --from 2027-07-01 --to 2027-07-01 --tz Europe/Berlin --json; }
echo "before=$(july)"
replace nodst 'Zone Europe/Berlin 1:00 - CET'
echo "nodst=$(july)"

echo "{ graceWindow: \"1h\", channels: { command: { argv: [\"/bin/sh\", \"-c\", \"date +%s >> $dir/fired\"], timeout: \"5s\" } } }" > "$dir/config.json5"
run() { "$binary" --db "$dir/dawnlet.sqlite" --config "$dir/config.json5" --tz Europe/Berlin "$@"; }
run todo add "Stand-up" --due 2026-12-01T09:00 > /dev/null
# 09:00 in CET is 08:00 UTC, four hours off; at +05:00 it is 04:00 UTC, five seconds off.
faketime '2026-12-01 03:59:55' "$binary" --db "$dir/dawnlet.sqlite" --config "$dir/config.json5" --tz Europe/Berlin serve 2> "$dir/serve.log" &
for _ in $(seq 100); do grep -q "planned (start)" "$dir/serve.log" 2>/dev/null && break; sleep 0.05; done
replace plus5 'Zone Europe/Berlin 5:00 - +05'
for _ in $(seq 100); do [ -s "$dir/fired" ] && break; sleep 0.1; done
echo "fired=$(wc -l < "$dir/fired" 2>/dev/null || echo 0)"
pkill -TERM -f "^$binary --db $dir/dawnlet.sqlite"
wait
cat "$dir/serve.log"
