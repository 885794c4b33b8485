import DawnletTestSupport
import Foundation
import Testing

/// The export folder fuzzed as an attacker who can write it would: random sequences of symbolic
/// links at our names (to private files outside, to a setuid program, to `/dev/zero`, to the
/// folder itself, to nothing), hard links at our names and at every temporary name a writer
/// could once have used, FIFOs and folders in place of files, modes changed, the folder removed
/// and made again, our files rewritten or broken, and another device completing todos — between
/// exports (`export --to`) and while `serve` keeps the folder.
///
/// After every run: no byte or mode of any file outside the folder changed; nothing in the folder
/// that is not ours changed; every file of ours is 0600 (unless another program changed its mode
/// and it was left alone); no temporary file is left; a todo completed elsewhere in a file of ours
/// is done here; no reminder went out twice; and the binary ended with 0 or 1, without a crash.
///
/// Deterministic: `DAWNLET_FUZZ_SEED` picks another sequence, `DAWNLET_FUZZ_CASES` another length.
@Suite(.serialized) struct HostileFolderFuzzTests {
    static var cases: Int { ProcessInfo.processInfo.environment["DAWNLET_FUZZ_CASES"].flatMap(Int.init) ?? 40 }

    /// What stands at a path, as far as an invariant cares: its type, mode, and its bytes or the
    /// link's target.
    struct Entry: Equatable, CustomStringConvertible {
        let type: mode_t
        let mode: mode_t
        let content: String

        init?(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            type = info.st_mode & S_IFMT
            mode = info.st_mode & 0o7777
            switch type {
            case S_IFLNK: content = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            case S_IFREG: content = (try? String(contentsOfFile: path, encoding: .isoLatin1)) ?? "?"
            default: content = ""
            }
        }

        var description: String { "type \(String(type, radix: 8)) mode \(String(mode, radix: 8)) \(content.prefix(40).debugDescription)" }
    }

    /// One case: a database with a few todos, an export folder, files outside it worth stealing
    /// or spoiling, and what was planted in the folder.
    final class Case {
        let folder: TemporaryFolder
        let db: String
        let dir: String
        let outside: String
        var random: SeededRandom
        let log: (String) -> Void
        /// The file name prefix of ours (`dawnlet-NAMESPACE-`), known after the first export.
        var prefix = ""
        /// Our todos' ids now.
        var items: [Int] = []
        var nextID = 1
        /// Entries put in the folder by "the attacker" (not ours): each must stay as it was put.
        var planted: [String: Entry] = [:]
        /// Files of ours whose mode another program changed: left alone or written back 0600.
        var modeChanged: Set<String> = []
        /// Todos completed by another device in a file of ours that was then intact: since the
        /// last export (an attack on the file before it may still spoil that), and read back.
        var pending: Set<Int> = []
        var completed: Set<Int> = []
        /// The folder's mode as another program last set it: never changed by us.
        var folderMode: mode_t?
        /// The outside files (and the setuid program), as they were.
        var outsideBefore: [String: Entry] = [:]

        init(seed: UInt64, log: @escaping (String) -> Void) throws {
            folder = try TemporaryFolder()
            db = folder.path("a.sqlite")
            dir = folder.path("shared")
            outside = folder.path("outside")
            random = SeededRandom(seed: seed)
            self.log = log
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
            try "PRIVATE KEY\n".write(toFile: "\(outside)/private", atomically: false, encoding: .utf8)
            chmod("\(outside)/private", 0o600)
            try "#!/bin/sh\n".write(toFile: "\(outside)/setuid", atomically: false, encoding: .utf8)
            chmod("\(outside)/setuid", 0o4755)
            try "read only\n".write(toFile: "\(outside)/readonly", atomically: false, encoding: .utf8)
            chmod("\(outside)/readonly", 0o444)
            for path in outsidePaths { outsideBefore[path] = Entry(path) }
        }

        var outsidePaths: [String] { ["\(outside)/private", "\(outside)/setuid", "\(outside)/readonly", "/usr/bin/passwd", outside] }
        var targets: [String] {
            ["\(outside)/private", "\(outside)/setuid", "/usr/bin/passwd", "/dev/zero", dir, "../outside/private", "\(outside)/nothing"]
        }

