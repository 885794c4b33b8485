import Glibc

/// Work spread over the machine's cores on threads of this process's own, all joined before it
/// returns. Not Dispatch's pool: on Linux, once its concurrent queues have run anything, its
/// workqueue monitor wakes the process every second for as long as it lives, and a runner that
/// read a calendar on them would never sleep again.
public enum Parallel {
    /// `body` for each index of `0..<count`: the indexes are dealt out in turn to as many threads
    /// as there are cores (this one among them), and each index is run exactly once. A thread the
    /// system cannot start leaves its indexes to this one.
    public static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = min(count, max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))))
        guard threads > 1 else { return (0..<count).forEach(body) }
        func stripe(_ first: Int) -> @Sendable () -> Void {
            { for index in stride(from: first, to: count, by: threads) { body(index) } }
        }
        var started: [pthread_t] = []
        var left: [@Sendable () -> Void] = [stripe(0)]
        for first in 1..<threads {
            let work = Unmanaged.passRetained(Work(stripe(first)))
            var thread = pthread_t()
            let made = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, work.toOpaque())
            if made == 0 {
                started.append(thread)
            } else {
                work.release()
                left.append(stripe(first))
            }
        }
        for run in left { run() }
        for thread in started { pthread_join(thread, nil) }
    }

    /// A stripe of the work, handed to its thread.
    private final class Work {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
