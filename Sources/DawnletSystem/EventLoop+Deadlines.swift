internal import CLinux
import DawnletCCall
import Glibc

extension EventLoop {
    /// Many timeouts on one CLOCK_MONOTONIC timerfd, armed relatively (as `RelativeTimer`, for
    /// libfaketime) at the earliest deadline: a command's timeout costs no descriptor, no epoll
    /// registration and no timer of its own (the children of one round are started back to back).
    /// The timerfd is opened at the first deadline and kept while the loop lives; it is disarmed
    /// whenever no deadline is left, so an idle loop is never woken by it.
    final class Deadlines {
        /// A deadline, for `remove`.
        struct Token: Hashable {
            fileprivate let id: UInt64
        }

        private unowned let loop: EventLoop
        private var fd: Int32 = -1
        private var source: EventLoop.Source?
        /// Sorted by `at` (microseconds of CLOCK_MONOTONIC), then by id.
        private var entries: [(at: UInt64, id: UInt64, handler: () -> Void)] = []
        private var nextID: UInt64 = 0
        /// The deadline the timerfd is armed for, nil when disarmed.
        private var armedAt: UInt64?

        init(_ loop: EventLoop) { self.loop = loop }

        /// Calls `handler` once, `span` from now, unless removed first.
        func add(after span: Duration, _ handler: @escaping () -> Void) throws(SystemError) -> Token {
            if source == nil { try open() }
            let at = EventLoop.now(CLOCK_MONOTONIC) + span.microseconds
            nextID += 1
            // Most often the latest yet (a round's commands share their timeout): appended.
            var index = entries.count
            while index > 0 && entries[index - 1].at > at { index -= 1 }
            entries.insert((at, nextID, handler), at: index)
            try rearm()
            return Token(id: nextID)
        }

        /// Forgets a deadline (its handler is never called); the timer follows the earliest left.
        func remove(_ token: Token) {
            guard let index = entries.firstIndex(where: { $0.id == token.id }) else { return }
            entries.remove(at: index)
            // Arming an open timerfd with a valid value does not fail; if it ever did, the timer
            // would fire at the old deadline, find nothing due, and be armed again.
            try? rearm()
        }

        /// Off the loop and closed (before the loop is freed).
        func close() {
            source?.cancel()
            source = nil
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
            armedAt = nil
        }

        /// Armed for the earliest deadline, or disarmed when none is left.
        private func rearm() throws(SystemError) {
            guard armedAt != entries.first?.at, fd >= 0 else { return }
            var spec = itimerspec()
            if let at = entries.first?.at {
                // An all-zero value would disarm it: 1 ns is the soonest.
                let now = EventLoop.now(CLOCK_MONOTONIC)
                let nanoseconds = max(at > now ? (at - now) * 1000 : 1, 1)
                spec.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
                spec.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
            }
            armedAt = nil
            try SystemError.posix("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
            armedAt = entries.first?.at
        }

        private func open() throws(SystemError) {
            fd = try SystemError.posix("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
            do throws(SystemError) {
                source = try loop.watch(fd, events: EventLoop.readable) { [weak self] _ in self?.expired() }
            } catch {
                Glibc.close(fd)
                fd = -1
                throw error
            }
        }

        /// Every deadline that has come is taken off first, then their handlers run (they may add
        /// or remove deadlines), then the timer follows what is left.
        private func expired() {
            var count: UInt64 = 0
            guard CCall.posix("read", { read(fd, &count, MemoryLayout<UInt64>.size) }) == MemoryLayout<UInt64>.size else { return }
            armedAt = nil
            let now = EventLoop.now(CLOCK_MONOTONIC)
            let due = entries.prefix { $0.at <= now }
            entries.removeFirst(due.count)
            for entry in due { entry.handler() }
            // As in `remove`: cannot fail on our open timerfd.
            try? rearm()
        }
    }
}