        func cli(_ arguments: [String]) throws -> CLIResult {
            try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-04T08:00"] + arguments)
        }

        /// `dawnlet-NAMESPACE-`, from the first export's files.
        func learnPrefix() {
            let first = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).first { $0.hasPrefix("dawnlet-") } ?? ""
            prefix = "dawnlet-\(first.dropFirst("dawnlet-".count).prefix { $0 != "-" })-"
        }

        func name(_ id: Int) -> String { "\(prefix)todo-\(id).ics" }
        func path(_ id: Int) -> String { "\(dir)/\(name(id))" }

        func addTodo() throws {
            let day = 5 + Int(random.next() % 20)
            let result = try cli(["todo", "add", "Todo \(nextID)", "--due", "2026-12-\(String(format: "%02d", day))T10:00"])
            #expect(result.status == 0, "\(result.stderr)")
            items.append(nextID)
            nextID += 1
        }

        /// A path in the folder the attacker chooses: one of our names (an item's, or a deleted
        /// one's), or a name a temporary file of ours could once have had.
        func victim() -> String {
            let id = items.isEmpty || random.next() % 4 == 0 ? Int(random.next() % UInt64(nextID + 1)) + 1 : items[Int(random.next() % UInt64(items.count))]
            switch random.next() % 5 {
            case 0: return "\(dir)/.\(name(id)).\(Int(getpid()) + Int(random.next() % 64)).tmp"
            case 1: return "\(dir)/.\(name(id)).tmp"
            default: return path(id)
            }
        }

        /// Makes room at `target` for something planted: what is there goes first (a Done
        /// written into it elsewhere with it, unless it was read back already).
        func clear(_ target: String) {
            try? FileManager.default.removeItem(atPath: target)
            planted[target] = nil
            modeChanged.remove(target)
            pending = pending.filter { path($0) != target }
        }

        func plant(_ target: String, _ make: () -> Int32) {
            clear(target)
            guard make() == 0, let entry = Entry(target) else { return }
            planted[target] = entry
        }

