#!/bin/bash
# Runs the unit under a real `systemd --user` with its own journald, inside a private mount
# namespace (run as: unshare -m --propagation private systemd-user.sh DIR BINDIR UNIT). Nothing
# outside the namespace and DIR is touched. Prints what the test asserts, one fact a line.
set -u
dir=$1 bindir=$2 unit=$3
mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system /run/systemd/journal
mkdir -p /run/log && mount -t tmpfs tmpfs /run/log
export XDG_RUNTIME_DIR=$dir/runtime XDG_CONFIG_HOME=$dir/config XDG_DATA_HOME=$dir/data HOME=$dir/home TZ=UTC
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/systemd/user" "$XDG_CONFIG_HOME/dawnlet" "$XDG_DATA_HOME" "$HOME"
chmod 700 "$XDG_RUNTIME_DIR"
sed "s|@BINDIR@|$bindir|" "$unit" > "$XDG_CONFIG_HOME/systemd/user/dawnlet-remind.service"
# The command channel only: this user manager's session bus would activate the packaged dunst,
# which fails without a display (the desktop channel has tests of its own).
echo '{ route: { default: ["command"] }, channels: { command: { argv: ["/bin/true"] } } }' > "$XDG_CONFIG_HOME/dawnlet/config.json5"
# Made three minutes ago and due a minute ago: inside the grace window, so the service delivers it
# (late) as it starts.
"$bindir/dawnlet-remind" --now "$(date -d '-3 min' +%Y-%m-%dT%H:%M:%S)" todo add "Stretch" --due "$(date -d '-1 min' +%Y-%m-%dT%H:%M)" > /dev/null
# A cgroup of our own: when the user manager exits it stops what is in its cgroup, and that must
# be only what this script started, never the test runner or other tests' processes.
for h in systemd unified; do
    mkdir -p "/sys/fs/cgroup/$h/dawnlet-test-$$" 2>/dev/null && echo $$ > "/sys/fs/cgroup/$h/dawnlet-test-$$/cgroup.procs" 2>/dev/null
done
/lib/systemd/systemd-journald > "$dir/journald.log" 2>&1 &
sleep 0.3
/lib/systemd/systemd --user > "$dir/systemd.log" 2>&1 &
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/systemd/private" ] && break; sleep 0.1; done
systemctl --user start dawnlet-remind.service; echo "start=$?"
echo "active=$(systemctl --user is-active dawnlet-remind.service)"
sleep 1
systemctl --user show -p StatusText dawnlet-remind.service
systemctl --user reload dawnlet-remind.service; echo "reload=$?"
# ExecReload= (kill -HUP) returns at once: the unit is "reloading" from the runner's RELOADING=1
# until its READY=1, after the re-plan. Wait for that to end (up to 10 s), then say the state.
for _ in $(seq 200); do [ "$(systemctl --user is-active dawnlet-remind.service)" = reloading ] || break; sleep 0.05; done
echo "after-reload=$(systemctl --user is-active dawnlet-remind.service)"
systemctl --user stop dawnlet-remind.service; echo "stop=$?"
systemctl --user show -p Result -p ExecMainStatus dawnlet-remind.service
journalctl -D /run/log/journal --no-pager -o verbose 2>/dev/null | grep -E '^ +(MESSAGE=|DAWNLET_)' | sed 's/^ *//'
# A config that cannot be used: the unit fails at once (exit 78), is not restarted, and doctor
# says so and why.
echo '{ route: ' > "$XDG_CONFIG_HOME/dawnlet/config.json5"
systemctl --user start dawnlet-remind.service; echo "bad-start=$?"
for _ in $(seq 100); do systemctl --user -q is-failed dawnlet-remind.service && break; sleep 0.1; done
systemctl --user show -p ActiveState -p Result -p ExecMainStatus -p NRestarts dawnlet-remind.service | sed 's/^/failed-/'
"$bindir/dawnlet-remind" doctor | grep ' service: ' | sed 's/^/doctor-/'
systemctl --user exit 2>/dev/null
kill %1 2>/dev/null
wait 2>/dev/null
for h in systemd unified; do
    # The user manager made groups of its own inside ours: remove the innermost first.
    echo $$ > "/sys/fs/cgroup/$h/cgroup.procs" 2>/dev/null &&
        find "/sys/fs/cgroup/$h/dawnlet-test-$$" -depth -type d -exec rmdir {} + 2>/dev/null
done
exit 0
