internal import CLinux
import DawnletCCall
import DawnletCore
import Glibc
import Synchronization

/// How a command ended.
public struct CommandResult: Hashable, Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// The start of what it wrote to stderr (at most 4 KiB); stdout's too, as it came, when it was
    /// run `capturingStdout`.
    public let stderr: String
    /// It ran past its timeout and was killed.
    public let timedOut: Bool

    public var succeeded: Bool { status == 0 && !timedOut }

    /// What it said first on stderr, the line a failure is reported with; nil when it said nothing.
    public var firstStderrLine: String? { stderr.split(separator: "\n").first.map(String.init) }
}

/// Runs a program without a shell: `posix_spawnp` with an empty signal mask and default
/// dispositions (a signal mask is inherited: a child started from a thread that blocks SIGTERM,
/// as the runner's does, would keep it blocked and be unkillable), in its own process group, stdin on
/// /dev/null or fed `input`, stdout on /dev/null, stderr captured; killed with its group after
/// `timeout` seconds.
public enum CommandRunner {
    public static let stderrLimit = 4096

    /// The process groups of the commands started and not yet ended, for `killAll`.
    private static let running = Mutex<Set<pid_t>>([])

    /// Kills every command still running, with its process group: a runner that stops without
    /// waiting for them leaves nothing behind (their deliveries stay claimed for the next start).
    public static func killAll() {
        running.withLock { groups in
            for group in groups { kill(-group, SIGKILL) }
        }
    }

    /// Runs `argv` to its end (or its timeout) and says how it ended: `start` on a private loop.
    /// `capturingStdout`: what it prints is captured with its stderr (a query's answer).
    public static func run(
        _ argv: [String], environment: [String: String], timeout: Duration, input: [UInt8]? = nil, capturingStdout: Bool = false
    ) throws(SystemError) -> CommandResult {
        let loop = try EventLoop()
        var outcome: CommandResult?
        try start(argv, environment: environment, timeout: timeout, input: input, capturingStdout: capturingStdout, on: loop) { result in
            outcome = result
            loop.exit(0)
        }
        if outcome == nil { _ = try loop.run() }
        guard let outcome else { throw SystemError("running \(argv[0])", errno: EIO) }
        return outcome
    }

    /// Starts `argv` and watches it on `loop`: its exit through a pidfd, its stderr and stdin
    /// through their pipes, its timeout among the loop's `Deadlines` (one CLOCK_MONOTONIC timerfd). `done` runs once, on the
    /// loop's thread, after every source and descriptor of the run is gone. Throws when it cannot
    /// be started (then `done` is never called).
    public static func start(
        _ argv: [String], environment: [String: String], timeout: Duration, input: [UInt8]? = nil, capturingStdout: Bool = false,
        on loop: EventLoop, done: @escaping (CommandResult) -> Void
    ) throws(SystemError) {
        precondition(!argv.isEmpty, "argv needs a program")
        let child = try spawn(argv, environment: environment, input: input != nil, capturingStdout: capturingStdout)
        let run = Running(child, input: input ?? [], done: done)
        running.withLock { _ = $0.insert(child.pid) }
        do {
            try run.watch(on: loop, timeout: timeout)
        } catch {
            kill(-child.pid, SIGKILL)
            run.abandon()
            _ = CCall.posix("waitpid") { waitpid(child.pid, nil, 0) }
            running.withLock { _ = $0.remove(child.pid) }
            throw error
        }
    }

    /// A started child: its pid, a pidfd for its exit, the read end of its stderr and the write end of its stdin.
    struct Child {
        let pid: pid_t
        var exitFD: Int32
        var stderrFD: Int32
        var stdinFD: Int32
    }

    /// One run being watched; it owns the child's descriptors until it ends. A descriptor's
    /// source always leaves the loop before the descriptor is closed: closed first, its number
    /// could be given to another run's descriptor, and removing the stale source would take that
    /// one's registration out of epoll.
    private final class Running {
        var child: Child
        var pending: ArraySlice<UInt8>
        var captured: [UInt8] = []
        var exited = false
        var timedOut = false
        var exitSource: EventLoop.Source?
        var stderrSource: EventLoop.Source?
        var stdinSource: EventLoop.Source?
        /// Its timeout among the loop's (`EventLoop.Deadlines`: one timer for every command).
        var timeout: (deadlines: EventLoop.Deadlines, token: EventLoop.Deadlines.Token)?
        var finished = false
        let done: (CommandResult) -> Void

