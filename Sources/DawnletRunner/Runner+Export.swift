import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

/// `export: { to }` in the config: `serve` keeps our todos' and events' files in that folder
/// (docs/calendars.md). After each decision the store's changes since the last look name the
/// items to write again; a change in the folder to one of our files names the item to read back.
/// Either is done 100 ms after the last of a burst (`exportSettle`), by `CalendarSync`.
extension Runner {
    /// The folder, expanded; nil when the config names none, or names a calendar it marks
    /// read-only (the config's own check compares the paths as written, this one expanded).
    var exportFolder: String? {
        guard let to = settings.config.exportTo, ConfigPath.readOnlyCalendar(at: to, in: settings.config.calendars) == nil else { return nil }
        return ConfigPath.expand(to)
    }

    /// At start, before the first plan (so that nothing answered elsewhere while this runner was
    /// off goes out), and when a reload names another folder, before its plan: every item read
    /// back and written, once; then the folder watched.
    func beginExport() {
        exportWatch = nil
        exportSource?.cancel()
        exportSource = nil
        guard let folder = exportFolder else {
            if let to = settings.config.exportTo {
                log(LogEntry("export: \(to) is a calendar marked readOnly in the config: nothing is exported", priority: 3))
            }
            return
        }
        exportPosition = (try? store.changePosition()) ?? 0
        exportPending = nil
        exportNamespace = try? store.log.exportNamespace()
        // A folder not there is made anew: every file written into it, none taken as deleted.
        exportFresh = !FileManager.default.fileExists(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let watch = try FolderWatch(folder)
            exportWatch = watch
            exportSource = try loop.watch(watch.fd, events: EventLoop.readable, priority: .last) { [unowned self] _ in
                let changes = watch.changes()
                if changes.gone {
                    // Nothing is written until it is there again; then every file is.
                    self.log(LogEntry("export: \(folder) was removed; nothing is exported until it is there again", priority: 4))
                    self.exportPending = nil
                    return
                }
                if changes.everything {
                    self.log(LogEntry("export: \(folder) is there again: every file read back and written"))
                    self.exportPending = nil
                    self.exportFresh = true
                } else {
                    // Our own files only: another program's are a calendar's, if any.
                    let items = changes.names.compactMap { self.exportedItem($0) }
                    guard !items.isEmpty else { return }
                    self.exportPending?.formUnion(items)
                }
                self.send(.written(.export))
            }
        } catch {
            log(LogEntry("export: cannot watch \(folder): \(error); what other devices write is read at the next change here", priority: 4))
        }
        _ = syncExport()
    }

    /// The item one of our files (`dawnlet-NAMESPACE-todo-3.ics`) is of; nil for another's file.
    func exportedItem(_ name: String) -> PlanChanges.Item? {
        guard let namespace = exportNamespace else { return nil }
        // A checklist entry's file is its todo's.
        if let entry = CalendarSync.checklistEntry(ofFile: name, namespace: namespace) { return PlanChanges.Item(kind: .todo, id: entry.todo) }
        guard let item = CalendarSync.item(ofFile: name, namespace: namespace) else { return nil }
        return PlanChanges.Item(kind: item.kind.reminderKind, id: item.id)
    }

    /// After a decision: the todos and events the store changed since the last look are written
    /// again, once the changes settle.
    func exportChanges() {
        guard exportFolder != nil, let changes = try? store.changes(after: exportPosition) else { return }
        exportPosition = changes.position
        let items = changes.sources.filter { $0.kind == .todo || $0.kind == .event }
        if changes.wholePlan { exportPending = nil } else if items.isEmpty { return } else { exportPending?.formUnion(items) }
        send(.written(.export))
    }

    /// The pending items (or every one) read back and written; what other devices did, logged.
    /// Whether that changed the store (the core then plans again), and whether a file failed
    /// (the core tries again after a while).
    func syncExport() -> (storeChanged: Bool, failed: Bool) {
        guard let folder = exportFolder else { return (false, false) }
        // Away: what changes meanwhile is written whole when it is back.
        guard exportWatch?.isPresent != false else {
            exportPending = nil
            return (false, false)
        }
        let only = exportPending
        exportPending = []
        do {
            let report = try CalendarSync(store: store, config: settings.config, zone: settings.zone, zones: settings.zones)
                .run(folder: folder, kinds: [.todo, .event], only: only, now: scheduler.now, fresh: exportFresh)
            exportFresh = false
            for line in report.applied { log(LogEntry(line)) }
            for line in report.held { log(LogEntry("export: \(line)", priority: 4)) }
            for line in report.failures { log(LogEntry("export: \(line); tried again shortly", priority: 4)) }
            // Said once: what is not ours stays so until it changes, which names the item again.
            for (path, line) in report.leftAlone.sorted(by: { $0.key < $1.key }) where exportLeftAlone[path] != line {
                log(LogEntry("export: \(line)", priority: 4))
            }
            if only == nil { exportLeftAlone = report.leftAlone } else { exportLeftAlone.merge(report.leftAlone) { $1 } }
            // The files that failed are tried again by themselves.
            exportPending?.formUnion(report.failedItems)
            if report.written + report.removed > 0 {
                log(LogEntry("exported to \(folder): \(report.written) written, \(report.removed) removed"))
            }
            return (report.storeChanged, !report.failures.isEmpty)
        } catch {
            // Tried again shortly.
            if let only { exportPending?.formUnion(only) } else { exportPending = nil }
            log(LogEntry("export to \(folder) failed: \(error)", priority: 4))
            return (false, true)
        }
    }
}
