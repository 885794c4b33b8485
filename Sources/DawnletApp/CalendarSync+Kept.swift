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

    /// The file at `path` as `lstat` finds it (not a link followed), as text; nil when it is not a
    /// regular file, or changed too lately to be told from a change after it (`FileKey.settled`):
    /// such a file is read at the next pass.
    static func settledStamp(_ path: String) -> String? {
        FileKey(path, links: .refuse).flatMap { $0.settled() ? $0.description : nil }
    }
}