        /// One random attack, or one change here or elsewhere.
        func step() throws {
            let target = victim()
            switch random.next() % 13 {
            case 0, 1:
                let to = targets[Int(random.next() % UInt64(targets.count))]
                log("symlink \(target) -> \(to)")
                plant(target) { symlink(to, target) }
            case 2:
                let from = ["\(outside)/private", "\(outside)/setuid", "\(outside)/readonly"][Int(random.next() % 3)]
                log("hard link \(target) = \(from)")
                plant(target) { link(from, target) }
            case 3:
                log("fifo or folder at \(target)")
                plant(target) { random.next() % 2 == 0 ? mkfifo(target, 0o600) : mkdir(target, 0o700) }
            case 4:
                // Another program's file beside ours: never changed.
                let other = "\(dir)/other-\(random.next() % 4).ics"
                log("foreign file \(other)")
                plant(other) {
                    (try? "BEGIN:VCALENDAR\r\nX-THEIRS:1\r\nEND:VCALENDAR\r\n".write(toFile: other, atomically: false, encoding: .utf8)) == nil ? -1 : 0
                }
            case 5:
                // Another program changes the mode of a file of ours.
                guard let id = items.randomElement(using: &random), planted[path(id)] == nil, Entry(path(id))?.type == S_IFREG else { return }
                let mode: mode_t = [0o4755, 0o644, 0o000, 0o2777][Int(random.next() % 4)]
                log("chmod \(String(mode, radix: 8)) \(path(id))")
                chmod(path(id), mode)
                modeChanged.insert(path(id))
            case 6:
                log("folder removed and made again")
                _ = try runTool("/bin/rm", ["-rf", dir], environment: [:])
                mkdir(dir, 0o700)
                folderMode = nil
                planted = [:]
                modeChanged = []
                pending = []
            case 7:
                // Another device completes a todo in its (intact) file.
                guard let id = items.randomElement(using: &random), planted[path(id)] == nil, !modeChanged.contains(path(id)),
                    let text = try? String(contentsOfFile: path(id), encoding: .utf8), text.contains("BEGIN:VALARM"), !text.contains("STATUS:COMPLETED")
                else { return }
                log("completed elsewhere: todo \(id)")
                try text.replacingOccurrences(of: "BEGIN:VALARM", with: "STATUS:COMPLETED\r\nLAST-MODIFIED:20261204T090000Z\r\nBEGIN:VALARM")
                    .write(toFile: path(id), atomically: true, encoding: .utf8)
                chmod(path(id), 0o600)
                pending.insert(id)
            case 8:
                // Another program breaks a file of ours: cut short, or bytes that are no calendar.
                guard let id = items.randomElement(using: &random), planted[path(id)] == nil, Entry(path(id))?.type == S_IFREG else { return }
                log("broken: \(path(id))")
                let handle = FileHandle(forWritingAtPath: path(id))
                if random.next() % 2 == 0 { handle?.truncateFile(atOffset: 20) } else { handle?.write(Data([0, 0xFF, 0x1B, 0x5B])) }
                try? handle?.close()
                pending.remove(id)
            case 9:
                try addTodo()
            case 10:
                // Root reads and writes it all the same; the mode must stay as it was set.
                let mode: mode_t = [0o000, 0o500, 0o700, 0o755][Int(random.next() % 4)]
                log("chmod \(String(mode, radix: 8)) the folder")
                chmod(dir, mode)
                folderMode = mode
            default:
                guard let id = items.randomElement(using: &random) else { return }
                if random.next() % 3 == 0 {
                    log("todo delete \(id)")
                    #expect(try cli(["todo", "delete", String(id)]).status == 0)
                    items.removeAll { $0 == id }
                    pending.remove(id)
                    completed.remove(id)
                } else {
                    log("todo edit \(id)")
                    let edit = try cli(["todo", "edit", String(id), "--title", "Todo \(id) edited \(random.next() % 100)"])
                    #expect(edit.status == 0, "\(edit.stderr)")
                }
            }
        }

        /// The invariants, after an export or a while of `serve`.
        func check(_ what: String) throws {
            for path in outsidePaths {
                #expect(Entry(path) == outsideBefore[path], "\(what): \(path) changed: \(Entry(path).map { "\($0)" } ?? "gone")")
            }
            if let folderMode { #expect(Entry(dir)?.mode == folderMode, "\(what): the folder's mode changed") }
            for (path, entry) in planted {
                #expect(Entry(path) == entry, "\(what): \(path), not ours, changed: was \(entry), now \(Entry(path).map { "\($0)" } ?? "gone")")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names where planted["\(dir)/\(name)"] == nil {
                let path = "\(dir)/\(name)"
                #expect(!name.hasSuffix(".tmp"), "\(what): a temporary file was left: \(name)")
                guard name.hasPrefix(prefix), let entry = Entry(path) else { continue }
                #expect(entry.type == S_IFREG, "\(what): \(name) is ours but \(entry)")
                if !modeChanged.contains(path) {
                    #expect(entry.mode == 0o600, "\(what): \(name) has mode \(String(entry.mode, radix: 8))")
                }
            }
        }

        /// After an export (or a pass of serve's): the todos completed elsewhere whose files stayed
        /// intact until then are done here, and stay so.
        func checkCompleted(_ what: String) throws {
            completed.formUnion(pending)
            pending = []
            for id in completed.sorted() {
                let done = try cli(["agenda", "--from", "2026-12-04", "--days", "30", "--json"]).stdout
                let root = try JSONSerialization.jsonObject(with: Data(done.utf8)) as? [String: Any]
                let statuses = (root?["days"] as? [[String: Any]] ?? []).flatMap { $0["items"] as? [[String: Any]] ?? [] }
                    .filter { $0["definition_id"] as? Int == id && $0["kind"] as? String == "todo" }.compactMap { $0["status"] as? String }
                #expect(statuses == ["done"], "\(what): todo \(id) completed on another device is \(statuses) here")
            }
        }
    }

