# dawnlet-remind — `make run` (the main job) and `make test` (the whole suite) each do their own
# set-up on a fresh Debian 12 machine with the Swift toolchain: both depend on `make deps`.
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= $(HOME)/.local

# Build: the four C libraries. Tests: a C compiler (the bench's recorder), a private bus, a notification server under Xvfb, a
# sendmail client, libfaketime, strace (a tracer logging into the folder serve watches), Python's venv for the PyPI tools, imagemagick for screenshots,
# openssl for a test certificate, tzdata (the zone files the TZif reader is tested on, against Python);
# the other notification servers and their Do Not Disturb: mako and swaync under a headless sway (wtype, a virtual keyboard
# there, presses swaync's buttons from its control center), xfce4-notifyd with xfconf,
# dconf (GNOME's setting) with python3-gi for a stand-in of GNOME's notification service.
DEB_BUILD := libsystemd-dev libsqlite3-dev libcurl4-openssl-dev libical-dev pkg-config
# GNOME Shell headless (its notification service and screen lock, driven over org.gnome.Shell.Eval),
# and python3-dbus with python3-gi for the tests' hands on it and the stand-in display manager;
# dconf-gsettings-backend for GNOME Shell reading its settings (show-banners) from dconf.
DEB_TEST_GNOME := gnome-shell gjs python3-dbus python3-gi dconf-gsettings-backend
DEB_TEST := gcc dbus dunst xvfb libnotify-bin msmtp faketime strace python3-venv imagemagick systemd openssl tzdata fish zsh groff man-db \
	notification-daemon xdotool taskwarrior calcurse khal $(DEB_TEST_GNOME) \
	sway mako-notifier sway-notification-center xfce4-notifyd xfconf dconf-cli dconf-service wtype
# The Debian package: dpkg-shlibdeps (dpkg-dev) for its Depends, lintian to check it; bash-completion to
# load its bash completion as installed.
DEB_PACKAGE := dpkg-dev lintian bash-completion
# Bench: Remind, the program the plan figures are paired with, and GNU time for peak memory.
DEB_BENCH := remind time
# The calendar oracles: python-dateutil for RRULEs, recurring-ical-events on icalendar for whole
# files; Radicale and Xandikos (two CalDAV servers) and vdirsyncer for the two-home tests.
PYPI_TEST := aiosmtpd python-dateutil icalendar recurring-ical-events radicale xandikos vdirsyncer json5
VENV := .build/venv
# Release binaries carry the Swift runtime and Foundation inside: no dynamic symbol resolution at
# start (a command starts in ~12 ms instead of ~20 ms) and nothing to break when the toolchain moves.
RELEASE_FLAGS := --static-swift-stdlib
# Release builds say in `--version` the commit they were built from (`-dirty` when the tree had
# changes); a build without it (a plain `swift build`) says the commit is unknown.
COMMIT := $(shell git describe --always --dirty --exclude='*' 2>/dev/null)
ifneq ($(COMMIT),)
RELEASE_FLAGS += -Xcc -DDAWNLET_COMMIT='"$(COMMIT)"'
endif
# In CI a warning in Sources is an error (the tests are built without it).
ifeq ($(CI),true)
RELEASE_FLAGS += -Xswiftc -warnings-as-errors
endif
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# `make run` is the runner in the foreground on the default database and config (Ctrl-C stops it).
RUN_ARGS ?= serve

UNITDIR ?= $(HOME)/.config/systemd/user
# Where `make deb` writes the Debian package.
DEBDIR := .build/deb
# Where each shell looks for a user's completions (XDG), and the man pages under PREFIX.
XDG_DATA_HOME ?= $(HOME)/.local/share
XDG_CONFIG_HOME ?= $(HOME)/.config
BASHCOMPDIR ?= $(XDG_DATA_HOME)/bash-completion/completions
FISHCOMPDIR ?= $(XDG_CONFIG_HOME)/fish/completions
ZSHCOMPDIR ?= $(XDG_DATA_HOME)/zsh/site-functions
MANDIR ?= $(PREFIX)/share/man

.PHONY: deps run test test-package bench build install deb clean format

