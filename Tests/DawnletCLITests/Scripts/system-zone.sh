#!/bin/bash
# The runner follows the system time zone: /etc/localtime is replaced while `serve` runs, and a
# reminder's instant moves with it. Runs inside a private mount namespace (as: unshare -m
# --propagation private system-zone.sh DIR BINARY) with an overlay on /etc, so the machine's own
# /etc/localtime is never touched. Prints what the test asserts, one fact a line.
set -u
dir=$1 binary=$2
mkdir -p "$dir/upper" "$dir/work"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$dir/upper,workdir=$dir/work" /etc || exit 1
zone() { ln -sfn "/usr/share/zoneinfo/$1" /etc/localtime.new && mv -T /etc/localtime.new /etc/localtime; }
zone America/New_York
unset TZ
echo "{ graceWindow: \"1h\", channels: { command: { argv: [\"/bin/sh\", \"-c\", \"date +%s >> $dir/fired\"], timeout: \"5s\" } } }" > "$dir/config.json5"
run() { "$binary" --db "$dir/dawnlet.sqlite" --config "$dir/config.json5" "$@"; }
run todo add "Stand-up" --due 2026-12-01T09:00 > /dev/null
# 09:00 in New York is 14:00 UTC, five hours off; in London it is 09:00 UTC, five seconds off.
TZ=UTC faketime '2026-12-01 08:59:55' env -u TZ "$binary" --db "$dir/dawnlet.sqlite" --config "$dir/config.json5" serve 2> "$dir/serve.log" &
sleep 1.5
zone Europe/London
for _ in $(seq 80); do [ -s "$dir/fired" ] && break; sleep 0.1; done
echo "fired=$(wc -l < "$dir/fired" 2>/dev/null || echo 0)"
pkill -TERM -f "^$binary --db $dir/dawnlet.sqlite"
wait
cat "$dir/serve.log"
