# in_user_managers ARGS...: runs `systemctl --user ARGS` in each user's running systemd manager, as
# that user, and never fails. A running manager has its private socket in /run/user/UID/systemd/.
# Debian 12's `deb-systemd-invoke --user` reaches user managers only through the system manager's
# user@UID.service units, and restarts an enabled unit that a user stopped: this asks each manager
# that runs, and `try-restart` restarts only what runs.
in_user_managers() {
	command -v systemctl >/dev/null 2>&1 || return 0
	for socket in /run/user/*/systemd/private; do
		[ -S "$socket" ] || continue
		runtime=${socket%/systemd/private}
		uid=$(stat -c %u "$runtime") || continue
		gid=$(stat -c %g "$runtime") || continue
		# Only a folder named after its owner is a user's runtime folder.
		[ "$runtime" = "/run/user/$uid" ] || continue
		timeout 120 setpriv --reuid="$uid" --regid="$gid" --clear-groups \
			env XDG_RUNTIME_DIR="$runtime" systemctl --user "$@" || true
	done
}