        init(_ child: Child, input: [UInt8], done: @escaping (CommandResult) -> Void) {
            self.child = child
            pending = input[...]
            self.done = done
        }

        func watch(on loop: EventLoop, timeout: Duration) throws(SystemError) {
            exitSource = try loop.watch(child.exitFD, events: EventLoop.readable) { [self] _ in
                exited = true
                finishIfOver()
            }
            stderrSource = try loop.watch(child.stderrFD, events: EventLoop.readable) { [self] _ in readStderr() }
            if child.stdinFD >= 0 {
                if pending.isEmpty {
                    closeStdin()
                } else {
                    stdinSource = try loop.watch(child.stdinFD, events: EventLoop.writable) { [self] _ in writeStdin() }
                }
            }
            let deadlines = loop.deadlines
            let token = try deadlines.add(after: timeout) { [self] in
                self.timeout = nil
                timedOut = true
                kill(-child.pid, SIGKILL)
                finishIfOver()
            }
            self.timeout = (deadlines, token)
        }

        func readStderr() {
            var chunk = [UInt8](repeating: 0, count: 1024)
            let n = CCall.posix("read") { read(child.stderrFD, &chunk, chunk.count) }
            if n > 0 {
                if captured.count < CommandRunner.stderrLimit { captured += chunk[0..<min(n, CommandRunner.stderrLimit - captured.count)] }
                return
            }
            if n < 0 && errno == EAGAIN { return }
            closeStderr()
            finishIfOver()
        }

        /// Written, or the child closed its stdin (EPIPE; SIGPIPE is ignored): either way done.
        func writeStdin() {
            let n = CCall.posix("write") { pending.withUnsafeBytes { write(child.stdinFD, $0.baseAddress, $0.count) } }
            if n > 0 { pending = pending.dropFirst(n) }
            if pending.isEmpty || (n < 0 && errno != EAGAIN && errno != EINTR) { closeStdin() }
        }

        func closeStdin() {
            stdinSource?.cancel()
            stdinSource = nil
            if child.stdinFD >= 0 { close(child.stdinFD) }
            child.stdinFD = -1
        }

        func closeStderr() {
            stderrSource?.cancel()
            stderrSource = nil
            if child.stderrFD >= 0 { close(child.stderrFD) }
            child.stderrFD = -1
        }

        /// Over when it exited and its stderr reached its end, or when it exited after its timeout
        /// killed it (a grandchild may still hold stderr open).
        func finishIfOver() {
            guard !finished, exited, child.stderrFD < 0 || timedOut else { return }
            finished = true
            var status: Int32 = 0
            _ = CCall.posix("waitpid") { waitpid(child.pid, &status, 0) }
            CommandRunner.running.withLock { _ = $0.remove(child.pid) }
            abandon()
            let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            done(CommandResult(status: code, stderr: String(decoding: captured, as: UTF8.self), timedOut: timedOut))
        }

        /// Every source off the loop, every descriptor closed (the handlers hold `self` until then).
        func abandon() {
            closeStdin()
            closeStderr()
            exitSource?.cancel()
            exitSource = nil
            if child.exitFD >= 0 { close(child.exitFD) }
            child.exitFD = -1
            if let timeout { timeout.deadlines.remove(timeout.token) }
            timeout = nil
        }
    }

    /// What every spawn shares, made at the first and kept: the attributes (an empty signal mask;
    /// default dispositions for the signals this process ignores; a process group of its own) and
    /// /dev/null opened twice (stdin's, read-only; stdout's, write-only), close-on-exec here and
    /// dup2'd onto a child's 0 and 1.
    final class Prepared: @unchecked Sendable {
        /// Only read once made (posix_spawnp takes it const), from any thread.
        let attributes: UnsafeMutablePointer<posix_spawnattr_t>
        /// The signals whose disposition a child gets back as SIG_DFL: those this process ignores
        /// (SIGPIPE, by main.swift). A handler needs nothing: exec makes it SIG_DFL, and glibc's
        /// child resets it before exec. The mask needs only emptying (the runner's SIGTERM,
        /// SIGINT and SIGHUP are blocked for its signalfd, not ignored).
        let reset: [Int32]
        /// -1 when /dev/null cannot be opened: then each spawn opens it in the child, as an
        /// `addopen` file action, and fails as that open does.
        let nullInput: Int32
        let nullOutput: Int32

