import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletSystem

/// A folder others write into (a sync tool's, a CalDAV server's) as an attacker would leave it:
/// links where our files should be, a hard link at a temporary name, a setuid mode. Nothing
/// outside the folder is read, written or given a mode; our files have our mode.
struct HostileFolderTests {
    let folder: TemporaryFolder
    let shared: String
    /// A private file outside the shared folder, and its bytes.
    let secret: String
    let secretBytes = "PRIVATE KEY 0123456789\n"

    init() throws {
        folder = try TemporaryFolder()
        shared = folder.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        secret = folder.path("secret")
        try secretBytes.write(toFile: secret, atomically: false, encoding: .utf8)
        chmod(secret, 0o600)
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    @Test("a symbolic link named like our file is neither read through nor written through; the file it names keeps its bytes and mode")
    func symbolicLink() throws {
        let ours = "\(shared)/dawnlet-x-todo-1.ics"
        #expect(symlink(secret, ours) == 0)
        #expect(RegularFile.read(ours, limit: 1 << 20) == .failure(.symbolicLink))
        #expect(RegularFile.replace(ours, with: Array("BEGIN:VCALENDAR\r\n".utf8)) == .symbolicLink)
        #expect(RegularFile.remove(ours) == .symbolicLink)
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretBytes)
        #expect(mode(secret) & 0o7777 == 0o600)
        #expect(mode(ours) & S_IFMT == S_IFLNK, "the link is left as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["dawnlet-x-todo-1.ics"], "no temporary file left")
        // A path a person named (the config, a calendar file) is followed.
        #expect(RegularFile.read(ours, limit: 1 << 20, links: .follow) == .success(Array(secretBytes.utf8)))
        // A link to a setuid program: its mode never reaches a file of ours.
        let passwd = "\(shared)/dawnlet-x-todo-2.ics"
        #expect(symlink("/usr/bin/passwd", passwd) == 0)
        #expect(RegularFile.replace(passwd, with: Array("x".utf8)) == .symbolicLink)
        #expect(mode(passwd) & S_IFMT == S_IFLNK)
    }

    @Test("a file with other names (a hard link) is not read or removed as ours; replacing it changes this name only")
    func hardLink() throws {
        let ours = "\(shared)/dawnlet-x-todo-1.ics"
        #expect(link(secret, ours) == 0)
        #expect(RegularFile.read(ours, limit: 1 << 20) == .failure(.hardLinked))
        #expect(RegularFile.remove(ours) == .hardLinked)
        #expect(RegularFile.replace(ours, with: Array("ours".utf8)) == nil)
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretBytes)
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == "ours")
        #expect(mode(ours) & 0o7777 == 0o600)
    }

    @Test("the temporary file is made new (O_EXCL) at a name no file has: a hard link or a symlink planted at any name it once used is not written")
    func plantedTemporary() throws {
        let ours = "\(shared)/dawnlet-x-todo-1.ics"
        // The names a temporary file had before (`.NAME.PID.tmp`): this process's and its neighbours'.
        for pid in (getpid() - 2)...(getpid() + 2) {
            #expect(link(secret, "\(shared)/.dawnlet-x-todo-1.ics.\(pid).tmp") == 0)
        }
        #expect(symlink(secret, "\(shared)/.dawnlet-x-todo-1.ics.tmp") == 0)
        #expect(RegularFile.replace(ours, with: Array("ours".utf8)) == nil)
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretBytes)
        #expect(mode(secret) & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == "ours")
        let names = try FileManager.default.contentsOfDirectory(atPath: shared)
        #expect(names.count == 7, "only ours added: \(names)")
    }

    @Test("the mode is ours: a setuid, executable or world-readable file of our name is replaced by one of 0600, whatever the umask")
    func modeNeverCopied() throws {
        let ours = "\(shared)/dawnlet-x-todo-1.ics"
        try "old".write(toFile: ours, atomically: false, encoding: .utf8)
        #expect(chmod(ours, 0o4755) == 0)
        let old = umask(0)
        defer { umask(old) }
        #expect(RegularFile.replace(ours, with: Array("new".utf8)) == nil)
        #expect(mode(ours) & 0o7777 == 0o600)
        #expect(RegularFile.replace("\(shared)/new.json", with: Array("{}".utf8), mode: 0o600) == nil)
        #expect(mode("\(shared)/new.json") & 0o7777 == 0o600)
    }

    @Test("a folder, a FIFO or a device at our name is not ours: not opened, not replaced, not removed")
    func notRegular() throws {
        let fifo = "\(shared)/dawnlet-x-todo-1.ics"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(RegularFile.read(fifo, limit: 1 << 20) == .failure(.notRegular))
        #expect(RegularFile.replace(fifo, with: Array("x".utf8)) == .notRegular)
        #expect(RegularFile.remove(fifo) == .notRegular)
        let dir = "\(shared)/dawnlet-x-todo-2.ics"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(RegularFile.replace(dir, with: Array("x".utf8)) == .notRegular)
        #expect(mode(fifo) & S_IFMT == S_IFIFO && mode(dir) & S_IFMT == S_IFDIR)
        #expect(RegularFile.remove("\(shared)/none.ics") == nil, "nothing there: nothing to remove")
    }

    @Test("the lock file: a link or a FIFO in its place is refused with its reason, never followed or blocked on")
    func lockFile() throws {
        let lock = "\(shared)/dawnlet.sqlite.lock"
        #expect(symlink(secret, lock) == 0)
        #expect(throws: SystemError.self) { _ = try FileLock(path: lock) }
        do {
            _ = try FileLock(path: lock)
        } catch {
            #expect("\(error)".contains("a symbolic link, not followed"), "\(error)")
        }
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretBytes)
        unlink(lock)
        #expect(mkfifo(lock, 0o600) == 0)
        #expect(throws: SystemError.self) { _ = try FileLock(path: lock) }
        unlink(lock)
        let held = try #require(try FileLock(path: lock))
        #expect(held.isStillAtPath)
        #expect(mode(lock) & 0o7777 == 0o600)
    }
}

