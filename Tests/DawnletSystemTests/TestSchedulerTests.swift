import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Testing

/// The tests' clock: time moves only when a test moves it, and every timer due on the way fires
/// in deadline order, each with its clock reading its deadline.
struct TestSchedulerTests {
    let start = Instant(secondsSinceEpoch: 1_796_115_600)
    let wall = TimerName("wall"), later = TimerName("later"), bound = TimerName("bound", monotonic: true)

    @Test("timers fire in deadline order (armed first among equals), each seeing its own deadline as now; re-arming replaces")
    func order() throws {
        let scheduler = TestScheduler(now: start)
        var fired: [(String, Int64)] = []
        scheduler.fired = { fired.append(($0.name, scheduler.now.secondsSinceEpoch - start.secondsSinceEpoch)) }
        try scheduler.arm(later, at: start.adding(seconds: 30))
        try scheduler.arm(wall, at: start.adding(seconds: 10))
        try scheduler.arm(bound, after: .seconds(10))
        try scheduler.arm(later, at: start.adding(seconds: 20))
        scheduler.advance(by: .seconds(60))
        #expect(fired.map(\.0) == ["wall", "bound", "later"])
        #expect(fired.map(\.1) == [10, 10, 20])
        #expect(scheduler.now == start.adding(seconds: 60))
        #expect(scheduler.elapsed == .seconds(60))
    }

    @Test("a timer a handler arms fires too when it falls due on the way; one it cancels does not")
    func armedWhileFiring() throws {
        let scheduler = TestScheduler(now: start)
        var fired: [String] = []
        scheduler.fired = { timer in
            fired.append(timer.name)
            if timer == wall {
                try? scheduler.arm(later, after: .milliseconds(100))
                scheduler.cancel(bound)
            }
        }
        try scheduler.arm(wall, at: start.adding(seconds: 1))
        try scheduler.arm(bound, after: .seconds(2))
        scheduler.advance(by: .seconds(3))
        #expect(fired == ["wall", "later"])
        #expect(scheduler.armedTimers.isEmpty)
    }

    @Test("the clock set: wall-clock timers now past fire when time next moves; a monotonic one keeps the time it had left")
    func clockSet() throws {
        let scheduler = TestScheduler(now: start)
        var fired: [String] = []
        scheduler.fired = { fired.append($0.name) }
        try scheduler.arm(wall, at: start.adding(seconds: 3_600))
        try scheduler.arm(bound, after: .seconds(15))
        scheduler.setWallClock(to: start.adding(seconds: 7_200))
        #expect(fired.isEmpty)
        scheduler.advance(by: .zero)
        #expect(fired == ["wall"])
        #expect(scheduler.deadline(of: bound) == start.adding(seconds: 7_215))
        scheduler.advance(by: .seconds(15))
        #expect(fired == ["wall", "bound"])
    }

    @Test("runNext jumps to the next timer; a refused timer throws when armed")
    func runNextAndRefusal() throws {
        let scheduler = TestScheduler(now: start)
        try scheduler.arm(wall, at: start.adding(seconds: 86_400))
        #expect(scheduler.runNext() == wall)
        #expect(scheduler.now == start.adding(seconds: 86_400))
        #expect(scheduler.runNext() == nil)
        scheduler.refusing = [wall]
        #expect(throws: SystemError.self) { try scheduler.arm(wall, at: start) }
    }
}