deps:
	@missing=$$(for p in $(DEB_BUILD) $(DEB_TEST) $(DEB_PACKAGE) $(DEB_BENCH); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "make deps: installing Debian packages:" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@if ! $(VENV)/bin/python -c 'import aiosmtpd, dateutil, icalendar, recurring_ical_events, radicale, xandikos, vdirsyncer, json5' 2>/dev/null; then \
	    echo "make deps: creating $(VENV) with $(PYPI_TEST)"; \
	    python3 -m venv $(VENV) && $(VENV)/bin/pip install --quiet $(PYPI_TEST); \
	fi

build: deps
	$(SWIFT) build

run: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dawnlet-remind
	.build/release/dawnlet-remind $(RUN_ARGS)

# Builds everything (the binary the CLI tests run, and the tests), runs the Swift Testing suites,
# then checks the statically linked release binary takes its zones from the system's tzdata: the
# gap of Berlin's spring forward from /usr/share/zoneinfo, and a Berlin without DST compiled by zic
# into a TZDIR of its own.
test: deps
	@# The tree as the checked-in .swift-format writes it (`swift format -i -r Sources Tests Package.swift`).
	$(SWIFT) format lint --strict -r Sources Tests Package.swift
	@# One path for C calls: no loaded library's function unwrapped at a call site, no EINTR loop of its own.
	@if grep -rnE '\.(sd|ical)[a-z_]+!\(' Sources; then echo "a libsystemd or libical call unwrapped at its call site: the tables are non-null"; exit 1; fi
	@if grep -rn 'errno == EINTR' Sources/DawnletCore Sources/DawnletStore Sources/DawnletSystem Sources/DawnletApp Sources/DawnletRunner Sources/DawnletCLI; then \
	    echo "an EINTR loop of its own: use CCall.posix"; exit 1; fi
	@# libsystemd only through Systemd.call/make; Systemd.unchecked only for teardown and accessors.
	@if grep -rnE 'Systemd\.f\b' Sources; then echo "libsystemd's table used directly: use Systemd.call or Systemd.make"; exit 1; fi
	@if grep -rnoE 'Systemd\.unchecked[ (]*\{ *\$$0\.sd_[a-z_]+' Sources | \
	    grep -vE '(_unref|_free|_get_[a-z_]+|_is_method_error|sd_event_exit|sd_notify|sd_event_source_set_(enabled|floating))$$'; then \
	    echo "Systemd.unchecked around a call whose failure matters: use Systemd.call or Systemd.make"; exit 1; fi
	@# libcurl through its C-typed table: no hand-typed function pointers, every result code read by Curl.check.
	@if grep -rn 'unsafeBitCast' Sources; then echo "unsafeBitCast: type a loaded library's functions in its shim.h table"; exit 1; fi
	@if grep -rnE 'CURL(E|M|UE)_OK *[!=]=|[!=]= *CURL(E|M|UE)_OK' Sources; then echo "a libcurl result code compared by hand: use Curl.call or Curl.check"; exit 1; fi
	@if grep -rnE '\bf\.pointee\.curl_[a-z_]+\(' Sources | grep -v 'CCall\.nonNull' | \
	    grep -vE 'curl_(easy_cleanup|slist_free_all|url_cleanup|free|multi_cleanup|multi_info_read)\('; then \
	    echo "a libcurl call outside Curl.call: a call whose result is checked goes through it"; exit 1; fi
	@# SQLite's fallible calls through CCall.resultCode; the store's and the system layer's file checks through CCall.posix
	@# (Watches.swift, RegularFile.swift and ZoneDatabase.swift still make some of theirs directly).
	@if grep -rnE 'sqlite3_(open_v2|exec|prepare_v2|step|bind_[a-z0-9]+)\(' Sources | grep -v 'CCall\.resultCode'; then \
	    echo "an SQLite call outside CCall.resultCode"; exit 1; fi
	@if grep -rnE '(^|[^.[:alnum:]_])(l?stat|fstat|access|mkstemp|fcntl|posix_spawnp|fopen|flock|openat|renameat|inotify_add_watch)\([^)]' Sources/DawnletStore Sources/DawnletSystem \
	    | grep -v 'CCall\.\|SystemError\.posix'; then \
	    echo "a kernel call whose failure is handled, outside CCall.posix"; exit 1; fi
	@# docs/ARCHITECTURE.md names only files, types and members that exist.
	python3 scripts/check-architecture.py docs/ARCHITECTURE.md
	$(SWIFT) build --build-tests
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(SWIFT) test --skip-build --disable-xctest
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dawnlet-remind
	@out=$$(.build/release/dawnlet-remind occurrences --schedule 'daily at 02:30' --from 2026-03-29 --to 2026-03-29 --tz Europe/Berlin --json); \
	if [ "$$out" != '{"occurrences":["2026-03-29"],"instants":["2026-03-29T03:30:00+02:00"]}' ]; then \
	    echo "release binary: wrong zone answer: $$out"; exit 1; fi; \
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && echo 'Zone Europe/Berlin 1:00 - CET' > $$scratch/berlin.zi && \
	/usr/sbin/zic -d $$scratch/zoneinfo $$scratch/berlin.zi && \
	out=$$(TZDIR=$$scratch/zoneinfo .build/release/dawnlet-remind occurrences --schedule 'daily at 12:00' --from 2027-07-01 --to 2027-07-01 --tz Europe/Berlin --json); \
	if [ "$$out" = '{"occurrences":["2027-07-01"],"instants":["2027-07-01T12:00:00+01:00"]}' ]; then \
	    echo "release binary: time zones from the system's tzdata, and from TZDIR"; else echo "release binary: TZDIR not followed: $$out"; exit 1; fi
	@# `make install` into a scratch prefix: the unit must name the installed binary and pass systemd's check.
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
	$(MAKE) -s install PREFIX=$$scratch/prefix UNITDIR=$$scratch/units XDG_DATA_HOME=$$scratch/data XDG_CONFIG_HOME=$$scratch/config >/dev/null && \
	grep -qx "ExecStart=$$scratch/prefix/bin/dawnlet-remind serve" $$scratch/units/dawnlet-remind.service && \
	grep -q "complete -F _dawnlet_remind dawnlet-remind" $$scratch/data/bash-completion/completions/dawnlet-remind && \
	grep -q "complete -c dawnlet-remind" $$scratch/config/fish/completions/dawnlet-remind.fish && \
	grep -q "^#compdef dawnlet-remind" $$scratch/data/zsh/site-functions/_dawnlet-remind && \
	MANPATH=$$scratch/prefix/share/man man -w dawnlet-remind.json5 >/dev/null && \
	test -z "$$(MANPATH=$$scratch/prefix/share/man MANWIDTH=80 man --warnings=w dawnlet-remind 2>&1 >/dev/null)" && \
	$$scratch/prefix/bin/dawnlet-remind --db $$scratch/d.sqlite todo add "Check the install" >/dev/null && \
	$$scratch/prefix/bin/dawnlet-remind --db $$scratch/d.sqlite today --date 2026-12-01 >/dev/null && \
	XDG_RUNTIME_DIR=$$scratch systemd-analyze --user --man=no verify $$scratch/units/dawnlet-remind.service && \
	echo "make install: binary, unit, man pages and completions installed and verified"
	$(MAKE) --no-print-directory test-package

# The Debian package tested as installed (scripts/test-package.sh): lintian, dpkg -i, the binary, man
# pages, completions and the user unit without the toolchain, an upgrade over itself, dpkg -r.
test-package: deb
	$(SUDO) scripts/test-package.sh $(DEBDIR)/dawnlet-remind_*_amd64.deb

# Release build of everything: the benchmarks time the real binary as separate processes.
bench: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)
	.build/release/dawnlet-bench

