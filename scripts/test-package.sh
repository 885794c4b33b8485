#!/bin/bash
# Tests dawnlet-remind's Debian package as installed: scripts/test-package.sh DEB
#
# lintian (no error, no warning); then, in a private mount namespace with the Swift toolchain hidden
# and PATH the system's: dpkg -i; the installed binary, man pages and completions; the unit verified
# and run under a user manager of the test's own (its own journald and cgroup), a reminder
# delivered; an upgrade over itself (data untouched, the runner restarted onto the new binary); a
# removal (every file gone, the data kept). Run as root (`make test-package`). The machine is left as
# it was: the package is purged at the end, also when a step fails.
set -euo pipefail
pkg=dawnlet-remind
unit=dawnlet-remind.service
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
pass() { echo "test-package: ok: $*"; }

# Polls CONDITION (a shell command) every 0.1 s for at most SECONDS.
wait_for() {
    local seconds=$1 condition=$2 i
    for ((i = 0; i < seconds * 10; i++)); do
        eval "$condition" && return 0
        sleep 0.1
    done
    return 1
}

# The part inside the namespace: everything from `dpkg -i` to `dpkg -r`.
inside() {
    local deb=$1 dir=$2 version=$3
    # No toolchain: the package must bring everything it needs.
    [ -d /opt/swift ] && mount -t tmpfs tmpfs /opt/swift
    export PATH=/usr/sbin:/usr/bin:/sbin:/bin
    ! command -v swift >/dev/null || fail "swift is still reachable: $(command -v swift)"
    # A user manager of our own: runtime folders, journald and /run/user private to the namespace.
    mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system /run/systemd/journal
    mount -t tmpfs tmpfs /run/log
    mount -t tmpfs tmpfs /run/user && mkdir -m 0700 /run/user/0
    export XDG_RUNTIME_DIR=/run/user/0 HOME=$dir/home TZ=UTC
    export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share
    mkdir -p "$XDG_CONFIG_HOME/dawnlet" "$XDG_DATA_HOME"
    trap "teardown '$dir'" EXIT
    trap 'exit 1' TERM INT

    dpkg -i "$deb" > "$dir/dpkg-install.log" 2>&1 || { cat "$dir/dpkg-install.log"; fail "dpkg -i"; }
    dpkg -L "$pkg" > "$dir/files"
    pass "installed $(basename "$deb") ($(grep -c . "$dir/files") paths)"

    # The binary: on PATH, its libraries found without the toolchain, and saying what it is.
    [ "$(command -v dawnlet-remind)" = /usr/bin/dawnlet-remind ] || fail "dawnlet-remind is not /usr/bin/dawnlet-remind"
    ! ldd /usr/bin/dawnlet-remind | grep -q 'not found' || fail "a library is missing: $(ldd /usr/bin/dawnlet-remind | grep 'not found')"
    local said
    said=$(dawnlet-remind --version)
    [[ $said =~ ^dawnlet-remind\ $version\ \(commit\ [0-9a-f]{7,}(-dirty)?\)$ ]] || fail "--version says: $said"
    pass "--version: $said"

    # A config routing every reminder to a command that appends its title to a file.
    cat > "$XDG_CONFIG_HOME/dawnlet/config.json5" <<EOF
{
  route: { default: ["command"] },
  channels: { command: { argv: ["/bin/sh", "-c", "printf '%s\\\\n' \"\$1\" >> $dir/delivered", "sh", "{title}"] } },
}
EOF
    # Due a minute ago, made three minutes ago (the database's first command: a reminder due before
    # the database began is never rung): inside the grace window, so the service delivers it (late)
    # as it starts.
    dawnlet-remind --now "$(date -d '-3 min' +%Y-%m-%dT%H:%M:%S)" todo add "Stretch" --due "$(date -d '-1 min' +%Y-%m-%dT%H:%M)" > /dev/null
    dawnlet-remind todo add "Water the plants" --due 2026-12-10T09:00 > /dev/null
    dawnlet-remind preview --from 2026-12-10 --to 2026-12-10 | grep -q 'Water the plants  → command' ||
        fail "preview: $(dawnlet-remind preview --from 2026-12-10 --to 2026-12-10)"
    dawnlet-remind doctor > "$dir/doctor" || { cat "$dir/doctor"; fail "doctor"; }
    grep -q "^ok   database: $XDG_DATA_HOME/dawnlet/dawnlet.sqlite" "$dir/doctor" || { cat "$dir/doctor"; fail "doctor: no database line"; }
    pass "a todo added, preview routes it to the command channel, doctor passes"

    # Manual pages from /usr/share/man, rendered without a warning, headed with the version.
    [ "$(man -w dawnlet-remind)" = /usr/share/man/man1/dawnlet-remind.1.gz ] || fail "man -w dawnlet-remind: $(man -w dawnlet-remind)"
    [ "$(man -w 5 dawnlet-remind.json5)" = /usr/share/man/man5/dawnlet-remind.json5.5.gz ] || fail "man -w 5 dawnlet-remind.json5"
    local warnings
    warnings=$(MANWIDTH=80 man --warnings=w dawnlet-remind 2>&1 > "$dir/man.txt")
    [ -z "$warnings" ] || fail "man dawnlet-remind warns: $warnings"
    grep -q "dawnlet-remind $version" "$dir/man.txt" || fail "man dawnlet-remind does not name version $version"
    pass "man dawnlet-remind and man 5 dawnlet-remind.json5 from /usr/share/man"

    # Completions where each shell looks for a vendor's, loaded by the shell itself.
    bash -c 'source /usr/share/bash-completion/bash_completion && __load_completion dawnlet-remind && complete -p dawnlet-remind' |
        grep -q '^complete -F _dawnlet_remind dawnlet-remind$' || fail "bash does not load the completion"
    fish -c 'complete -C "dawnlet-remind to"' | grep -q '^todo' || fail "fish does not complete dawnlet-remind"
    [ "$(zsh -fc 'autoload -Uz compinit && compinit -u -d "$HOME/zcompdump" && print -r -- $_comps[dawnlet-remind] ${^fpath}/_dawnlet-remind(N)')" = \
        "_dawnlet-remind /usr/share/zsh/vendor-completions/_dawnlet-remind" ] || fail "zsh does not find the completion"
    pass "completions loaded by bash-completion, fish and zsh from the vendor folders"

    systemd-analyze --user --man=no verify /usr/lib/systemd/user/$unit || fail "systemd-analyze verify"
    grep -qx 'ExecStart=/usr/bin/dawnlet-remind serve' /usr/lib/systemd/user/$unit || fail "the unit does not run /usr/bin/dawnlet-remind"
    pass "the unit names /usr/bin/dawnlet-remind and passes systemd-analyze verify"

    # The user manager, in a cgroup of ours: when it exits it stops what is in its cgroup, and that
    # must be only what this test started.
    for h in systemd unified; do
        mkdir -p "/sys/fs/cgroup/$h/$(group_of "$dir")" 2>/dev/null &&
            echo $$ > "/sys/fs/cgroup/$h/$(group_of "$dir")/cgroup.procs" 2>/dev/null || true
    done
    /lib/systemd/systemd-journald > "$dir/journald.log" 2>&1 &
    wait_for 10 '[ -S /run/systemd/journal/socket ]' || fail "journald did not start"
    /lib/systemd/systemd --user > "$dir/systemd.log" 2>&1 &
    wait_for 10 '[ -S /run/user/0/systemd/private ]' || fail "systemd --user did not start: $(cat "$dir/systemd.log")"
    # A second user's manager (nobody's, in a cgroup of its own it may write), whose runner the
    # package must restart and stop as that user.
    mkdir -m 0700 /run/user/$other_uid "$dir/other" && chown $other_uid:$other_uid /run/user/$other_uid "$dir/other"
    for h in systemd unified; do
        mkdir -p "/sys/fs/cgroup/$h/$(group_of "$dir")-other" 2>/dev/null &&
            chown -R $other_uid:$other_uid "/sys/fs/cgroup/$h/$(group_of "$dir")-other" || true
    done
    (
        for h in systemd unified; do echo $BASHPID > "/sys/fs/cgroup/$h/$(group_of "$dir")-other/cgroup.procs" 2>/dev/null || true; done
        exec setpriv --reuid=$other_uid --regid=$other_uid --clear-groups env -u XDG_CONFIG_HOME -u XDG_DATA_HOME HOME="$dir/other" XDG_RUNTIME_DIR=/run/user/$other_uid \
            /lib/systemd/systemd --user > "$dir/systemd-other.log" 2>&1
    ) &
    wait_for 10 "[ -S /run/user/$other_uid/systemd/private ]" || fail "the second user's systemd --user did not start: $(cat "$dir/systemd-other.log")"
    as_other systemctl --user start $unit || fail "the second user's runner did not start"
    local other1
    other1=$(as_other systemctl --user show -p MainPID --value $unit)

    systemctl --user enable --now $unit 2> "$dir/enable.log" || { cat "$dir/enable.log"; fail "systemctl --user enable --now"; }
    wait_for 30 "grep -qx Stretch '$dir/delivered' 2>/dev/null" || { journal "$dir"; fail "no reminder delivered by the installed service"; }
    local pid1
    pid1=$(systemctl --user show -p MainPID --value $unit)
    [ "$(stat -L -c %i /proc/"$pid1"/exe)" = "$(stat -c %i /usr/bin/dawnlet-remind)" ] || fail "the service does not run /usr/bin/dawnlet-remind"
    dawnlet-remind doctor | grep -q '^ok   service' || fail "doctor: $(dawnlet-remind doctor | grep service)"
    pass "systemctl --user enable --now: the installed runner (pid $pid1) delivered a reminder; doctor sees it"

    # An upgrade over itself while the runner runs: restarted onto the new binary, the user's items
    # and config as they were. (The runner writes its own bookkeeping as it starts: the next
    # upgrade, with the runner stopped, checks the files byte for byte.)
    local db=$XDG_DATA_HOME/dawnlet/dawnlet.sqlite config=$XDG_CONFIG_HOME/dawnlet/config.json5 before after inode1 pid2 items
    items=$(dawnlet-remind todo list --json)
    before=$(sha256sum "$config")
    inode1=$(stat -c %i /usr/bin/dawnlet-remind)
    dpkg -i "$deb" > "$dir/dpkg-upgrade.log" 2>&1 || { cat "$dir/dpkg-upgrade.log"; fail "dpkg -i over the installed package"; }
    [ "$(stat -c %i /usr/bin/dawnlet-remind)" != "$inode1" ] || fail "dpkg did not replace the binary"
    pid2=$(systemctl --user show -p MainPID --value $unit)
    [ "$(systemctl --user is-active $unit)" = active ] || fail "the service is $(systemctl --user is-active $unit) after the upgrade"
    [ "$pid2" != "$pid1" ] || fail "the runner was not restarted by the upgrade (still pid $pid1)"
    [ "$(stat -L -c %i /proc/"$pid2"/exe)" = "$(stat -c %i /usr/bin/dawnlet-remind)" ] || fail "the restarted runner does not run the new binary"
    [ "$(dawnlet-remind todo list --json)" = "$items" ] && [ "$(sha256sum "$config")" = "$before" ] ||
        fail "the upgrade changed the user's todos or config"
    local other2
    other2=$(as_other systemctl --user show -p MainPID --value $unit)
    [ "$other2" != 0 ] && [ "$other2" != "$other1" ] || fail "the second user's runner was not restarted (pid $other1, then $other2)"
    [ "$(stat -c %u /proc/"$other2")" = $other_uid ] || fail "the second user's runner does not run as that user"
    dawnlet-remind --now "$(date -d '-3 min' +%Y-%m-%dT%H:%M:%S)" todo add "After the upgrade" --due "$(date -d '-1 min' +%Y-%m-%dT%H:%M)" > /dev/null
    wait_for 30 "grep -qx 'After the upgrade' '$dir/delivered'" || { journal "$dir"; fail "no reminder delivered after the upgrade"; }
    pass "upgrade: the runner restarted onto the new binary (pid $pid1 -> $pid2) and delivering, the second user's too ($other1 -> $other2); todos and config as they were"

    # An upgrade with the runner stopped by its user: not started, the database and config byte-identical.
    systemctl --user stop $unit
    before=$(sha256sum "$db" "$config")
    dpkg -i "$deb" > "$dir/dpkg-upgrade.log" 2>&1 || { cat "$dir/dpkg-upgrade.log"; fail "dpkg -i over the installed package"; }
    after=$(sha256sum "$db" "$config")
    [ "$before" = "$after" ] || fail "the upgrade changed the user's data: $before / $after"
    [ "$(systemctl --user is-active $unit)" = inactive ] || fail "the upgrade started a runner its user had stopped"
    pass "upgrade with the runner stopped: it stays stopped; database and config byte-identical"
    systemctl --user start $unit
    [ "$(systemctl --user is-active $unit)" = active ] || fail "the service did not start again"

    # Removal: the runner stopped, the unit gone from the manager, every file gone, the data kept.
    dpkg -r "$pkg" > "$dir/dpkg-remove.log" 2>&1 || { cat "$dir/dpkg-remove.log"; fail "dpkg -r"; }
    [ "$(systemctl --user show -p LoadState --value $unit)" = not-found ] || fail "the user manager still has the unit after dpkg -r"
    [ "$(systemctl --user show -p MainPID --value $unit)" = 0 ] || fail "the runner still runs after dpkg -r"
    [ "$(as_other systemctl --user show -p MainPID --value $unit)" = 0 ] &&
        [ "$(as_other systemctl --user show -p LoadState --value $unit)" = not-found ] || fail "the second user's runner outlived dpkg -r"
    local left
    left=$(while read -r path; do [ -e "$path" ] && [ ! -d "$path" ] && echo "$path"; done < "$dir/files" || true)
    [ -z "$left" ] || fail "dpkg -r left: $left"
    [ ! -e /usr/share/doc/$pkg ] || fail "dpkg -r left /usr/share/doc/$pkg"
    [ -s "$db" ] && [ "$(sha256sum "$config")" = "$(grep " $config\$" <<< "$after")" ] || fail "dpkg -r removed or changed the user's data"
    pass "dpkg -r: both users' runners stopped, every installed file gone, the database and config kept"
}

