import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

/// What the runner watches, each turned into an event: the database's folder, the calendars'
/// folders, the zone's files, the clock being set, and the config read again on SIGHUP. A burst
/// of writes is waited out (a settle timer re-armed by each) before anything is read.
extension Runner {
    /// inotify on the database's folder: a write by the CLI (to the database or its WAL) wakes the
    /// loop; changes are gathered for 100 ms (a second at most), then checked against
    /// `PRAGMA data_version`. Only the store's own files count: the database, its WAL, a rollback
    /// journal, the lock file. Another program's file in the folder, however busy, is dropped
    /// here by its name, before anything is read, armed or logged.
    func watchDatabaseFolder() throws {
        let (folder, name) = FolderWatch.parts(of: settings.databasePath)
        let ours: Set<String> = [name, name + "-wal", name + "-journal", name + ".lock"]
        let watch = try FolderWatch(folder)
        watches.append(watch)
        try loop.onReadable(watch.fd, priority: .last) { [unowned self] in
            let changes = watch.changes()
            // The folder removed too: the database is then found lost, and the runner stops.
            guard changes.everything || changes.gone || !changes.names.isDisjoint(with: ours) else { return }
            // A command wrote (`todo add`, an answer): mako's Do Not Disturb, which has no signal, is asked again.
            (self.channels as? LoopChannels)?.askDoNotDisturbAgain()
            self.send(.written(.database))
        }
    }

    /// SIGHUP (`systemctl --user reload`): the config read again. A config that cannot be used is
    /// logged with its error and the one in use is kept; a good one replaces it, calendars and
    /// zone included.
    func reloadConfig() {
        guard let reload = settings.reload else { return }
        let configStamp = settings.configPath.map { FileStamp.text(of: ConfigPath.absolute($0)) }
        do {
            let (config, zone, follows) = try reload()
            if let path = settings.configPath { readStamps[ConfigPath.absolute(path)] = configStamp }
            let calendarsChanged = config.calendars != settings.config.calendars
            // What the files say depends on the zone and the default reminders too.
            let exportChanged =
                config.exportTo != settings.config.exportTo || config.reminders != settings.config.reminders
                || zone.identifier != settings.zone.identifier
            if zone.identifier != settings.zone.identifier {
                log(LogEntry("time zone changed from \(settings.zone.identifier) to \(zone.identifier)"))
            }
            change {
                $0.config = config
                $0.followsSystemZone = follows
                $0.zone = zone
            }
            watchZone()
            if calendarsChanged {
                for source in calendarSources { source.cancel() }
                calendarSources = []
                calendarWatches = []
                watchCalendars()
            }
            if exportChanged { beginExport() }
            log(LogEntry("config read again"))
        } catch {
            log(LogEntry("config not read again: \(error); keeping the one in use", priority: 3))
        }
    }

    /// inotify on each calendar's folder (a vdir, or the folder of one file): a sync tool's
    /// write re-plans after 200 ms of quiet. A vdir removed, made again or made for the first
    /// time re-plans too (`FolderWatch` waits for it in its parent); each plan reports one missing.
    func watchCalendars() {
        for source in settings.config.calendars {
            let path = ConfigPath.expand(source.path)
            var isFolder = false
            // A path not there yet is a vdir to wait for, unless it is named as a file.
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if !exists { isFolder = !path.lowercased().hasSuffix(".ics") }
            let folder = isFolder ? path : FolderWatch.parts(of: path).folder
            let file = isFolder ? nil : FolderWatch.parts(of: path).name
            do {
                let watch = try FolderWatch(folder)
                calendarWatches.append(watch)
                calendarSources.append(
                    try loop.watch(watch.fd, events: EventLoop.readable, priority: .last) { [unowned self] _ in
                        // Our own exported files are the export's to read (and are not planned twice).
                        let changes = watch.changes()
                        let names = changes.names.filter { self.exportedItem($0) == nil }
                        let ours = file.map { names.contains($0) } ?? names.contains { $0.lowercased().hasSuffix(".ics") }
                        guard ours || changes.everything || changes.gone else { return }
                        if changes.gone {
                            let place = "\(DisplayText.escaped(source.name)): \(DisplayText.escaped(folder))"
                            self.log(LogEntry("calendar \(place) was removed; read again when it is there again", priority: 4))
                        }
                        // `next` cannot stamp every file of a folder: the core withdraws the state until
                        // the plan is made again.
                        self.send(.written(.calendars))
                    })
            } catch {
                log(LogEntry("calendar \(source.name): cannot watch \(folder): \(error); changes are seen at the next plan", priority: 4))
            }
        }
    }