        init() {
            var reset: [Int32] = []
            var ignored = sigset_t()
            sigemptyset(&ignored)
            // 1 to 64 (_NSIG - 1): glibc's own two real-time signals have no disposition to ask.
            for signal in Int32(1)...64 where dawnlet_signal_ignored(signal) != 0 {
                sigaddset(&ignored, signal)
                reset.append(signal)
            }
            self.reset = reset
            var empty = sigset_t()
            sigemptyset(&empty)
            attributes = .allocate(capacity: 1)
            posix_spawnattr_init(attributes)
            posix_spawnattr_setsigmask(attributes, &empty)
            posix_spawnattr_setsigdefault(attributes, &ignored)
            posix_spawnattr_setpgroup(attributes, 0)
            posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
            nullInput = CCall.posix("open", context: "/dev/null") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
            nullOutput = CCall.posix("open", context: "/dev/null") { open("/dev/null", O_WRONLY | O_CLOEXEC) }
        }
    }

    /// Made at the first spawn, or by `prepare()` (this process's dispositions are set by then:
    /// main.swift's first line).
    static let prepared = Prepared()

    /// Makes what every spawn shares now, not at the first reminder: `serve` calls it as it starts.
    public static func prepare() { _ = prepared }

    /// `posix_spawnp` with the prepared attributes (`Prepared`): an empty signal mask, default
    /// dispositions and its own process group; stdin on /dev/null or a non-blocking pipe, stdout
    /// on /dev/null (or the stderr pipe), stderr on a pipe.
    static func spawn(_ argv: [String], environment: [String: String], input: Bool, capturingStdout: Bool = false) throws(SystemError) -> Child {
        let prepared = prepared
        var pipe: [Int32] = [-1, -1]
        try SystemError.posix("pipe2") { dawnlet_pipe2(&pipe, O_CLOEXEC) }
        var inputPipe: [Int32] = [-1, -1]
        // Our ends of the pipes never block the loop. Each end is a file description of its own,
        // so the child's ends stay as a program expects them.
        do {
            try SystemError.posix("fcntl") { fcntl(pipe[0], F_SETFL, O_NONBLOCK) }
            if input {
                try SystemError.posix("pipe2") { dawnlet_pipe2(&inputPipe, O_CLOEXEC) }
                try SystemError.posix("fcntl") { fcntl(inputPipe[1], F_SETFL, O_NONBLOCK) }
            }
        } catch {
            for fd in pipe + inputPipe where fd >= 0 { close(fd) }
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 leaves the copy without close-on-exec: the child keeps 0, 1 and 2.
        if input {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else if prepared.nullInput >= 0 {
            posix_spawn_file_actions_adddup2(&actions, prepared.nullInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if capturingStdout {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else if prepared.nullOutput >= 0 {
            posix_spawn_file_actions_adddup2(&actions, prepared.nullOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = CCall.resultCode("posix_spawnp", context: argv[0]) { posix_spawnp(&pid, argv[0], &actions, prepared.attributes, arguments, variables) }
        close(pipe[1])
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        guard spawned == 0 else {
            close(pipe[0])
            if inputPipe[1] >= 0 { close(inputPipe[1]) }
            throw SystemError("cannot run \(argv[0])", errno: spawned)
        }
        let exitFD = CCall.posix("pidfd_open") { dawnlet_pidfd_open(pid) }
        guard exitFD >= 0 else {
            let error = SystemError("pidfd_open", errno: errno)
            kill(-pid, SIGKILL)
            _ = CCall.posix("waitpid") { waitpid(pid, nil, 0) }
            close(pipe[0])
            if inputPipe[1] >= 0 { close(inputPipe[1]) }
            throw error
        }
        return Child(pid: pid, exitFD: exitFD, stderrFD: pipe[0], stdinFD: inputPipe[1])
    }

    /// Where `posix_spawnp` would find `program`: itself if it holds a slash, else the first
    /// executable of that name in `path`'s folders.
    public static func find(_ program: String, path: String?) -> String? {
        func executable(_ path: String) -> Bool { CCall.posix("access", context: path) { access(path, X_OK) } == 0 }
        if program.contains("/") { return executable(program) ? program : nil }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") where executable("\(folder)/\(program)") {
            return "\(folder)/\(program)"
        }
        return nil
    }
}