# Prints the namespace's journal and the user manager's log (on a failure).
journal() {
    journalctl -D /run/log/journal --no-pager -o cat _COMM=dawnlet-remind + _COMM=systemd 2>/dev/null | tail -40 || true
    cat "$1/delivered" 2>/dev/null || true
    tail -20 "$1/systemd.log" || true
}

teardown() {
    local dir=$1
    [ -S /run/user/$other_uid/systemd/private ] && { as_other systemctl --user exit 2>/dev/null || true; }
    systemctl --user exit 2>/dev/null || true
    wait_for 10 '! [ -S /run/user/0/systemd/private ]' || true
    kill $(jobs -p) 2>/dev/null || true
    wait 2>/dev/null || true
    clean_group "$dir"
}

# The cgroup the test's user manager runs in, named after the scratch folder (the second user's is
# GROUP-other).
group_of() { echo "dawnlet-package-test-$(basename "$1")"; }

# The second user (nobody), with a home in the scratch folder.
other_uid=65534
as_other() { setpriv --reuid=$other_uid --regid=$other_uid --clear-groups env -u XDG_CONFIG_HOME -u XDG_DATA_HOME HOME="$dir/other" XDG_RUNTIME_DIR=/run/user/$other_uid "$@"; }

# Moves this shell out of the test's cgroup, kills what is left in it, and removes it (innermost first).
clean_group() {
    local h group
    for group in /sys/fs/cgroup/{systemd,unified}/"$(group_of "$1")"{,-other}; do
        h=$(basename "$(dirname "$group")")
        [ -d "$group" ] || continue
        echo $$ > "/sys/fs/cgroup/$h/cgroup.procs" 2>/dev/null || true
        find "$group" -name cgroup.procs -exec cat {} + 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        wait_for 5 "[ -z \"\$(find '$group' -name cgroup.procs -exec cat {} + 2>/dev/null)\" ]" || true
        find "$group" -depth -type d -exec rmdir {} + 2>/dev/null || true
    done
}

