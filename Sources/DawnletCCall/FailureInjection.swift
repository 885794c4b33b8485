import Glibc
import Synchronization

/// Makes a named C call fail on purpose, in debug builds only: every call the program makes to
/// libsystemd, SQLite, libcurl or the kernel whose failure it handles goes through `CCall`, which
/// asks here first. A test names the function, which call of it (the first, the third…), how many
/// times in a row, and the error; the call then fails as the library would have failed it. In a
/// release build `failure(…)` is nil and costs nothing.
///
/// In-process tests scope a plan to themselves (`FailureInjection.$plan.withValue`); the CLI's
/// end-to-end tests give one to a child process in `DAWNLET_FAIL`, as
/// `function[~context]@nth[xTIMES]=CODE` joined by `,` (`CODE`: a number or an errno name):
/// `sd_bus_call_async@2=ECONNRESET,sqlite3_step~UPDATE deliveries@1x3=5`.
public enum FailureInjection {
    public struct Rule: Sendable, Hashable, CustomStringConvertible {
        public let function: String
        /// Only calls whose context (the SQL, the path) contains this count.
        public let context: String?
        /// The first failing call, from 1, counted among the calls this rule matches.
        public let nth: Int
        public let times: Int
        /// errno for the kernel and libsystemd, the result code for SQLite and libcurl (a
        /// CURLcode, CURLMcode or CURLUcode, as the function returns).
        public let code: Int32

        public init(_ function: String, context: String? = nil, nth: Int = 1, times: Int = 1, code: Int32) {
            self.function = function
            self.context = context
            self.nth = nth
            self.times = times
            self.code = code
        }

        public var description: String { "\(function)\(context.map { "~\($0)" } ?? "")@\(nth)x\(times)=\(code)" }
    }

    /// Rules and how many calls each has seen; safe to share between threads.
    public final class Plan: Sendable {
        private let state: Mutex<(rules: [Rule], seen: [Int], failed: [Int])>

        public init(_ rules: [Rule]) {
            state = Mutex((rules, Array(repeating: 0, count: rules.count), Array(repeating: 0, count: rules.count)))
        }

        /// The rule that fails this call, if any; the call is counted either way.
        func take(_ function: String, context read: () -> String?) -> Rule? {
            state.withLock { state in
                // The context is made only when a rule asks for it (SQL text is not free).
                var context: String??
                for (i, rule) in state.rules.enumerated() where rule.function == function {
                    if let wanted = rule.context {
                        if context == nil { context = .some(read()) }
                        guard let text = context ?? nil, text.contains(wanted) else { continue }
                    }
                    state.seen[i] += 1
                    if state.seen[i] >= rule.nth && state.seen[i] < rule.nth + rule.times {
                        state.failed[i] += 1
                        return rule
                    }
                }
                return nil
            }
        }

        /// The rules that never failed a call: a test that expected them to has a wrong name or count.
        public var unfired: [Rule] {
            state.withLock { state in state.rules.indices.filter { state.failed[$0] == 0 }.map { state.rules[$0] } }
        }

        /// `DAWNLET_FAIL`'s text as a plan; nil for nothing, or for text that is not one.
        public convenience init?(parsing text: String) {
            var rules: [Rule] = []
            for part in text.split(separator: ",") {
                let sides = part.split(separator: "=", maxSplits: 1)
                guard sides.count == 2, let code = Int32(sides[1]) ?? FailureInjection.errnoNames[String(sides[1])] else { return nil }
                let call = sides[0].split(separator: "@", maxSplits: 1)
                guard call.count == 2 else { return nil }
                let count = call[1].split(separator: "x", maxSplits: 1)
                guard let nth = Int(count[0]), let times = count.count == 2 ? Int(count[1]) : 1 else { return nil }
                let named = call[0].split(separator: "~", maxSplits: 1)
                rules.append(Rule(String(named[0]), context: named.count == 2 ? String(named[1]) : nil, nth: nth, times: times, code: code))
            }
            guard !rules.isEmpty else { return nil }
            self.init(rules)
        }
    }

    static let errnoNames: [String: Int32] = [
        "EINTR": EINTR, "EIO": EIO, "ENOMEM": ENOMEM, "ENOSPC": ENOSPC, "EMFILE": EMFILE, "EAGAIN": EAGAIN,
        "ECONNRESET": ECONNRESET, "ETIMEDOUT": ETIMEDOUT, "EPIPE": EPIPE, "EBUSY": EBUSY, "EACCES": EACCES,
    ]

    /// Whether failures can be injected in this build (a debug build): tests that need them ask.
    #if DAWNLET_FAILURE_INJECTION
        public static let isCompiledIn = true
    #else
        public static let isCompiledIn = false
    #endif

    /// The plan of the task running now (an in-process test's); read only where `isCompiledIn`.
    @TaskLocal public static var plan: Plan?

    #if DAWNLET_FAILURE_INJECTION
        /// The plan this process was started with (`DAWNLET_FAIL`).
        static let environmentPlan: Plan? = getenv("DAWNLET_FAIL").flatMap { Plan(parsing: String(cString: $0)) }
    #endif

    /// The rule that makes this call of `function` fail, or nil (always, in a release build).
    @inline(__always)
    public static func failure(_ function: StaticString, context: @autoclosure () -> String? = nil) -> Rule? {
        #if DAWNLET_FAILURE_INJECTION
            guard let plan = plan ?? environmentPlan else { return nil }
            return plan.take("\(function)", context: context)
        #else
            return nil
        #endif
    }
}