    @Test("export into a folder attacked at random between runs: nothing outside changes, nothing not ours changes, ours stay 0600, a Done elsewhere counts")
    func export() throws {
        let seed = SeededRandom.fuzzSeed(40)
        var total = 0
        for n in 0..<Self.cases {
            var steps: [String] = []
            let c = try Case(seed: seed &+ UInt64(n)) { steps.append($0) }
            for _ in 0..<3 { try c.addTodo() }
            #expect(try c.cli(["export", "--to", c.dir]).status == 0)
            c.learnPrefix()
            for round in 0..<4 {
                for _ in 0..<(2 + Int(c.random.next() % 4)) { try c.step() }
                let result = try c.cli(["export", "--to", c.dir])
                total += 1
                let what = "seed \(seed &+ UInt64(n)) round \(round) after [\(steps.joined(separator: "; "))]"
                #expect([0, 1].contains(result.status), "\(what): exit \(result.status): \(result.stderr)")
                for crash in ["Fatal error", "backtrace", "Segmentation"] { #expect(!result.stderr.contains(crash), "\(what): \(result.stderr)") }
                #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B }, "\(what): a raw ESC on stderr")
                try c.check(what)
                try c.checkCompleted(what)
            }
        }
        print("hostile folder fuzz: \(Self.cases) cases, \(total) exports, seed \(seed)")
    }
}

extension ServeTests {
    @Test(
        "serve keeps a folder attacked at random while it delivers: nothing outside or not ours changes, ours stay 0600, nothing reminds twice, a Done elsewhere counts"
    )
    func hostileFolderFuzz() throws {
        let seed = SeededRandom.fuzzSeed(41)
        var steps: [String] = []
        let c = try HostileFolderFuzzTests.Case(seed: seed) { steps.append($0) }
        // A sentinel event, never attacked: its file written means serve has done all before it.
        #expect(try c.cli(["event", "add", "Sentinel", "--start", "2026-12-30T10:00"]).status == 0)
        for minute in 0..<4 {
            #expect(try c.cli(["todo", "add", "Due \(minute)", "--due", "2026-12-04T09:0\(minute)", "--remind", "0m"]).status == 0)
            c.items.append(c.nextID)
            c.nextID += 1
        }
        for _ in 0..<3 { try c.addTodo() }
        #expect(try c.cli(["export", "--to", c.dir]).status == 0)
        c.learnPrefix()
        let sentinel = "\(c.dir)/\(c.prefix)event-1.ics"
        try writeConfig("export: { to: \"\(c.dir)\" },")
        // Six times faster: the four minutes of reminders pass in 40 s while the folder is attacked.
        let runtime = c.folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let server = try Server(db: c.db, config: config, start: "2026-12-04 07:59:50 x6", environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(waitUntil { published(in: runtime) }, "serve made no plan")
        var rounds = 0
        let began = Date()
        while Date().timeIntervalSince(began) < 45 {
            try c.step()
            rounds += 1
            #expect(try c.cli(["event", "edit", "1", "--title", "Sentinel \(rounds)"]).status == 0)
            let seen = waitUntil(seconds: 10) { text(sentinel).contains("SUMMARY:Sentinel \(rounds)\r\n") }
            let what = "seed \(seed) round \(rounds) after [\(steps.joined(separator: "; "))]"
            #expect(seen, "\(what): serve did not write the sentinel")
            try c.check(what)
            try c.checkCompleted(what)
            guard seen else { break }
        }
        let (status, log) = try server.stop()
        #expect(status == 0 && rounds > 10, "\(rounds) rounds\n\(log)")
        for crash in ["Fatal error", "backtrace", "Segmentation"] { #expect(!log.contains(crash), "\(log)") }
        try c.check("seed \(seed) at the end")
        let keys = lines().map { $0.split(separator: " ")[1] }
        #expect(Set(keys).count == keys.count, "a reminder went out twice: \(keys)")
        print("hostile folder fuzz under serve: \(rounds) rounds, \(keys.count) reminders, seed \(seed)")
    }
}