# The release binary to $(PREFIX)/bin (default ~/.local/bin) and the user unit, pointed at it.
install: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dawnlet-remind
	install -d -m 0755 $(PREFIX)/bin $(UNITDIR)
	install -m 0755 .build/release/dawnlet-remind $(PREFIX)/bin/dawnlet-remind
	sed 's|@BINDIR@|$(PREFIX)/bin|' systemd/dawnlet-remind.service > $(UNITDIR)/dawnlet-remind.service
	chmod 0644 $(UNITDIR)/dawnlet-remind.service
	install -d -m 0755 $(BASHCOMPDIR) $(FISHCOMPDIR) $(ZSHCOMPDIR)
	.build/release/dawnlet-remind completions bash > $(BASHCOMPDIR)/dawnlet-remind
	.build/release/dawnlet-remind completions fish > $(FISHCOMPDIR)/dawnlet-remind.fish
	.build/release/dawnlet-remind completions zsh > $(ZSHCOMPDIR)/_dawnlet-remind
	install -d -m 0755 $(MANDIR)/man1 $(MANDIR)/man5
	.build/release/dawnlet-remind man-page 1 > $(MANDIR)/man1/dawnlet-remind.1
	.build/release/dawnlet-remind man-page 5 > $(MANDIR)/man5/dawnlet-remind.json5.5
	@echo "installed $(PREFIX)/bin/dawnlet-remind, $(UNITDIR)/dawnlet-remind.service, the man pages dawnlet-remind(1) and dawnlet-remind.json5(5) in $(MANDIR), and completions for bash, fish and zsh"
	@echo "(zsh: add $(ZSHCOMPDIR) to fpath before compinit)"
	@echo "enable it with: systemctl --user daemon-reload && systemctl --user enable --now dawnlet-remind.service"

# The Debian package, from the release binary and packaging/debian/ (scripts/build-deb.sh):
# $(DEBDIR)/dawnlet-remind_VERSION_amd64.deb, VERSION being the binary's own.
deb: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product dawnlet-remind
	scripts/build-deb.sh .build/release/dawnlet-remind $(DEBDIR)

# Formats the tree as .swift-format says; `make test` checks it is.
format:
	$(SWIFT) format -i -r Sources Tests Package.swift

clean:
	rm -rf .build