    /// The clock being set re-plans at once (the timer's instant may now be past, or far off).
    /// The watch is armed again each time; when that fails, the core tries again (`clockWatchRetry`).
    func watchClock() throws {
        let watch = try ClockChangeWatch()
        clockWatch = watch
        try loop.onReadable(watch.fd) { [unowned self] in
            guard watch.clockWasSet() else { return }
            self.send(.clockSet(rearmFailure: self.rearmClockWatch()))
        }
    }

    /// Arms the clock watch again; why not, if it cannot be.
    func rearmClockWatch() -> String? {
        do {
            try clockWatch?.arm()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The files the zone's rules come from: /etc/localtime (and /etc/timezone) when the zone is
    /// the system's, and the zone's own file (`apt upgrade` of tzdata replaces it). Either changed:
    /// `zoneFilesChanged`, after 200 ms (a package writes several files).
    func watchZone() {
        for source in zoneSources { source.cancel() }
        zoneSources = []
        zoneWatches = []
        var wanted: [String: Set<String>] = [:]
        if settings.followsSystemZone { wanted["/etc", default: []].formUnion(["localtime", "timezone"]) }
        let file = FolderWatch.parts(of: settings.zones.file(of: settings.zone.identifier))
        wanted[file.folder, default: []].insert(file.name)
        for (folder, names) in wanted.sorted(by: { $0.key < $1.key }) {
            do {
                let watch = try FolderWatch(folder)
                zoneWatches.append(watch)
                zoneSources.append(
                    try loop.watch(watch.fd, events: EventLoop.readable, priority: .last) { [unowned self] _ in
                        let changes = watch.changes()
                        guard changes.everything || !changes.names.isDisjoint(with: names) else { return }
                        self.send(.written(.zone))
                    })
            } catch {
                log(LogEntry("cannot watch \(folder) for time zone changes: \(error)", priority: 4))
            }
        }
    }

    /// The zone's files changed: read the zone again (the system's, or the one named) and re-plan
    /// when its name or rules differ. A file that cannot be read keeps the rules in use.
    func zoneFilesChanged() {
        settings.zones.forget()
        let zone: Zone
        do {
            zone =
                settings.followsSystemZone
                ? try settings.zones.systemZone(environment: settings.environment)
                : try settings.zones.zone(named: settings.zone.identifier)
        } catch {
            log(LogEntry("time zone \(settings.zone.identifier) cannot be read again: \(error); keeping the rules in use", priority: 4))
            return
        }
        guard zone != settings.zone else { return }
        log(
            LogEntry(
                zone.identifier == settings.zone.identifier
                    ? "time zone \(zone.identifier): its rules changed on disk"
                    : "time zone changed from \(settings.zone.identifier) to \(zone.identifier)"))
        zoneChanged(to: zone)
    }

    /// Why the database (or the lock that keeps a second runner off it) is no longer this
    /// runner's, or nil: deleted, or replaced by another file (a restore, a move).
    func databaseLost() -> String? {
        guard let opened = databaseIdentity else { return nil }
        switch FileIdentity(path: settings.databasePath) {
        case nil: return "was deleted or moved away"
        case opened?: break
        default: return "was replaced by another file"
        }
        if let lock, !lock.isStillAtPath { return "lost its lock file \(DisplayText.escaped(lock.path))" }
        return nil
    }
}
