import Foundation

/// A `serve` as a process: started and stopped, and what /proc says of its threads and memory.
extension RunnerBench {
    /// Voluntary context switches summed over every thread the process has now.
    static func switches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    static func taskCount(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
    }

    /// The files resident memory is in (/proc/PID/smaps, Rss summed by path), largest first:
    /// where an idle runner's memory goes.
    static func residentFiles(_ pid: pid_t, top: Int = 8) -> String {
        // Read to the end: procfs files have no size, and a sized read stops early.
        let text = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        var byPath: [String: Int] = [:]
        var path = ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                path = fields.count >= 6 ? String(fields[5...].joined(separator: " ").split(separator: "/").last ?? "") : "[anonymous]"
            } else if fields.first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                byPath[path, default: 0] += kib
            }
        }
        return byPath.sorted { $0.value > $1.value }.prefix(top).map { "\($0.key) \($0.value) KiB" }.joined(separator: ", ")
    }

    /// A field of /proc/PID/status as a number (kB for sizes).
    static func status(_ pid: pid_t, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// Starts a program with this environment plus `environment`, stderr to /dev/null.
    static func spawn(
        _ binary: String, _ arguments: [String], faketime: String?, environment: [String: String] = [:],
        stderr: String = "/dev/null"
    ) throws -> pid_t {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { throw CocoaError(.executableLoad) }
        return pid
    }

    static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
