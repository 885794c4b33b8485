import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletSystem

/// Commands on the event loop: many at once, each ended by its exit, its timeout or
/// its input; nothing left on the loop or open afterwards.
@Suite(.serialized) struct CommandRunnerTests {
    /// This process's open pidfds (only commands make them).
    func openPidfds() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:[pidfd]"
        }.count
    }

    @Test("a hundred commands started at once, and more started as each ends, all end by their exit, leaving no descriptor open")
    func many() throws {
        let loop = try EventLoop()

        var results: [Int: CommandResult] = [:]
        let count = 300
        // As the runner does: a command that ends starts the next (descriptor numbers are reused at once).
        func start(_ i: Int) throws {
            // Its stderr ends before it exits: the runner sees the two apart.
            try CommandRunner.start(
                ["/bin/sh", "-c", "echo $0 >&2; exec 2>&-; sleep 0.0$(($0 % 7)); exit $(($0 % 3))", "\(i)"],
                environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(30), on: loop
            ) { result in
                results[i] = result
                if i + 100 < count { try? start(i + 100) }
                if results.count == count { loop.exit(0) }
            }
        }
        for i in 0..<100 { try start(i) }
        let guardTimer = EventLoop.RelativeTimer(loop: loop) { loop.exit(1) }
        try guardTimer.arm(after: .seconds(20))
        let started = ContinuousClock.now
        #expect(try loop.run() == 0, "only \(results.count) of \(count) ended")
        guardTimer.stop()
        #expect(ContinuousClock.now - started < .seconds(15))
        for i in 0..<count {
            #expect(results[i]?.status == Int32(i % 3), "\(i)")
            #expect(results[i]?.stderr == "\(i)\n", "\(i)")
            #expect(results[i]?.timedOut == false)
        }
        #expect(openPidfds() == 0)
    }

    @Test("a child gets /dev/null as stdin and stdout, its stderr captured, an empty mask though the starting thread blocks SIGTERM, and its own group")
    func childSetUp() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        // The shell's own descriptors, mask and process group (field 5 of /proc/PID/stat) as it was given them.
        // Read in subshells, before the shell redirects anything of its own.
        let script =
            "fds=$(readlink /proc/$$/fd/0 /proc/$$/fd/1); mask=$(grep '^SigBlk:' /proc/$$/status); leader=$(( $$ == $(cut -d' ' -f5 /proc/$$/stat) ));"
            + " printf '%s\\n%s\\n%s\\n' \"$fds\" \"$mask\" \"$leader\" >&2"
        for round in 0..<2 {
            let result = try CommandRunner.run(["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(10))
            #expect(result.stderr == "/dev/null\n/dev/null\nSigBlk:\t0000000000000000\n1\n", "round \(round)")
            #expect(result.succeeded)
        }
    }

    @Test("a command past its timeout is killed with its process group, a child it started too; input is fed as the child reads it")
    func timeoutAndInput() throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path("grandchild")
        let started = ContinuousClock.now
        // The shell starts a grandchild (the sleep) in its group, says its pid, and waits for it.
        let slow = try CommandRunner.run(["/bin/sh", "-c", "sleep 300 & echo $! > \"$0\"; wait", pidFile], environment: [:], timeout: .seconds(1))
        #expect(slow.timedOut && !slow.succeeded)
        #expect(ContinuousClock.now - started < .seconds(5))
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let grandchild = try #require(pid_t(text), "the shell wrote no pid: \(text)")
        // Killed with the group: gone once its new parent reaps it (or a zombie until then); only
        // the shell killed, it would sleep on for five minutes.
        let ended = waitUntil(seconds: 10) { hasEnded(grandchild) }
        #expect(ended, "the grandchild \(grandchild) outlived the timeout")
        if !ended { kill(grandchild, SIGKILL) }
        let input = Array(repeating: UInt8(ascii: "x"), count: 300_000)
        let counted = try CommandRunner.run(["/bin/sh", "-c", "wc -c >&2"], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(10), input: input)
        #expect(counted.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "300000")
    }
}
