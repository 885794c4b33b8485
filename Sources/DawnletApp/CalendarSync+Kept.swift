import DawnletCore
import DawnletStore
import DawnletSystem
import Glibc

/// A pass that leaves alone, unread, the files that cannot have changed: one whose item has not
/// been written since its file was last found the same as ours, whose text would be made from
/// the same things (this binary, the pass's zone, the kinds' default reminders), and which is
/// the same file it was then (device, inode, size, change and modification times). The rest are
/// read and compared as ever (`sync`), and noted again when found the same.
extension CalendarSync {
    /// What an item's text is made from beside the item itself, the same for every item of a pass.
    func keptContext() -> String {
        let defaults = [ItemKind.todo, .event].map { kind in (config.reminders[kind.reminderKind] ?? []).map(\.description).joined(separator: ",") }
        return "\(FileStamp.text(of: "/proc/self/exe")) \(zone.identifier) \(defaults.joined(separator: ";"))"
    }

    /// The file at `path` as `lstat` finds it (not a link followed): `device:inode:size:mtime:ctime`
    /// in nanoseconds. Nil when it is not a regular file, or changed so lately that another change
    /// in the same tick of the clock file times are taken from would leave every one of these the
    /// same (git's "racy" entries, met the same way): such a file is read at the next pass.
    static func settledStamp(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        guard Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - max(changed, modified) > 50_000_000 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified):\(changed)"
    }
}
