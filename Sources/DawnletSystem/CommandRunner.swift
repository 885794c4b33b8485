import CLinux
import Glibc

/// How a command ended.
public struct CommandResult: Hashable, Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// The start of what it wrote to stderr (at most 4 KiB).
    public let stderr: String
    /// It ran past its timeout and was killed.
    public let timedOut: Bool

    public var succeeded: Bool { status == 0 && !timedOut }
}

/// Runs a program without a shell (DESIGN §6): `posix_spawnp` with an empty signal mask and default
/// dispositions (a child started from a thread that blocks SIGTERM would otherwise inherit the
/// block and be unkillable, shared/PLATFORM-NOTES.md), in its own process group, stdin on
/// /dev/null or fed `input`, stdout on /dev/null, stderr captured; killed with its group after
/// `timeout` seconds.
public enum CommandRunner {
    public static let stderrLimit = 4096

    public static func run(_ argv: [String], environment: [String: String], timeout: Int, input: [UInt8]? = nil) throws(SystemError) -> CommandResult {
        precondition(!argv.isEmpty, "argv needs a program")
        var pipe: [Int32] = [-1, -1]
        try SystemError.checkPOSIX(dawnlet_pipe2(&pipe, O_CLOEXEC), "pipe2")
        defer { if pipe[0] >= 0 { close(pipe[0]) } }
        // The child's stdin, when there is input: written as the child reads, never blocking.
        var inputPipe: [Int32] = [-1, -1]
        if input != nil {
            try SystemError.checkPOSIX(dawnlet_pipe2(&inputPipe, O_CLOEXEC), "pipe2")
            _ = fcntl(inputPipe[1], F_SETFL, O_NONBLOCK)
        }
        defer { if inputPipe[1] >= 0 { close(inputPipe[1]) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, variables)
        close(pipe[1])
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        guard spawned == 0 else { throw SystemError("cannot run \(argv[0])", errno: spawned) }
        var pending = input.map { ArraySlice($0) } ?? []
        if input != nil && pending.isEmpty { close(inputPipe[1]); inputPipe[1] = -1 }

        // Wait for the pipe's end and the exit together, with one deadline.
        let exitFD = dawnlet_pidfd_open(pid)
        defer { if exitFD >= 0 { close(exitFD) } }
        var captured: [UInt8] = []
        var pipeOpen = true
        var exited = false
        var timedOut = false
        let deadline = monotonicMilliseconds() + Int64(timeout) * 1000
        while pipeOpen || (!exited && exitFD >= 0) {
            let remaining = deadline - monotonicMilliseconds()
            if remaining <= 0 {
                timedOut = true
                kill(-pid, SIGKILL)
                break
            }
            var fds = [pollfd(fd: pipeOpen ? pipe[0] : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: exited ? -1 : exitFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inputPipe[1], events: Int16(POLLOUT), revents: 0)]
            let ready = poll(&fds, 3, Int32(min(remaining, 60_000)))
            if ready < 0 && errno != EINTR { break }
            if fds[2].revents != 0 {
                // Written, or the child closed its stdin (EPIPE; SIGPIPE is ignored): either way done.
                let n = pending.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
                if n > 0 { pending = pending.dropFirst(n) }
                if pending.isEmpty || (n < 0 && errno != EAGAIN && errno != EINTR) {
                    close(inputPipe[1])
                    inputPipe[1] = -1
                }
            }
            if fds[0].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 1024)
                let n = read(pipe[0], &chunk, chunk.count)
                if n > 0 {
                    if captured.count < stderrLimit { captured += chunk[0..<min(n, stderrLimit - captured.count)] }
                } else if n == 0 || errno != EINTR {
                    pipeOpen = false
                }
            }
            if fds[1].revents != 0 { exited = true }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return CommandResult(status: code, stderr: String(decoding: captured, as: UTF8.self), timedOut: timedOut)
    }

    /// Where `posix_spawnp` would find `program`: itself if it holds a slash, else the first
    /// executable of that name in `path`'s folders.
    public static func find(_ program: String, path: String?) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") where access("\(folder)/\(program)", X_OK) == 0 {
            return "\(folder)/\(program)"
        }
        return nil
    }

    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