/// A watched folder removed and made again is watched again; one that stays away is said once.
struct FolderWatchTests {
    /// Waits (poll(2) on the watch, no sleep) for the watch to say something, and returns it.
    func next(_ watch: FolderWatch, within milliseconds: Int32 = 2_000) -> FolderWatch.Changes {
        var changes = FolderWatch.Changes()
        var pending = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
        var wait = milliseconds
        while poll(&pending, 1, wait) == 1 {
            let more = watch.changes()
            changes.names.formUnion(more.names)
            changes.everything = changes.everything || more.everything
            changes.gone = (changes.gone || more.gone) && !changes.everything
            // Then what the same burst brings, up to its first quiet 50 ms.
            wait = 50
        }
        return changes
    }

    @Test("removed: said gone, once; made again: watched again, said changed whole, and its entries' changes seen after")
    func removedAndMadeAgain() throws {
        let folder = try TemporaryFolder()
        let dir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let watch = try FolderWatch(dir)
        try "a".write(toFile: "\(dir)/a.ics", atomically: false, encoding: .utf8)
        #expect(next(watch).names == ["a.ics"])
        try FileManager.default.removeItem(atPath: dir)
        let removed = next(watch)
        #expect(removed.gone && !removed.everything && removed.names == ["a.ics"], "\(removed)")
        #expect(!watch.isPresent)
        // Nothing more while it stays away: no event, no spin.
        var pending = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pending, 1, 200) == 0)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(next(watch).everything)
        #expect(watch.isPresent)
        try "b".write(toFile: "\(dir)/b.ics", atomically: false, encoding: .utf8)
        #expect(next(watch).names == ["b.ics"])
        // Moved away and another made in its place: the new one is watched, not the moved one.
        try FileManager.default.moveItem(atPath: dir, toPath: folder.path("moved"))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(next(watch).everything)
        try "c".write(toFile: folder.path("moved/c.ics"), atomically: false, encoding: .utf8)
        try "d".write(toFile: "\(dir)/d.ics", atomically: false, encoding: .utf8)
        #expect(next(watch).names == ["d.ics"])
    }

    @Test("a folder not there yet is waited for in its parent, then watched")
    func notYetThere() throws {
        let folder = try TemporaryFolder()
        let dir = folder.path("later")
        let watch = try FolderWatch(dir)
        #expect(!watch.isPresent)
        try "x".write(toFile: folder.path("other"), atomically: false, encoding: .utf8)
        #expect(next(watch, within: 300) == FolderWatch.Changes())
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        #expect(next(watch).everything)
        try "e".write(toFile: "\(dir)/e.ics", atomically: false, encoding: .utf8)
        #expect(next(watch).names == ["e.ics"])
        #expect(throws: SystemError.self) { _ = try FolderWatch("/nonexistent/parent/too") }
    }
}