if [ "${1:-}" = --inside ]; then
    shift
    inside "$@"
    exit 0
fi

deb=${1:?usage: scripts/test-package.sh DEB}
[ "$(id -u)" = 0 ] || fail "run as root: it installs and removes the package"
for tool in lintian dpkg dpkg-deb unshare systemd-analyze man fish zsh timeout; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run make deps"
done
[ -f /usr/share/bash-completion/bash_completion ] || fail "bash-completion is missing: run make deps"
[ -x /lib/systemd/systemd ] && [ -x /lib/systemd/systemd-journald ] || fail "systemd is missing: run make deps"
! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'installed$' ||
    fail "$pkg is installed on this machine: the test installs and removes it; remove it first (dpkg -r $pkg)"

lintian_out=$(lintian --fail-on error,warning --tag-display-limit 0 "$deb" 2> >(grep -v 'root privileges' >&2)) && lintian_rc=0 || lintian_rc=$?
[ -z "$lintian_out" ] || echo "$lintian_out"
if [ "$lintian_rc" != 0 ] || grep -q '^[EW]: ' <<< "$lintian_out"; then fail "lintian found errors or warnings"; fi
pass "lintian: no error, no warning"

version=$(dpkg-deb -f "$deb" Version)
scratch=$(mktemp -d)
chmod 0755 "$scratch"
cleanup() {
    # What a step killed by the timeout left running, then the package.
    clean_group "$scratch"
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'installed$\|config-files$'; then
        dpkg --purge "$pkg" > /dev/null 2>&1 || echo "test-package: could not purge $pkg" >&2
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT
timeout --kill-after=10 240 unshare -m --propagation private "$0" --inside "$(realpath "$deb")" "$scratch" "$version" ||
    fail "the installed package (see above)"
echo "test-package: $(basename "$deb") passed: lintian, installed, run without the toolchain, upgraded, removed"
